"""Spellchamber's spells and power abilities as the rules apply them: what each declared
`effect` needs (checked by the ruleset), the draft and its slot rule, when a spell may be
played, and the arithmetic of each effect. Pure functions the tracker applies at the table (a
spell played, a shot turned or warded) and the lab applies to the hands only it keeps (the
draft's order and the slot rule).

Readings where the cards are silent (GUIDE.md's spirit: the plainest one): a shot that a
Ricochet or a Misdirection turns onto another wizard is not "shooting yourself" (it never
powers up or earns a turn); a Warding Charm stops all of a Live's loss, a Blood Curse's too,
and the curse is spent by that Live all the same."""

from __future__ import annotations

from collections.abc import Sequence

# spell effect -> (the number fields it needs, whether it has a powered-up part for a hybrid)
SPELL_EFFECTS: dict[str, tuple[tuple[str, ...], bool]] = {
    "mind-control": ((), False), "sleep": ((), False), "peek": ((), False), "discard-top": ((), False),
    "heal": (("gains",), False), "ward": ((), True), "shuffle": (("arranges",), True), "ricochet": ((), True),
    "curse": (("curses",), True), "bolt": (("drains",), False), "siphon": (("drains", "siphons"), False),
    "double-tap": ((), False),
}
SPELL_NUMBERS = ("gains", "drains", "siphons", "curses", "arranges")
# power effect -> the number fields it needs
POWER_EFFECTS: dict[str, tuple[str, ...]] = {
    "chamber-sight": (), "pickpocket": (), "borrowed-time": (), "graverobber": (), "mend": ("mends",),
    "misdirect": (),
}
POWER_NUMBERS = ("mends",)


# ---------------------------------------------------------------------------- the draft


def draft_order(battle: int, players: int, spells: int) -> list[int]:
    """Who takes each spell of the grid, in turn: the player to the battle player's right
    first (the seat before it, as battle turns go up the seats), then counter-clockwise."""
    return [(battle - 1 - i) % players for i in range(spells)]


def free_slots(held: Sequence[int], spell_slots: int) -> int:
    """Slots left to a player holding spells of `held` slots each."""
    return spell_slots - sum(held)


def make_room(held: Sequence[int], new: int, spell_slots: int, drop_order: Sequence[int]) -> list[int] | None:
    """The held spells (indices) a player discards, in their `drop_order`, to fit a new spell of
    `new` slots: none if it fits already; None if it still would not fit, when the new spell is
    discarded instead (the rule lets a player do either)."""
    room, dropped = free_slots(held, spell_slots), []
    for i in drop_order:
        if room >= new:
            break
        room += held[i]
        dropped.append(i)
    return dropped if room >= new else None


# ---------------------------------------------------------------------------- playing spells


def may_play(kind: str, powered: bool) -> bool:
    """A powered-up spell is played only while powered up; regular and hybrid ones any time
    a spell may be played (on your battle turn, before you shoot)."""
    return powered or kind != "powered"


def powered_part(kind: str, powered: bool) -> bool:
    """Whether a hybrid spell does its red text: its caster is powered up as they play it."""
    return kind == "hybrid" and powered


def live_loss(base: int, cursed: int, warded: bool) -> int:
    """What a Live costs the wizard it hits: its own loss and every Blood Curse on them; none
    at all behind a Warding Charm."""
    return 0 if warded else base + cursed


def extra_turn_allowed(extra_turn_if_self: bool, cursed_powered: bool) -> bool:
    """A self-shot card's extra turn, unless a powered Blood Curse on the shooter forbids it."""
    return extra_turn_if_self and not cursed_powered


def rearranged(chamber: Sequence[str], order: Sequence[int], bottom: int = 0) -> list[str]:
    """The chamber once a player who looked at its top `len(order)` cards put them back in
    `order` (a permutation of their places), the last `bottom` of them at the bottom (Spin the
    Chamber's powered-up part: none; Chamber Sight: its one card, or none)."""
    k = len(order)
    placed = [chamber[i] for i in order]
    return [*placed[: k - bottom], *chamber[k:], *placed[k - bottom:]]


def redirected(aimed: int, shooter: int, ricochet: bool, misdirect_to: int | None) -> int:
    """Whom a shot aimed at another wizard hits: the shooter if the aimed-at wizard's
    Ricochet turns it back, else the wizard their Misdirection names (even the shooter),
    else the aimed-at wizard. A self-aimed shot is never redirected."""
    if aimed == shooter:
        return aimed
    if ricochet:
        return shooter
    return aimed if misdirect_to is None else misdirect_to


def borrowed_turn(earned: int, max_extra: int) -> bool:
    """Borrowed Time's extra turn: given only while this turn has earned fewer than the most."""
    return earned < max_extra
