"""Spellchamber in the lab: the game played at a table (core/engine.py's Match) by its tracker's
own moves (start_round, lay_out, draft, cast, use_power, peek, arrange, shoot, ricochet, pass),
with what only the players know beside it: the spell deck's order, what each seat has seen of the
chamber, and the policies choosing moves (which spell to draft, what to discard to make room, what
to play, whom to aim at). Everything the table shows (life, the chamber's counts, the round, the
battle turn, powering up, the draft's grid and order, the spells each wizard holds and keeps in
front of them, the discard pile, the winner) is read from the match's state; the tracker applies
every rule. Each seat is dealt a wizard at random, told to the table as the seat's `wizard`
option; a spell or wizard with no declared effect is drafted but never played, and named in every
report.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ...engine import Lab, Match, Outcome, randbelow_of
from ...models import Card, Game
from ...play.state import shuffled
from .helpers import next_shot
from .options import SHUFFLED
from .ruleset import Constants
from .spells import POWER_EFFECTS, SPELL_EFFECTS, SPELL_NUMBERS, borrowed_turn, free_slots, make_room, may_play, powered_part
from .tracker import LIFE, TARGETED

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
    game: Game
    c: Constants
    ammo_card: dict[str, str]  # ammo kind -> the ammo card's id
    spells: dict[str, Spell]
    spell_deck: tuple[str, ...]  # every copy
    wizards: tuple[tuple[str, str | None], ...]  # (id, power effect)


def prepare(game: Game) -> Prepared:
    c = game.constants_as(Constants)
    cards = game.decks[c.spell_deck].cards if c.spell_deck in game.decks else ()
    spells = {card.id: Spell(card.id, card.get("kind"), card.get("slots"), card.get("effect"),
                             {k: int(card.get(k)) for k in SPELL_NUMBERS if card.get(k) is not None}) for card in cards}
    return Prepared(
        game=game, c=c,
        ammo_card={card.get("kind"): card.id for card in game.decks[c.ammo_deck].cards},
        spells=spells,
        spell_deck=tuple(card.id for card in cards for _ in range(card.count)),
        wizards=tuple((card.id, card.get("effect")) for card in game.cards if card.type == "wizard"),
    )


NO_EFFECT = ("gun", "life-tracker", "aid")  # card types that are components or reminders, with no effect to apply
APPLIED_TYPES = ("scenario", "ammo", "ghost")  # the ghost: cannot shoot or be aimed at, drafts and plays its spells


def modelled(game: Game) -> tuple[list[str], list[str]]:
    """Spells and wizards count once their declared effect is one the table applies."""
    cards = [card for card in game.cards if card.type not in NO_EFFECT]

    def applied(card: Card) -> bool:
        kind, effect = card.type, card.get("effect")
        return (kind in APPLIED_TYPES or (kind == "spell" and effect in SPELL_EFFECTS)
                or (kind == "wizard" and effect in POWER_EFFECTS))
    return [c.id for c in cards if applied(c)], [c.id for c in cards if not applied(c)]


class Table:
    """One game: its table (the match) and what only the players know beside it."""

    def __init__(self, p: Prepared, rng: random.Random, k: int, policies: tuple[str, ...], record: bool) -> None:
        self.p, self.rng, self.k, self.c = p, rng, k, p.c
        self.policy = [POLICY[name] for name in policies]
        self.deck = shuffled(p.spell_deck, rng.randrange)
        dealt = shuffled(p.wizards, rng.randrange)
        self.wizard = [dealt[s % len(dealt)] if dealt else None for s in range(k)]
        seats = [{"name": f"Player {s + 1}", **({"options": {"wizard": w[0]}} if w else {})} for s, w in enumerate(self.wizard)]
        self.m = Match(p.game, seats, randbelow_of(rng), {"scenario": SHUFFLED}, record)
        self.seen = [0] * k  # top cards of the chamber each seat knows
        self.out = Outcome(winner=None, finished=False, first=0, turns=0, rounds=0, played=[Counter() for _ in range(k)])
        for w in self.wizard:
            if w is not None:
                self.out.drawn[w[0]] += 1

    # ------------------------------------------------------------------ the table, as it shows
    def life(self, s: int) -> int:
        return self.m.counter(LIFE, s)

    def mine(self, s: int) -> Any:
        return self.m.mine(s)

    def powered(self, s: int) -> bool:
        return bool(self.m.mine(s)["powered"])

    def standing(self) -> list[int]:
        return [s for s in range(self.k) if self.life(s) > 0]

    def in_battle(self) -> bool:
        t = self.m.tracked
        return t["phase"] == "battle" and not t["over"]

    def left(self) -> int:
        return sum(self.m.tracked["chamber"]["left"].values())

    def weakest(self, me: int) -> int | None:
        others = [q for q in self.standing() if q != me]
        return min(others, key=lambda q: (self.life(q), (q - me) % self.k)) if others else None

    def live_left(self) -> bool:
        return any(n and self.c.ammo[kind].life_loss > 0 for kind, n in self.m.tracked["chamber"]["left"].items())

    def odds_live(self) -> float:
        left = self.m.tracked["chamber"]["left"]
        if not sum(left.values()):
            return 0.0
        odds = next_shot(left, dict.fromkeys(left, 0))
        return float(sum(odds[kind] for kind, ammo in self.c.ammo.items() if ammo.life_loss > 0))

    def top(self, s: int) -> str | None:
        """The chamber's top card, if seat s has seen it."""
        chamber = self.m.state["hidden"]["chamber"]
        return chamber[0] if self.seen[s] and chamber else None

    # ------------------------------------------------------------------ moves at the table
    def act(self, kind: str, **sent: Any) -> Any:
        """A move at the table; what each seat knows of the chamber follows it."""
        lives = [self.life(s) for s in range(self.k)]
        data = self.m.act(kind, **sent)
        if kind in ("shoot", "cast") and "card" in data:  # a shot or a Vanishing Bullet: the top card is gone
            self.seen = [max(0, n - 1) for n in self.seen]
        if data.get("shuffled") or data.get("round_over"):
            self.seen = [0] * self.k
        how = data.get("card", "spell") if kind in ("shoot", "ricochet") else "spell"
        for s in range(self.k):
            if lives[s] > 0 and self.life(s) == 0:
                self.out.figures[f"deaths by {how}"] += 1
        return data

    def look(self, s: int, count: int) -> list[str]:
        """Seat s looks at the chamber's top cards (a spell or a power let it)."""
        cards: list[str] = self.act("peek", player=s, count=min(count, self.left()))["hidden"]["cards"]
        self.seen[s] = max(self.seen[s], len(cards))
        return cards

    def arrange(self, s: int, order: list[int], bottom: int = 0) -> None:
        self.act("arrange", player=s, order=order, bottom=bottom)
        self.seen = [0] * self.k
        self.seen[s] = len(order) - bottom

    # ------------------------------------------------------------------ spells in and out of hands
    def held(self, s: int) -> list[str]:
        """The spells in front of seat s, as the table shows them."""
        held: list[str] = self.m.mine(s)["held"]
        return held

    def pile(self) -> list[str]:
        """The spell discard pile, as the table shows it."""
        pile: list[str] = self.m.tracked["discard"]
        return pile

    def draw_spell(self) -> str | None:
        """The spell deck's top card; an empty deck is remade from the table's discard pile, shuffled here."""
        if not self.deck and self.pile():
            pile = list(self.pile())
            self.act("reshuffle_spells")
            self.deck = shuffled(pile, self.rng.randrange)
        return self.deck.pop() if self.deck else None

    def placement(self, s: int, spell: str) -> dict[str, Any]:
        """How seat s fits a new spell into their slots: the held spells its policy discards to make
        room, or the new spell discarded instead."""
        p, held = self.p, self.held(s)
        sizes = [p.spells[i].slots for i in held]
        if free_slots(sizes, self.c.spell_slots) >= p.spells[spell].slots:
            return {}
        order = self.policy[s].drop_order(self, s, spell)
        dropped = make_room(sizes, p.spells[spell].slots, self.c.spell_slots, order) if order is not None else None
        return {"keep": False} if dropped is None else {"drop": [held[i] for i in dropped]}

    def take(self, s: int, spell: str) -> None:
        """Player s drafts `spell` at the table."""
        self.act("draft", player=s, spell=spell, **self.placement(s, spell))

    def draft(self, spells: int) -> None:
        """The round's spells laid out from the deck's top at the table, then drafted in the order it says."""
        grid = [s for s in (self.draw_spell() for _ in range(spells)) if s is not None]
        for spell in grid:
            self.out.drawn[spell] += 1
        if not grid:
            return
        self.act("lay_out", spells=grid)
        while self.m.tracked["draft"]["picks"]:
            s, left = self.m.tracked["draft"]["picks"][0], list(self.m.tracked["draft"]["grid"])
            self.take(s, left[self.policy[s].pick(self, s, left)])

    def draft_top(self, s: int, n: int) -> None:
        for _ in range(n):
            spell = self.draw_spell()
            if spell is not None:
                self.out.drawn[spell] += 1
                self.take(s, spell)

    # ------------------------------------------------------------------ a spell or power
    def play_spell(self, s: int, spell: Spell, target: int | None) -> None:
        """Player s plays a spell they hold at the table (its target chosen already, where it needs one)."""
        self.out.played[s][spell.id] += 1
        data = self.act("cast", player=s, spell=spell.id, **({"target": target} if target is not None else {}))
        if "card" in data:
            self.out.figures[f"vanished {data['card']}"] += 1
        looks = data.get("looks", 0)
        if looks and self.in_battle():
            top = self.look(s, looks)
            if looks > 1:  # Spin the Chamber powered up: the top cards back in the order the caster likes
                self.arrange(s, self.policy[s].arrange(self, s, top))

    def use_power(self, s: int, effect: str) -> None:
        """Player s uses their wizard's power ability at the table (it powers them down)."""
        wizard = self.wizard[s]
        assert wizard is not None
        self.out.played[s][wizard[0]] += 1
        pol = self.policy[s]
        if effect == "chamber-sight":
            self.act("use_power", player=s)
            kind, = self.look(s, 1)
            if not pol.keep_on_top(self, s, kind):
                self.arrange(s, [0], bottom=1)
        elif effect == "pickpocket":
            victim, spell = pol.steal(self, s, [(q, i) for q in range(self.k) if q != s for i in self.held(q)])
            self.act("use_power", player=s, target=victim, spell=spell, **self.placement(s, spell))
        elif effect == "graverobber":
            spell = pol.rob(self, s, self.pile())
            self.act("use_power", player=s, spell=spell, **self.placement(s, spell))
        elif effect in ("mend", "misdirect"):
            other = pol.mend_whom(self, s) if effect == "mend" else pol.misdirect_to(self, s)
            self.act("use_power", player=s, **({"target": other} if other is not None else {}))
        else:
            self.act("use_power", player=s)

    def power_usable(self, s: int, effect: str) -> bool:
        if effect == "pickpocket":
            return any(self.held(q) for q in range(self.k) if q != s)
        if effect == "graverobber":
            return bool(self.pile())
        if effect == "misdirect":
            return self.weakest(s) is not None
        return True

    def spells_phase(self, s: int) -> None:
        """Player s plays the spells (and, a living wizard, the power) their policy chooses."""
        pol = self.policy[s]
        for spell_id in pol.order(self, s, list(self.held(s))):
            if not self.in_battle():
                return
            spell = self.p.spells[spell_id]
            if spell_id not in self.held(s) or spell.effect is None or not may_play(spell.kind, self.powered(s)):
                continue
            wants, target = pol.cast(self, s, spell)
            if wants:
                self.play_spell(s, spell, target)
        wizard = self.wizard[s]
        if (self.in_battle() and self.life(s) > 0 and self.powered(s) and wizard is not None and wizard[1] is not None
                and self.power_usable(s, wizard[1]) and pol.power(self, s, wizard[1], self.m.tracked["turn"])):
            self.use_power(s, wizard[1])

    def shoot(self, me: int) -> Any:
        controller = self.mine(me)["controlled"]
        aimed = (self.policy[controller].aim_for(self, controller, me) if controller is not None
                 else self.policy[me].aim(self, me))
        first = sum(self.out.figures[f"shots {k}"] for k in self.c.ammo) == 0
        data = self.act("shoot", shooter=me, target=aimed)
        if "waits" in data:  # a powered-up Ricochet: its holder chooses, the card turned up
            holder = data["waits"]
            data = {**data, **self.act("ricochet", player=holder, back=self.policy[holder].send_back(self, holder, data["card"]))}
        kind, hit = data["card"], data.get("hit", aimed)
        self.out.figures["shots redirected"] += hit != aimed
        self.out.drawn[self.p.ammo_card[kind]] += 1
        self.out.played[me][self.p.ammo_card[kind]] += 1
        self.out.figures[f"shots {kind}"] += 1
        if first:
            self.out.figures[f"first shot of the game {kind}"] += 1
        if "life" in data and data["life"]["to"] == 0:
            self.out.figures["self-inflicted deaths"] += me == hit
        if data.get("drafts"):
            self.out.figures["spells drafted by Magic"] += data["drafts"]
            self.draft_top(hit, data["drafts"])
        return data

    def battle_turn(self) -> None:
        """The battle turn the table shows: slept through, a ghost's, or a wizard's."""
        me = self.m.tracked["turn"]["player"]
        if self.mine(me)["asleep"]:
            self.out.figures["turns slept"] += 1
            self.act("pass", player=me)
            return
        if self.mine(me)["ghost"]:  # drafts, plays spells, passes the gun
            self.draft_top(me, self.m.tracked["turn"].get("drafts", 0))
            self.spells_phase(me)
            if self.in_battle():
                self.act("pass", player=me)
            return
        self.spells_phase(me)
        while self.in_battle() and self.m.tracked["turn"]["player"] == me:
            if not self.shoot(me).get("shoots_again"):
                break


def play(p: Prepared, rng: random.Random, k: int, policies: tuple[str, ...], cap: int, record: bool = False) -> Outcome:
    t = Table(p, rng, k, policies, record)
    out, m = t.out, t.m
    while not m.tracked["over"] and m.tracked["round"] < cap:
        started = t.act("start_round")
        if m.tracked["round"] == 1:
            out.first = started["battle"]
        out.drawn[started["scenario"]["id"]] += 1
        t.draft(m.tracked["draft"]["spells"])
        while t.in_battle():
            t.battle_turn()
    shown = m.tracked
    out.finished, out.winner = shown["over"], shown["winner"]
    out.turns, out.rounds, out.match = shown["turns"], shown["round"], m
    return out



class Random:
    """Any legal choice, each alike."""

    @staticmethod
    def drop_order(t: Table, s: int, new: str) -> list[int] | None:
        if t.rng.randrange(2):
            return None  # no room: discard the new spell, or (below) held ones in any order
        return shuffled(range(len(t.held(s))), t.rng.randrange)

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
    def power(t: Table, s: int, effect: str, turn: Any) -> bool:
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
        order = sorted(range(len(t.held(s))), key=lambda i: _worth(t, t.held(s)[i]))
        sizes = [t.p.spells[i].slots for i in t.held(s)]
        dropped = make_room(sizes, t.p.spells[new].slots, t.c.spell_slots, order)
        if dropped is None or (dropped and sum(_worth(t, t.held(s)[i]) for i in dropped) >= _worth(t, new)):
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
        effect, alive, live = spell.effect, t.life(s) > 0, t.live_left()
        target = t.weakest(s)
        nxt = next((q for q in ((s + i) % t.k for i in range(1, t.k)) if t.life(q) > 0), None)
        if effect in ("bolt", "siphon"):
            return target is not None, target
        if effect in ("mind-control", "sleep"):
            return live and nxt is not None and t.left() > 1, nxt
        if effect == "curse":
            return live and target is not None and not t.mine(target)["curses"], target
        if effect in ("ward", "ricochet"):
            return alive and live and not t.mine(s)["wards" if effect == "ward" else "ricochets"], None
        if effect == "heal":
            return alive and t.life(s) < t.c.die_sides, None
        if effect == "peek":
            return alive and not t.seen[s] and t.left() > 1, None
        if effect == "shuffle":
            return alive and powered_part(spell.kind, t.powered(s)) and t.seen[s] < spell.n["arranges"], None
        if effect == "discard-top":  # a likely Live that would come back: its aim is another's, or turned back
            top = t.top(s)
            likely = not _safe(t, top) if top is not None else t.odds_live() >= 0.5
            turned = target is not None and bool(t.mine(target)["ricochets"] or t.mine(target)["misdirect"] is not None)
            back = t.mine(s)["controlled"] is not None or turned
            return alive and likely and back, None
        if effect == "double-tap":
            return alive and t.odds_live() >= 0.5, None
        return False, None

    @staticmethod
    def power(t: Table, s: int, effect: str, turn: Any) -> bool:
        if any(t.p.spells[i].kind == "powered" for i in t.held(s)):
            return False  # keep powered up for the powered-up spells held
        if effect == "chamber-sight":
            return not t.seen[s]
        if effect == "mend":
            return t.life(s) < t.c.die_sides
        if effect == "misdirect":
            return t.live_left() and t.mine(s)["misdirect"] is None
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
        return _safe(t, kind) or t.mine(s)["controlled"] is None

    @staticmethod
    def steal(t: Table, s: int, held: list[tuple[int, str]]) -> tuple[int, str]:
        return max(held, key=lambda qi: _worth(t, qi[1]))

    @staticmethod
    def rob(t: Table, s: int, pile: list[str]) -> str:
        return max(pile, key=lambda i: _worth(t, i))

    @staticmethod
    def mend_whom(t: Table, s: int) -> int | None:
        others = [q for q in t.standing() if q != s]
        return max(others, key=lambda q: t.life(q)) if others else None  # helps the foe least

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
