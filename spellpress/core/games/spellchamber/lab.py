"""Spellchamber in the lab: the roll-off for the first battle player, rounds of scenario cards,
the spell draft into spell slots, the shuffled chamber, spells and wizards' powers played on a
battle turn, aiming and shooting, ammo effects as the YAML declares them (life lost, a Magic
shot's draft, the power-up, one extra turn for a self-shot Blank), ghosts (always powered up,
drafting as their turn begins), and the next round's battle player. Every rule is the core's:
`deck_for`, `roll_off`, `shot_effect`, the tracker's `turn_after`, the counter's `clamp`, the
rule helper's `next_shot` odds, and spells.py's draft, slot and effect rules. Each seat is dealt
a wizard at random; a spell or wizard with no declared effect is drafted but never played, and
named in every report.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from ...engine import Lab, Outcome
from ...models import Card, Game
from ...play.state import CounterSpec, clamp, shuffled
from .helpers import next_shot
from .ruleset import AMMO_KINDS, Constants, deck_for, roll_off, roll_off_winner, shot_effect
from .spells import (
    POWER_EFFECTS,
    SPELL_EFFECTS,
    borrowed_turn,
    draft_order,
    extra_turn_allowed,
    free_slots,
    live_loss,
    make_room,
    may_play,
    powered_part,
    rearranged,
    redirected,
)
from .tracker import LIFE, Turn, turn_after

SLUG = "spellchamber"
POLICIES = {
    "random": "draft any spell, play each playable spell and the power half the time at anyone, aim at anyone standing",
    "greedy": "draft the spell worth most for its slots; look before shooting, ward and curse while a Live is left, "
              "bolt the weakest; aim at itself when the top card is known safe or no Live is left, else at the weakest",
}
# the greedy policy's worth of each effect when drafting and keeping (a heuristic, not a rule)
WORTH = {"sleep": 6, "mind-control": 5, "ricochet": 5, "ward": 5, "siphon": 5, "bolt": 4, "curse": 4, "heal": 4,
         "double-tap": 3, "peek": 3, "shuffle": 2, "discard-top": 2}


@dataclass(frozen=True)
class Spell:
    id: str
    kind: str
    slots: int
    effect: str | None
    n: dict[str, int]  # the effect's numbers (gains, drains, siphons, curses, arranges)


@dataclass(frozen=True)
class Prepared:
    c: Constants
    life: CounterSpec
    ammo_card: dict[str, str]  # ammo kind -> the ammo card's id
    decks: dict[str, tuple[int, int]]  # scenario deck key -> [fewest, most] players
    # deck key -> (card id, count, chamber by kind, spells per player)
    scenarios: dict[str, list[tuple[str, int, dict[str, int], int]]]
    spells: dict[str, Spell] = field(default_factory=dict)
    spell_deck: tuple[str, ...] = ()  # every copy
    wizards: tuple[tuple[str, str | None, int], ...] = ()  # (id, power effect, mends)


def prepare(game: Game) -> Prepared:
    c = game.constants_as(Constants)
    life = next(x for x in game.counters if x.id == LIFE)
    spec: CounterSpec = {"id": life.id, "label": life.label, "scope": life.scope, "start": life.start,
                         "min": life.min, "max": life.max, "step": life.step}
    scenarios = {key: [(card.id, card.count, {k: int(card.get(k, 0)) for k in AMMO_KINDS},
                        int(card.get("spells_per_player", 0)))
                       for card in game.decks[s.deck].cards] for key, s in c.scenario_decks.items()}
    cards = game.decks[c.spell_deck].cards if c.spell_deck in game.decks else ()
    spells = {card.id: Spell(card.id, card.get("kind"), card.get("slots"), card.get("effect"),
                             {k: int(card.get(k)) for k in ("gains", "drains", "siphons", "curses", "arranges")
                              if card.get(k) is not None}) for card in cards}
    return Prepared(
        c=c, life=spec,
        ammo_card={card.get("kind"): card.id for card in game.decks[c.ammo_deck].cards},
        decks={key: (s.players.min, s.players.max) for key, s in c.scenario_decks.items()},
        scenarios=scenarios, spells=spells,
        spell_deck=tuple(card.id for card in cards for _ in range(card.count)),
        wizards=tuple((card.id, card.get("effect"), int(card.get("mends") or 0))
                      for card in game.cards if card.type == "wizard"),
    )


NO_EFFECT = ("gun", "life-tracker", "aid")  # card types that are components or reminders, with no effect to apply
APPLIED_TYPES = ("scenario", "ammo", "ghost")  # the ghost: cannot shoot or be aimed at, drafts and plays its spells


def modelled(game: Game) -> tuple[list[str], list[str]]:
    """Spells and wizards count once their declared effect is one the lab plays."""
    cards = [card for card in game.cards if card.type not in NO_EFFECT]

    def applied(card: Card) -> bool:
        kind, effect = card.type, card.get("effect")
        return (kind in APPLIED_TYPES or (kind == "spell" and effect in SPELL_EFFECTS)
                or (kind == "wizard" and effect in POWER_EFFECTS))
    return [c.id for c in cards if applied(c)], [c.id for c in cards if not applied(c)]


class Table:
    """One game's state, as the lab keeps it (the rules that change it are the core's)."""

    def __init__(self, p: Prepared, rng: random.Random, k: int, policies: tuple[str, ...]) -> None:
        self.p, self.rng, self.k, self.c = p, rng, k, p.c
        self.policy = [POLICY[name] for name in policies]
        self.life = [p.life["start"]] * k
        self.powered = [False] * k
        self.held: list[list[str]] = [[] for _ in range(k)]
        self.deck = shuffled(p.spell_deck, rng.randrange)
        self.discard: list[str] = []
        dealt = shuffled(p.wizards, rng.randrange)
        self.wizard = [dealt[s % len(dealt)] if dealt else None for s in range(k)]
        self.ghosts = k >= self.c.ghosts_from_players
        self.chamber: list[str] = []
        self.shots_owed = 1  # shots left this battle turn (Double Tap adds one)
        self.out = Outcome(winner=None, finished=False, first=0, turns=0, rounds=0, played=[Counter() for _ in range(k)])
        for w in self.wizard:
            if w is not None:
                self.out.drawn[w[0]] += 1
        self.new_round()

    def new_round(self) -> None:
        k = self.k
        self.ward: list[list[tuple[str, bool]]] = [[] for _ in range(k)]
        self.ricochet: list[list[tuple[str, bool]]] = [[] for _ in range(k)]
        self.curse: list[list[tuple[str, int, bool]]] = [[] for _ in range(k)]
        self.asleep: list[list[str]] = [[] for _ in range(k)]
        self.controlled: list[int | None] = [None] * k
        self.misdirect: list[int | None] = [None] * k
        self.seen = [0] * k  # top cards of the chamber each seat knows

    def end_round(self) -> None:
        """Ongoing effects end: the spells kept in front of wizards go to the discard pile."""
        for s in range(self.k):
            self.discard += [i for i, _ in self.ward[s]] + [i for i, _ in self.ricochet[s]]
            self.discard += [i for i, _, _ in self.curse[s]] + self.asleep[s]
        self.powered = [self.ghosts and self.life[s] == 0 for s in range(self.k)]
        self.new_round()

    # ------------------------------------------------------------------ who is where
    def standing(self) -> list[int]:
        return [s for s in range(self.k) if self.life[s] > 0]

    def over(self) -> bool:
        return len(self.standing()) <= 1

    def weakest(self, me: int) -> int | None:
        others = [q for q in self.standing() if q != me]
        return min(others, key=lambda q: (self.life[q], (q - me) % self.k)) if others else None

    def live_left(self) -> bool:
        return any(self.c.ammo[kind].life_loss > 0 for kind in self.chamber)

    def hurt(self, s: int, amount: int, how: str) -> None:
        before = self.life[s]
        self.life[s] = clamp(before - amount, self.p.life)  # the life counter's bounds: 0 to the die's top face
        if before > 0 and self.life[s] == 0:
            self.out.figures[f"deaths by {how}"] += 1
            if self.ghosts:
                self.powered[s] = True  # a ghost is always powered up

    def heal(self, s: int, amount: int) -> None:
        if self.life[s] > 0:
            self.life[s] = clamp(self.life[s] + amount, self.p.life)

    # ------------------------------------------------------------------ spells in and out
    def draw_spell(self) -> str | None:
        if not self.deck:
            self.deck, self.discard = shuffled(self.discard, self.rng.randrange), []
        return self.deck.pop() if self.deck else None

    def take(self, s: int, spell: str) -> bool:
        """Player s drafts `spell` into their slots, discarding held spells to make room as
        their policy chooses, or discards the new spell instead."""
        p, held = self.p, self.held[s]
        sizes = [p.spells[i].slots for i in held]
        if free_slots(sizes, self.c.spell_slots) >= p.spells[spell].slots:
            held.append(spell)
            return True
        order = self.policy[s].drop_order(self, s, spell)
        dropped = make_room(sizes, p.spells[spell].slots, self.c.spell_slots, order) if order is not None else None
        if dropped is None:
            self.discard.append(spell)
            return False
        for i in sorted(dropped, reverse=True):
            self.discard.append(held.pop(i))
        held.append(spell)
        return True

    def draft(self, battle: int, per_player: int) -> None:
        grid = [s for s in (self.draw_spell() for _ in range(per_player * self.k)) if s is not None]
        for spell in grid:
            self.out.drawn[spell] += 1
        for s in draft_order(battle, self.k, len(grid)):
            pick = grid.pop(self.policy[s].pick(self, s, grid))
            self.take(s, pick)

    def draft_top(self, s: int, n: int) -> None:
        for _ in range(n):
            spell = self.draw_spell()
            if spell is not None:
                self.out.drawn[spell] += 1
                self.take(s, spell)

    # ------------------------------------------------------------------ the chamber
    def pop_top(self) -> str:
        self.seen = [max(0, n - 1) for n in self.seen]
        return self.chamber.pop(0)

    def odds_live(self) -> float:
        if not self.chamber:
            return 0.0
        left = Counter(self.chamber)
        odds = next_shot({k: left[k] for k in AMMO_KINDS}, dict.fromkeys(AMMO_KINDS, 0))
        return float(sum(odds[k] for k in AMMO_KINDS if self.c.ammo[k].life_loss > 0))

    def top(self, s: int) -> str | None:
        return self.chamber[0] if self.seen[s] and self.chamber else None

    # ------------------------------------------------------------------ a spell or power
    def play_spell(self, s: int, spell: Spell, target: int | None) -> None:
        """Applies a spell of player s (its target chosen already, where it needs one)."""
        self.held[s].remove(spell.id)
        self.out.played[s][spell.id] += 1
        red = powered_part(spell.kind, self.powered[s])
        effect, kept = spell.effect, False
        if effect == "mind-control" and target is not None:
            self.controlled[target] = s
        elif effect == "sleep" and target is not None:
            self.asleep[target].append(spell.id)
            kept = True
        elif effect == "peek":
            self.seen[s] = max(self.seen[s], 1)
        elif effect == "discard-top":
            self.out.figures[f"vanished {self.pop_top()}"] += 1
        elif effect == "heal":
            self.heal(s, spell.n["gains"])
        elif effect == "ward":
            self.ward[s].append((spell.id, red))
            kept = True
        elif effect == "shuffle":
            if red:
                n = min(spell.n["arranges"], len(self.chamber))
                self.chamber = rearranged(self.chamber, self.policy[s].arrange(self, s, self.chamber[:n]))
                self.seen = [0] * self.k
                self.seen[s] = n
            else:
                self.chamber = shuffled(self.chamber, self.rng.randrange)
                self.seen = [0] * self.k
        elif effect == "ricochet":
            self.ricochet[s].append((spell.id, red))
            kept = True
        elif effect == "curse" and target is not None:
            self.curse[target].append((spell.id, spell.n["curses"], red))
            kept = True
        elif effect in ("bolt", "siphon") and target is not None:
            self.hurt(target, spell.n["drains"], "spell")
            if effect == "siphon" and self.life[s] > 0:
                self.heal(s, spell.n["siphons"])
        elif effect == "double-tap":
            self.shots_owed += 1
        if not kept:
            self.discard.append(spell.id)

    def use_power(self, s: int, effect: str, mends: int, turn: Turn) -> Turn:
        """Applies player s's power ability; using it powers them down."""
        wizard = self.wizard[s]
        assert wizard is not None
        self.out.played[s][wizard[0]] += 1
        self.powered[s] = False
        pol = self.policy[s]
        if effect == "chamber-sight":
            self.seen[s] = max(self.seen[s], 1)
            if not pol.keep_on_top(self, s, self.chamber[0]):
                self.chamber = rearranged(self.chamber, [0], bottom=1)
                self.seen = [0] * self.k
        elif effect == "pickpocket":
            victim, spell = pol.steal(self, s, [(q, i) for q in range(self.k) if q != s for i in self.held[q]])
            self.held[victim].remove(spell)
            self.take(s, spell)
        elif effect == "graverobber":
            spell = pol.rob(self, s, self.discard)
            self.discard.remove(spell)
            self.take(s, spell)
        elif effect == "borrowed-time":
            if borrowed_turn(turn["earned"], self.c.max_extra_turns_per_turn):
                turn = {**turn, "earned": turn["earned"] + 1}
        elif effect == "mend":
            other = pol.mend_whom(self, s)
            self.heal(s, mends)
            if other is not None:
                self.heal(other, mends)
        elif effect == "misdirect":
            self.misdirect[s] = pol.misdirect_to(self, s)
        return turn

    def power_usable(self, s: int, effect: str) -> bool:
        if effect == "chamber-sight":
            return bool(self.chamber)
        if effect == "pickpocket":
            return any(self.held[q] for q in range(self.k) if q != s)
        if effect == "graverobber":
            return bool(self.discard)
        return True

    def spells_phase(self, s: int, turn: Turn) -> Turn:
        """Player s plays the spells (and, a living wizard, the power) their policy chooses."""
        pol = self.policy[s]
        for spell_id in pol.order(self, s, list(self.held[s])):
            if self.over() or not self.chamber:
                return turn
            spell = self.p.spells[spell_id]
            if spell_id not in self.held[s] or spell.effect is None or not may_play(spell.kind, self.powered[s]):
                continue
            wants, target = pol.cast(self, s, spell)
            if wants:
                self.play_spell(s, spell, target)
        wizard = self.wizard[s]
        if (self.life[s] > 0 and self.powered[s] and wizard is not None and wizard[1] is not None and self.chamber
                and self.power_usable(s, wizard[1]) and pol.power(self, s, wizard[1], turn)):
            turn = self.use_power(s, wizard[1], wizard[2], turn)
        return turn

    def shoot(self, me: int, turn: Turn, first: bool) -> Turn:
        c = self.c
        controller = self.controlled[me]
        aimed = (self.policy[controller].aim_for(self, controller, me) if controller is not None
                 else self.policy[me].aim(self, me))
        hit, choose_after = aimed, None
        if aimed != me and self.ricochet[aimed]:
            spell, red = self.ricochet[aimed].pop(0)
            self.discard.append(spell)
            if red:
                choose_after = aimed
            else:
                hit = redirected(aimed, me, True, None)
        elif aimed != me and self.misdirect[aimed] is not None:
            to, self.misdirect[aimed] = self.misdirect[aimed], None
            hit = redirected(aimed, me, False, to if to is not None and self.life[to] > 0 else None)
        kind = self.pop_top()
        if choose_after is not None and self.policy[choose_after].send_back(self, choose_after, kind):
            hit = me
        self.out.figures["shots redirected"] += hit != aimed
        effect = c.ammo[kind]
        self.out.drawn[self.p.ammo_card[kind]] += 1
        self.out.played[me][self.p.ammo_card[kind]] += 1
        before = self.life[hit]
        cursed_powered = any(red for _, _, red in self.curse[me])
        if effect.life_loss:
            warded = self.ward[hit].pop(0) if self.ward[hit] else None
            loss = live_loss(effect.life_loss, sum(n for _, n, _ in self.curse[hit]), warded is not None)
            self.discard += [i for i, _, _ in self.curse[hit]]
            self.curse[hit] = []
            self.hurt(hit, loss, kind)
            if warded is not None:
                self.discard.append(warded[0])
                if warded[1] and me != hit:
                    self.hurt(me, effect.life_loss, kind)
        if effect.drafts and self.life[hit] > 0:
            self.out.figures["spells drafted by Magic"] += effect.drafts
            self.draft_top(hit, effect.drafts)
        itself = me == aimed
        shot = shot_effect(itself, self.life[hit] != before, self.powered[me],
                           extra_turn_allowed(effect.extra_turn_if_self, cursed_powered),
                           turn["earned"], c.max_extra_turns_per_turn)
        self.powered[me] = self.powered[me] or shot.powered_up
        self.out.figures[f"shots {kind}"] += 1
        if first:
            self.out.figures[f"first shot of the game {kind}"] += 1
        if before > 0 and self.life[hit] == 0:
            self.out.figures["self-inflicted deaths"] += me == hit
        return {**turn, "shots": turn["shots"] + 1, "earned": turn["earned"] + bool(shot.extra_turn)}

    def battle_turn(self, turn: Turn) -> Turn:
        me = turn["player"]
        if self.life[me] == 0:  # a ghost: drafts, plays spells, passes the gun
            if self.ghosts:
                self.draft_top(me, self.c.ghost_drafts)
                turn = self.spells_phase(me, turn)
            return turn
        if self.asleep[me]:
            self.discard.append(self.asleep[me].pop(0))
            self.out.figures["turns slept"] += 1
            return turn
        self.out.turns += 1
        self.shots_owed = 1
        turn = self.spells_phase(me, turn)
        while self.shots_owed > 0 and self.chamber and not self.over() and self.life[me] > 0:
            self.shots_owed -= 1
            turn = self.shoot(me, turn, sum(self.out.figures[f"shots {k}"] for k in AMMO_KINDS) == 0)
        self.controlled[me] = None
        return turn


def play(p: Prepared, rng: random.Random, k: int, policies: tuple[str, ...], cap: int, record: bool = False) -> Outcome:
    c = p.c
    key = deck_for(p.decks, k)
    assert key is not None, "players are checked against the game's range before play"
    order: list[str] = []
    chambers = {card: (count, chamber, spells) for card, count, chamber, spells in p.scenarios[key]}
    battle = roll_off_winner(roll_off(range(k), c.die_sides, rng.randrange)) or 0
    t = Table(p, rng, k, policies)
    out = t.out
    out.first = battle
    while not t.over() and out.rounds < cap:
        if not order:
            order = shuffled([card for card, (count, _, _) in chambers.items() for _ in range(max(count, 1))], rng.randrange)
        scenario = order.pop(0)
        out.rounds += 1
        out.drawn[scenario] += 1
        _, loaded, per_player = chambers[scenario]
        t.chamber = shuffled([kind for kind, n in loaded.items() for _ in range(n)], rng.randrange)
        t.draft(battle, per_player)
        turn: Turn = {"player": battle, "extra": False, "earned": 0, "owed": 0, "shots": 0}
        while t.chamber and not t.over():
            turn = turn_after(t.battle_turn(turn), k)
        battle = turn["player"]
        t.end_round()
    alive = t.standing()
    out.finished = len(alive) <= 1
    out.winner = alive[0] if len(alive) == 1 else None
    return out


TARGETED = ("mind-control", "sleep", "curse", "bolt", "siphon")  # spells that choose another wizard


class Random:
    """Any legal choice, each alike."""

    @staticmethod
    def drop_order(t: Table, s: int, new: str) -> list[int] | None:
        if t.rng.randrange(2):
            return None  # no room: discard the new spell, or (below) held ones in any order
        return shuffled(range(len(t.held[s])), t.rng.randrange)

    @staticmethod
    def pick(t: Table, s: int, grid: list[str]) -> int:
        return t.rng.randrange(len(grid))

    @staticmethod
    def order(t: Table, s: int, held: list[str]) -> list[str]:
        return held

    @staticmethod
    def cast(t: Table, s: int, spell: Spell) -> tuple[bool, int | None]:
        if t.rng.randrange(2):
            return False, None
        if spell.effect not in TARGETED:
            return True, None
        others = [q for q in t.standing() if q != s]
        return (True, others[t.rng.randrange(len(others))]) if others else (False, None)

    @staticmethod
    def power(t: Table, s: int, effect: str, turn: Turn) -> bool:
        return bool(t.rng.randrange(2))

    @staticmethod
    def aim(t: Table, s: int) -> int:
        standing = t.standing()
        return standing[t.rng.randrange(len(standing))]

    @staticmethod
    def aim_for(t: Table, s: int, victim: int) -> int:
        return Random.aim(t, s)

    @staticmethod
    def arrange(t: Table, s: int, top: list[str]) -> list[int]:
        return shuffled(range(len(top)), t.rng.randrange)

    @staticmethod
    def keep_on_top(t: Table, s: int, kind: str) -> bool:
        return bool(t.rng.randrange(2))

    @staticmethod
    def steal(t: Table, s: int, held: list[tuple[int, str]]) -> tuple[int, str]:
        return held[t.rng.randrange(len(held))]

    @staticmethod
    def rob(t: Table, s: int, pile: list[str]) -> str:
        return pile[t.rng.randrange(len(pile))]

    @staticmethod
    def mend_whom(t: Table, s: int) -> int | None:
        others = [q for q in t.standing() if q != s]
        return others[t.rng.randrange(len(others))] if others else None

    @staticmethod
    def misdirect_to(t: Table, s: int) -> int | None:
        return Random.mend_whom(t, s)

    @staticmethod
    def send_back(t: Table, s: int, kind: str) -> bool:
        return bool(t.rng.randrange(2))


def _worth(t: Table, spell: str) -> float:
    s = t.p.spells[spell]
    return WORTH.get(s.effect or "", 0) - s.slots / 2


def _safe(t: Table, kind: str) -> bool:
    return t.c.ammo[kind].life_loss == 0


class Greedy:
    """The spell worth most for its slots; each spell when it helps now; aim by what is known."""

    @staticmethod
    def drop_order(t: Table, s: int, new: str) -> list[int] | None:
        order = sorted(range(len(t.held[s])), key=lambda i: _worth(t, t.held[s][i]))
        sizes = [t.p.spells[i].slots for i in t.held[s]]
        dropped = make_room(sizes, t.p.spells[new].slots, t.c.spell_slots, order)
        if dropped is None or (dropped and sum(_worth(t, t.held[s][i]) for i in dropped) >= _worth(t, new)):
            return None  # keep what is held: the new spell is worth less than what it would push out
        return order

    @staticmethod
    def pick(t: Table, s: int, grid: list[str]) -> int:
        return max(range(len(grid)), key=lambda i: _worth(t, grid[i]))

    @staticmethod
    def order(t: Table, s: int, held: list[str]) -> list[str]:
        first = ("peek", "shuffle", "discard-top")  # what is known first decides the rest
        return sorted(held, key=lambda i: t.p.spells[i].effect not in first)

    @staticmethod
    def cast(t: Table, s: int, spell: Spell) -> tuple[bool, int | None]:
        effect, alive, live = spell.effect, t.life[s] > 0, t.live_left()
        target = t.weakest(s)
        nxt = next((q for q in ((s + i) % t.k for i in range(1, t.k)) if t.life[q] > 0), None)
        if effect in ("bolt", "siphon"):
            return target is not None, target
        if effect in ("mind-control", "sleep"):
            return live and nxt is not None and len(t.chamber) > 1, nxt
        if effect == "curse":
            return live and target is not None and not t.curse[target], target
        if effect in ("ward", "ricochet"):
            return alive and live and not (t.ward[s] if effect == "ward" else t.ricochet[s]), None
        if effect == "heal":
            return alive and t.life[s] < t.c.die_sides, None
        if effect == "peek":
            return alive and not t.seen[s] and len(t.chamber) > 1, None
        if effect == "shuffle":
            return alive and powered_part(spell.kind, t.powered[s]) and t.seen[s] < spell.n["arranges"], None
        if effect == "discard-top":  # a likely Live that would come back: its aim is another's, or turned back
            top = t.top(s)
            likely = not _safe(t, top) if top is not None else t.odds_live() >= 0.5
            back = t.controlled[s] is not None or (target is not None and bool(t.ricochet[target] or t.misdirect[target]))
            return alive and likely and back, None
        if effect == "double-tap":
            return alive and t.odds_live() >= 0.5, None
        return False, None

    @staticmethod
    def power(t: Table, s: int, effect: str, turn: Turn) -> bool:
        if any(t.p.spells[i].kind == "powered" for i in t.held[s]):
            return False  # keep powered up for the powered-up spells held
        if effect == "chamber-sight":
            return not t.seen[s]
        if effect == "mend":
            return t.life[s] < t.c.die_sides
        if effect == "misdirect":
            return t.live_left() and t.misdirect[s] is None
        if effect == "borrowed-time":
            return borrowed_turn(turn["earned"], t.c.max_extra_turns_per_turn)
        return True  # pickpocket, graverobber: a spell for nothing

    @staticmethod
    def aim(t: Table, s: int) -> int:
        top = t.top(s)
        weakest = t.weakest(s)
        if weakest is None or (top is not None and _safe(t, top)) or (top is None and not t.live_left()):
            return s
        return weakest

    @staticmethod
    def aim_for(t: Table, s: int, victim: int) -> int:
        return victim  # the controlled wizard shoots themselves

    @staticmethod
    def arrange(t: Table, s: int, top: list[str]) -> list[int]:
        hurts = t.weakest(s) is not None and any(not _safe(t, k) for k in top)
        return sorted(range(len(top)), key=lambda i: _safe(t, top[i]) if hurts else not _safe(t, top[i]))

    @staticmethod
    def keep_on_top(t: Table, s: int, kind: str) -> bool:
        return _safe(t, kind) or t.controlled[s] is None

    @staticmethod
    def steal(t: Table, s: int, held: list[tuple[int, str]]) -> tuple[int, str]:
        return max(held, key=lambda qi: _worth(t, qi[1]))

    @staticmethod
    def rob(t: Table, s: int, pile: list[str]) -> str:
        return max(pile, key=lambda i: _worth(t, i))

    @staticmethod
    def mend_whom(t: Table, s: int) -> int | None:
        others = [q for q in t.standing() if q != s]
        return max(others, key=lambda q: t.life[q]) if others else None  # helps the foe least

    @staticmethod
    def misdirect_to(t: Table, s: int) -> int | None:
        return t.weakest(s)

    @staticmethod
    def send_back(t: Table, s: int, kind: str) -> bool:
        return not _safe(t, kind)  # a Live back at the shooter; a Magic's spell or a Blank for itself


POLICY: dict[str, type[Random] | type[Greedy]] = {"random": Random, "greedy": Greedy}


LAB = Lab(
    ruleset=SLUG,
    policies=POLICIES,
    prepare=prepare,
    play=play,
    modelled=modelled,
    first_rule="a die roll-off: the highest roll is the first battle player",
    turn_cap=500,
)
