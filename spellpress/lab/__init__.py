"""The balance lab: plays many seeded games of a deck with the core's own rule functions and
reports who wins, how long games last and what each card does for the side that plays it.

`engine` runs the games (in seeded batches, over forked processes if asked) and adds up their
outcomes, `stats` holds the Wilson intervals and quantiles, `report` turns a tally into the
table and the JSON, `compare` says what moved between two versions of a game (`--against`),
`vary` plays a sweep over one constant's values (`--vary`), `pdf` draws the report (`--pdf`),
`run` checks the input and picks the game's model, `cluster` plays the batches on a Dask
cluster (`--cluster`), `balance` is `validate --balance`, and `cli` is the `simulate` subcommand.
One module per game plays it with its policies: `powermage_54`, `spellchamber`,
`sorcerer_duel` and `powers_combined` (co-operative); Magicka Mayhem is not played yet.
"""
