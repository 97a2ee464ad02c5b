"""`make bench`: Spellpress's speed, measured against baselines run in the same command."""
