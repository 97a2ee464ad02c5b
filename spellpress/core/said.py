"""Whether the lab applies a card's whole effect: the text its applied fields print (`says`) is
the whole of its rules text. What is left is written by hand and so not applied, and the card
is reported as not modelled."""

from __future__ import annotations

from collections.abc import Iterable

from . import ruletext
from .models import SAID_IN, Card, Game, field_says


def unsaid(game: Game, card: Card, applied: Iterable[str], exempt: Iterable[str] = ()) -> str:
    """The rules text of `card` (its text fields but the `exempt` ones, which other applied
    fields stand for) left once the sentences printed by its `applied` fields are taken out."""
    ctype = game.card_types[card.type]
    skip = set(exempt)
    left = {name: str(card.get(name) or "") for name, spec in ctype.fields.items()
            if spec.type == "text" and name not in skip}
    for name in applied:
        sentence = field_says(card.fields, ctype, name)
        if sentence is None:
            continue
        rendered, _ = ruletext.render(sentence, game.text_context)
        into = ctype.fields[name].into or SAID_IN
        if rendered and into in left:
            left[into] = left[into].replace(rendered, "", 1)
    return " ".join(text.strip() for text in left.values() if text.strip())
