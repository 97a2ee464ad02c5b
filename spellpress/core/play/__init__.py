"""What every game at the table is made of: the errors a table answers with, the checks on what
a phone sends, a table's state and the words of its log, and the shapes of a tracker, a rule
helper and a table option. Nothing here knows one game from another: each game's own rules are
in `spellpress.core.games`."""
