"""What a table or a rule helper refuses, and why: the companion turns these into 4xx answers."""

from __future__ import annotations


class TableError(Exception):
    """An action or a set-up the table refuses; the state stays as it was."""


class Invalid(TableError):
    """The request makes no sense for this table (unknown counter, a value out of range...)."""


class Conflict(TableError):
    """The request made sense, but not any more: a stale version, nothing left to undo."""
