"""Spellchamber copied to a temporary folder with every duel scenario's chamber and spells set by
hand, so that a lab case worked by hand plays at the table as the YAML then says."""

import re
import shutil

from spellpress.core import load_games


def chambered(cards_dir, tmp_path, live, magic, blank, spells=None):
    """The game with every duel scenario holding these counts of Live, Magic and Blank (and, given,
    `spells` per player in the draft: 0 lays none out)."""
    root = tmp_path / "spellchamber"
    shutil.copytree(cards_dir / "spellchamber", root)
    path = root / "duel-scenarios.yaml"
    text = path.read_text(encoding="utf-8")
    for kind, n in (("live", live), ("magic", magic), ("blank", blank)):
        text = re.sub(rf"^(\s+){kind}: \d+$", rf"\g<1>{kind}: {n}", text, flags=re.M)
    if spells is not None:
        text = re.sub(r"^(\s+)spells_per_player: \d+$", rf"\g<1>spells_per_player: {spells}", text, flags=re.M)
        decks = root / "decks.yaml"
        decks.write_text(decks.read_text(encoding="utf-8").replace(
            "spells_per_player: {type: int, required: true, min: 1", "spells_per_player: {type: int, required: true, min: 0"),
            encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    return load_games(tmp_path, ["spellchamber"])[0]
