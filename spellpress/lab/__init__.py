"""The balance lab: plays many seeded games of a deck by the game's own engine (its tracker, the
rules the companion's table plays by) and reports who wins, how long games last and what each
card does for the side that plays it.

Each game's lab model lives in its own folder, `spellpress/core/games/<game>/lab.py` (its LAB:
the hidden hands and deck orders a table cannot know, and the policies that choose moves), and is
registered by the game's Ruleset; every move is made through `spellpress.core.engine.Match`.
Here: `engine` runs the games (in seeded batches, over forked processes if asked) and adds up their
outcomes, `stats` holds the Wilson intervals and quantiles, `report` turns a tally into the table
and the JSON, `compare` says what moved between two versions of a game (`--against`), `vary`
plays a sweep over one constant's values (`--vary`), `pdf` draws the report (`--pdf`), `run`
checks the input and picks the game's model, `cluster` plays the batches on a Dask cluster
(`--cluster`), `balance` is `validate --balance`, and `cli` is the `simulate` subcommand.
"""
