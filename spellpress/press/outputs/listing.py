"""What each kind of output makes of a game: its files, what each is made from, the libraries
that draw it and the job that makes it.

Each kind declared in model/kinds.py lists its outputs here, by a function of the same name
(`@lists`), from what the game's build offers (gamebuild.GameBuild: the laid-out faces, the
options, the cache); outputs/build.py asks each kind built for its list.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

from ..drawing import fonts, pdf, rulebook, sheets, skeleton
from ..drawing.faces import RENDERER_VERSION, value_bytes
from ..drawing.tokens import TokensPdf
from ..model import changes, kinds, shops
from ..model.kinds import Output
from ..model.libraries import BANDED, IMPOSED, PDF, RASTER
from ..model.shops import SHOPS, Shop
from . import bandpng, cmyk, images, jobs, shopfiles, ttsobject
from .gamebuild import GameBuild

LISTS: dict[str, Callable[[GameBuild], list[Output]]] = {}  # a kind's name -> its function


def lists(name: str):
    """Declares the decorated function as the list of a game's outputs of the kind `name`."""
    def declare(outputs: Callable[[GameBuild], list[Output]]):
        assert name in kinds.REGISTRY, f"no kind '{name}' is declared (model/kinds.py)"
        assert name not in LISTS, f"the kind '{name}' is listed twice"
        LISTS[name] = outputs
        return outputs
    return declare


def _hash(text: str | bytes) -> str:
    return hashlib.sha256(text if isinstance(text, bytes) else text.encode()).hexdigest()


# -- card sheets


def _sheet_pdfs(game: GameBuild, layout: str, papers: tuple[str, ...], name: str) -> list[Output]:
    cards, key, forms = game.once("sheet cards", lambda: _sheet_cards(game))
    first = next(iter(game.plan.fronts.values())).drawing
    size, offset = (first.width, first.height, first.bleed), game.options.back_offset
    if layout in ("duplex", "nine"):
        key = f"{key}:{offset}"
    command = f"spellpress build {game.plan.game.slug} --only sheets" + (" --paper letter --letter-3x3" if layout == "nine" else "")
    listed, version = (_checklist(game), game.plan.game.version or "") if layout != "printshop" else ((), "")
    key = f"{key}:{_hash(repr((listed, version)))}"
    title, shape = game.plan.game.title, game.once("sheet shape", lambda: _shape(game, cards))
    outputs = []
    for paper in papers:
        if layout != "printshop" and not _sheet_fits(game, layout, paper, cards, name.format(paper=paper)):
            continue
        # its skeleton (skeleton.py): named by all it is made of but the forms of its faces
        kept = f"pdf/{_hash(repr((shape, layout, paper, size, title, offset, command, listed, version)))[:40]}.skeleton"
        outputs.append(Output(name.format(paper=paper), key, PDF,
                              jobs.SheetsPdf(layout, paper, cards, size, title, offset, str(game.cache / "pdf"), command,
                                        listed, version, str(game.cache / kept)),
                              (*forms, kept)))
    return outputs


def _sheet_fits(game: GameBuild, layout: str, paper: str, cards: str, rel: str) -> bool:
    """Whether every size of the cards (`cards`: their key in what the build shared) has a
    sheet of this layout on the paper (sheets.sheet_for); the build says so when one has none,
    and when a sheet holds only one card."""

    slug, fits = game.plan.game.slug, True
    apart = game.once(f"apart {cards}", lambda: sheets.apart_by_size(game.shared[cards]))
    for w, h, bleed in dict.fromkeys(map(sheets.size_of, game.shared[cards])):
        sheet = sheets.sheet_for(layout, paper, w, h, bleed, apart=apart.get((w, h, bleed), False))
        if sheet is None:
            why = ("nine a Letter sheet is for poker cards (63.5 x 88.9 mm)" if layout == "nine" else
                   "a fold sheet needs room for a card's front beside its back")
            game.report.notes.append(f"{slug}: no {rel}: {why}; these cards are {w:g} x {h:g} mm")
            fits = False
        elif sheet.per_page // (2 if layout == "fold" else 1) == 1:
            game.report.notes.append(f"{slug}: {rel} holds one card a sheet: no more of {w:g} x {h:g} mm fit "
                                     f"{sheet.paper.name} with bleed and crop marks")
    return fits


def _shape(game: GameBuild, cards: str) -> str:
    """What a sheets PDF's skeleton is made of beside its settings: the cards in order with the
    names of their faces, and each face's size if its form is a hole (pdf.cacheable), else what
    it draws; the fonts, the PDF libraries and the code that writes it."""

    parts, seen = [skeleton.code_version(), fonts.fingerprint(), game.versions(PDF)], set()
    # where the cards' edges differ, gutters between them (sheets.apart): a face's hole keeps
    # only its size, so its edges' say in the geometry is written here
    parts.append(repr(sorted(game.once(f"apart {cards}", lambda: sheets.apart_by_size(game.shared[cards])).items())))
    for card in game.shared[cards]:
        parts.append(f"{card.front.form}|{card.back.form}|{card.label}|{card.design}")
        for face in (card.front, card.back):
            if face.form not in seen:
                seen.add(face.form)
                d = face.drawing
                parts.append(f"{face.form}:{(d.width, d.height, d.bleed) if pdf.cacheable(d) else face.hash}")
    return _hash("\n".join(parts))


def _checklist(game: GameBuild) -> tuple:
    """The checklist page's cards (sheets.Listed), when the cards carry their identity."""
    return sheets.checklist_of(game.plan.game) if game.plan.identity else ()


def _sheet_cards(game: GameBuild, only: set[str] | None = None) -> tuple[str, str, tuple[str, ...]]:
    """Every card its count times (or those of `only`, card ids), shared with the workers (which
    inherit it rather than receive it with each PDF) under the name returned; the hash of that
    sequence of faces; and the cache files of their PDF forms."""

    p = game.plan
    cards, faces, forms = [], [RENDERER_VERSION, sheets.LAYOUT_VERSION], set()
    for deck in p.game.decks.values():
        for card in deck.cards if deck.token is None else ():  # tokens print on their own sheet (kind 'tokens')
            if only is not None and card.id not in only:
                continue
            front, back = p.fronts[card.id], p.backs[card.id]
            pair = [sheets.Face(f.key, f.drawing, game.form_key(f)) for f in (front, back)]
            # a back's design is its picture; cards whose back is their own other side are a design of their deck's
            design = back.hash if back is p.deck_backs.get(deck.id) else f"own backs of {deck.id}"
            cards += [sheets.SheetCard(pair[0], pair[1], deck.name, design)] * card.count
            faces.append(f"{front.hash}{back.hash}{deck.name}{card.count}")
            forms |= {f"pdf/{sheets.form_cache_name(face.hash)}" for face in pair}
    shared = f"{p.game.slug}: sheet cards" if only is None else f"{p.game.slug}: reprint cards"
    game.shared[shared] = cards
    return shared, _hash("".join(faces)), tuple(sorted(forms))


@lists("sheets")
def duplex(game: GameBuild) -> list[Output]:
    nine = game.options.letter_3x3 and "letter" in game.options.papers  # --letter-3x3: also nine a Letter sheet
    return _sheet_pdfs(game, "duplex", game.options.papers, "cards-{paper}.pdf") + (
        _sheet_pdfs(game, "nine", ("letter",), "cards-letter-3x3.pdf") if nine else [])


@lists("fold")
def fold(game: GameBuild) -> list[Output]:
    return _sheet_pdfs(game, "fold", game.options.papers, "cards-fold-{paper}.pdf")


@lists("printshop")
def printshop(game: GameBuild) -> list[Output]:
    return _sheet_pdfs(game, "printshop", ("",), "cards-printshop.pdf")


@lists("reprint")
def reprint(game: GameBuild) -> list[Output]:
    """Duplex and fold sheets of the cards whose front or back changed since the cards were
    marked as printed (`spellpress printed`, changes.py); asked for by `build --reprint`."""

    slug, found = game.plan.game.slug, changes.since_printed(game.out, game.plan)
    if found is None:
        game.report.notes.append(f"{slug}: no cards are marked as printed in {game.out}: after printing the cards, run "
                                 f"`spellpress printed {slug}`; `build --reprint` then prints only the cards changed since")
        return []
    at, since, ids = found
    if not ids:
        game.report.notes.append(f"{slug}: no card to reprint: none changed since they were printed ({at})"
                                 + (f"; {changes.listed(since)}" if since else ""))
        return []
    game.report.notes.append(f"{slug}: cards-reprint-*.pdf holds the cards changed since they were printed ({at}): "
                             f"{changes.listed(since)}")
    cards, key, forms = _sheet_cards(game, ids)
    first = next(iter(game.plan.fronts.values())).drawing
    size, offset = (first.width, first.height, first.bleed), game.options.back_offset
    command = f"spellpress build {slug} --reprint"
    return [Output(f"cards-reprint-{paper}.pdf", f"{key}:{offset}", PDF,
                   jobs.SheetsPdf("duplex", paper, cards, size, game.plan.game.title, offset, str(game.cache / "pdf"), command),
                   forms)
            for paper in game.options.papers if _sheet_fits(game, "duplex", paper, cards, f"cards-reprint-{paper}.pdf")] + [
        Output(f"cards-reprint-fold-{paper}.pdf", key, PDF,
               jobs.SheetsPdf("fold", paper, cards, size, game.plan.game.title, offset, str(game.cache / "pdf"), command), forms)
        for paper in game.options.papers if _sheet_fits(game, "fold", paper, cards, f"cards-reprint-fold-{paper}.pdf")]


# -- images


@lists("png")
def png(game: GameBuild) -> list[Output]:
    """Each card's faces; a token's PNG is its punch-out piece (its size, with 1/8 in bleed),
    and a token deck, printed one-sided, has no back."""

    pieces = {piece.card: piece.drawing for deck in game.plan.tokens for piece in deck.pieces}
    backs = {f"back-{deck.id}" for deck in game.plan.tokens}
    return [Output(f"png/{face.key}.png", f"{face.hash}:{images.PNG_VERSION}", RASTER, jobs.FacePng(face.drawing))
            for face in game.faces() if face.key not in pieces and face.key not in backs] + [
        Output(f"png/{card}.png", f"{_hash(value_bytes(drawing))}:{images.PNG_VERSION}", RASTER, jobs.FacePng(drawing))
        for card, drawing in pieces.items()]


@lists("tts")
def tts(game: GameBuild) -> list[Output]:
    p, outputs, index, saved = game.plan, [], [], []
    for deck in [d for d in p.game.decks.values() if d.token is None]:  # tokens are no deck of cards
        size = _card_size(game, deck)
        dpi = images.tts_dpi(*size)
        slots = [card for card in deck.cards for _ in range(card.count)]
        back = p.deck_backs[deck.id]
        hidden = game.thumb(back)
        own_backs = any(p.backs[c.id] is not back for c in deck.cards)
        outputs.append(Output(f"tts/{deck.id}-back.png", f"{back.hash}:{images.PNG_VERSION}", RASTER,
                              jobs.Composed(images.tagged_copy, (hidden, dpi))))
        for n, chunk in enumerate(sheets.chunks(slots, images.TTS_PER_SHEET), start=1):
            fronts = [game.thumb(p.fronts[c.id]) for c in chunk]
            cols, rows = images.tts_grid(len(fronts))
            entry = {"sheet": f"{deck.id}-{n}.png", "deck": deck.name, "cards": len(fronts), "width": cols, "height": rows,
                     "back": f"{deck.id}-back.png"}
            outputs.append(_tts_sheet(game, f"tts/{deck.id}-{n}.png", fronts, hidden, size))
            if own_backs:  # double-sided cards: a sheet of their backs in the same grid
                entry["backs"] = f"{deck.id}-{n}-backs.png"
                outputs.append(_tts_sheet(game, f"tts/{entry['backs']}", [game.thumb(p.backs[c.id]) for c in chunk], hidden,
                                          size))
            index.append(entry)
            saved.append((deck, entry, list(chunk), size))
    data = json.dumps({"game": p.game.title, "sheets": index}, indent=2).encode()
    return outputs + [Output("tts/sheets.json", _hash(data), (), jobs.Given(data)), _tts_object(game, saved)]


def _tts_object(game: GameBuild, sheets: list) -> Output:
    """`tts/<slug>.json`: the decks as a Tabletop Simulator saved object (ttsobject.py), its
    pictures at the URL given (`--tts-url`) or in this folder."""

    slug, url = game.plan.game.slug, game.options.tts_url
    base = f"{url.rstrip('/')}/{slug}/tts" if url else (game.out / "tts").resolve().as_uri()
    saved = ttsobject.saved_object(game.plan.game, sheets, base)
    return Output(f"tts/{slug}.json", ttsobject.digest(saved), (), jobs.Composed(ttsobject.file_bytes, (saved,)))


def _tts_sheet(game: GameBuild, rel: str, thumbs: list[Path], hidden: Path, size: tuple[float, float]) -> Output:
    card = images.tts_card(*size)
    bands = tuple(f"bands/{bandpng.file_name(key)}" for key, _ in images.tts_bands(thumbs, hidden, card))
    dpi = images.tts_dpi(*size)
    key = _hash("".join(t.name for t in [*thumbs, hidden]) + f"{dpi}:{images.PNG_VERSION}")
    return Output(rel, key, BANDED, jobs.Composed(images.tts_sheet, (thumbs, hidden, game.cache / "bands", dpi, card)),
                  bands + _thumbnails([*thumbs, hidden]))


def _card_width(game: GameBuild) -> float:
    """The cards' trimmed width, mm (every card of a game has its size: the sheets' grid)."""
    return next(iter(game.plan.fronts.values())).drawing.width


def _card_size(game: GameBuild, deck=None) -> tuple[float, float]:
    """The cards' trimmed width and height, mm: the deck's (each deck's layout gives its size),
    else the first card's."""
    d = (game.plan.fronts[deck.cards[0].id] if deck is not None and deck.cards else
         next(iter(game.plan.fronts.values()))).drawing
    return d.width, d.height


def _thumbnails(thumbs: list[Path]) -> tuple[str, ...]:
    """The cache files of these thumbnails: each, and the overview's beside it."""
    return tuple(name for t in dict.fromkeys(thumbs) for name in (t.name, images.small_thumb(t).name))


@lists("overview")
def overview(game: GameBuild) -> list[Output]:
    p = game.plan
    rows = [[game.thumb(p.fronts[c.id]) for c in deck.cards] + [game.thumb(p.deck_backs[deck.id])]
            for deck in p.game.decks.values()]
    # the cards' identity: each card's copies on it (none on the deck's back)
    counts = [[c.count for c in deck.cards] + [0] for deck in p.game.decks.values()] if p.identity else None
    card = images.overview_card(*_card_size(game))
    bands = tuple(f"bands/{bandpng.file_name(key)}" for key, _, _ in images.overview_bands(rows, counts, card)[1])
    dpi = images.overview_dpi(_card_width(game))
    key = _hash(json.dumps([[[t.name for t in row] for row in rows], dpi, images.PNG_VERSION] + ([counts] if counts else [])))
    return [Output("overview.png", key, BANDED, jobs.Composed(images.overview, (rows, game.cache / "bands", dpi, counts, card)),
                   bands + _thumbnails([t for row in rows for t in row]))]


# -- rulebooks and playmats


@lists("rulebook")
def rulebooks(game: GameBuild) -> list[Output]:
    book = game.plan.book
    if book is None:
        return []
    key = _hash(RENDERER_VERSION.encode() + value_bytes(book))
    shape = _hash(RENDERER_VERSION.encode() + rulebook.skeleton_key(book) + game.versions(PDF).encode())
    outputs = []
    for paper in game.options.papers:
        for booklet in (False, True) if game.options.booklet else (False,):
            rel = f"rulebook-{paper}{'-booklet' if booklet else ''}.pdf"
            contents = f"{Path(rel).stem}.toc.json"  # the contents page's entries, kept between builds
            kept = () if booklet else (f"{Path(rel).stem}.{_hash(f'{shape}:{paper}')[:24]}.skeleton",)  # rulebook.pdf's `keep`
            outputs.append(Output(rel, key, IMPOSED if booklet else PDF,
                                  jobs.RulebookPdf(book, paper, booklet, str(game.cache / contents),
                                              str(game.cache / kept[0]) if kept else ""),
                                  (contents, *kept)))
    return outputs


@lists("playmat")
def playmats(game: GameBuild) -> list[Output]:
    mat = game.plan.mat
    if mat is None:
        return []
    key = _hash(RENDERER_VERSION.encode() + value_bytes(mat))
    return [Output("playmat.pdf", key, PDF, jobs.PlaymatPdf(mat, ""))] + [
        Output(f"playmat-tiled-{paper}.pdf", key, PDF, jobs.PlaymatPdf(mat, paper)) for paper in game.options.papers]


@lists("tokens")
def tokens(game: GameBuild) -> list[Output]:
    decks, title = game.plan.tokens, game.plan.game.title
    if not decks:
        return []
    key = _hash(RENDERER_VERSION.encode() + value_bytes((decks, title)))
    return [Output(f"tokens-{paper}.pdf", key, PDF, TokensPdf(decks, paper, title)) for paper in game.options.papers]


# -- print shops (shops.py): one kind a shop, asked for by `--target`


def _shop_lists(shop: Shop) -> None:
    def outputs(game: GameBuild) -> list[Output]:
        return _shop_outputs(game, shop)

    lists(shop.key)(outputs)


def _shop_outputs(game: GameBuild, shop: Shop) -> list[Output]:
    """The faces of every deck of cards at the shop's size, named as it takes them, and an
    `order.txt` that says what to upload and how many of each."""

    p, outputs = game.plan, []
    decks = [d for d in p.game.decks.values() if d.token is None and d.cards]
    if not decks:
        return []
    for deck in list(decks):  # each deck its size: a shop takes the decks of its product's size
        misfit = shops.misfit(shop, p.fronts[deck.cards[0].id].drawing)
        if misfit:
            game.report.warnings.append(f"{p.game.slug}: no files for {shop.name} of the deck {deck.name}: {misfit}")
            decks.remove(deck)
    if not decks:
        return []
    w, h = shop.size_px
    lines = [f"{p.game.title} for {shop.name}: {shop.upload}",
             f"Each card {w} x {h} px at {shop.dpi} dpi: the cut {shop.bleed_px:g} px in from each edge, text at least "
             f"{shop.safe_px:g} px inside the cut; {shop.colour} {shop.format.upper()}.", ""]
    for deck in decks:
        back = p.deck_backs[deck.id]
        total = sum(card.count for card in deck.cards)
        if shop.format == "pdf":
            rel = shops.file_name(shop.files["deck"], deck.id)
            outputs.append(_shop_pdf(game, shop, deck, rel))
            lines += [f"{deck.name}: {rel}, {total} cards, {2 * total} pages (back, front, back, front...)", ""]
            continue
        listed = []
        for n, card in enumerate(deck.cards, start=1):
            faces = [("front", p.fronts[card.id])]
            if p.backs[card.id] is not back:
                faces.append(("own_back", p.backs[card.id]))
            for role, face in faces:
                rel = shops.file_name(shop.files[role], deck.id, n, card.id)
                outputs.append(Output(f"{shop.key}/{rel}", f"{face.hash}:{images.PNG_VERSION}:{shop.fingerprint}", RASTER,
                                      shopfiles.FaceImage(face.drawing, shop)))
                listed.append(f"  {card.count} x {rel}")
        shared_back = any(p.backs[card.id] is back for card in deck.cards)
        if shared_back:
            rel = shops.file_name(shop.files["back"], deck.id)
            outputs.append(Output(f"{shop.key}/{rel}", f"{back.hash}:{images.PNG_VERSION}:{shop.fingerprint}", RASTER,
                                  shopfiles.FaceImage(back.drawing, shop)))
        lines += [f"{deck.name}: {total} cards, {len(deck.cards)} different faces, "
                  + (f"one back for all ({rel})" if shared_back else "each card its own back"), *listed, ""]
    text = "\n".join(lines).encode()
    return [*outputs, Output(f"{shop.key}/order.txt", _hash(text), (), jobs.Given(text))]


def _shop_pdf(game: GameBuild, shop: Shop, deck, rel: str) -> Output:
    """A deck's PDF: back then front of every copy of every card, each side a cached JPEG,
    separated for the shop's press (its profile's bytes join each JPEG's key)."""
    p, faces, jpegs, pages = game.plan, [], [], []
    raster = f"{game.versions(RASTER)}:{cmyk.fingerprint(shop)}"  # no profile: a problem, said before anything is drawn
    for card in deck.cards:
        sides = []
        for face in (p.backs[card.id], p.fronts[card.id]):
            jpeg = f"{shop.key}/{_hash(f'{face.hash}:{shop.fingerprint}:{raster}')[:32]}.jpg"
            if jpeg not in jpegs:
                jpegs.append(jpeg)
                faces.append(face.drawing)
            sides.append(jpegs.index(jpeg))
        pages += sides * card.count
    if not all((game.cache / j).is_file() for j in jpegs):
        cmyk.warm(shop)  # the separation's table made here, once, for every worker forked after
    key = _hash(json.dumps([jpegs, pages, p.game.title, deck.name]))
    return Output(f"{shop.key}/{rel}", key, PDF, shopfiles.DeckPdf(tuple(faces), tuple(str(game.cache / j) for j in jpegs),
                                                              tuple(pages), shop, f"{p.game.title}: {deck.name}"),
                  tuple(jpegs))


for _shop in SHOPS.values():
    _shop_lists(_shop)
assert LISTS.keys() == kinds.REGISTRY.keys(), "every kind of model/kinds.py lists its outputs here"
