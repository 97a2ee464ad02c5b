"""The choices a table is started with (a mode, a first scenario, each player's deck), which a
game's ruleset makes from its constants and decks."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Choice:
    value: str
    label: str
    players: tuple[int, int] | None = None  # the player counts it suits; None for any

    def suits(self, players: int) -> bool:
        return self.players is None or self.players[0] <= players <= self.players[1]


@dataclass(frozen=True)
class Option:
    """A choice made when a table starts, for the whole table or for each player."""

    id: str
    label: str
    scope: str  # "table" or "player"
    choices: tuple[Choice, ...]
    preferred: tuple[str, ...] = ()  # the default, where it suits the number of players

    def values(self, players: int) -> list[str]:
        return [c.value for c in self.choices if c.suits(players)]

    def default(self, players: int, index: int = 0) -> str:
        """The preferred choice, else the first that suits; players get different ones in turn."""
        values = self.values(players)
        for value in self.preferred:
            if value in values:
                return value
        return values[index % len(values)]

    def label_of(self, value: str) -> str:
        return next((c.label for c in self.choices if c.value == value), value)
