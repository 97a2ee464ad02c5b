"""The balance lab: plays many seeded games of a deck with the core's own rule functions and
reports who wins, how long games last and what each card does for the side that plays it.

`engine` runs the games (in seeded batches, over processes if asked), `stats` holds the
confidence intervals and quantiles, `report` turns a tally into the table and the JSON, and one
module per game (`powermage_54`, `spellchamber`) plays that game with its policies.
"""
