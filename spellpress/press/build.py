"""`spellpress build`: every output of every game, incremental, atomic and deterministic.

Every face (a card's front, a back) is laid out first; the layout is cheap and its display list
holds everything that shapes the picture, so its hash, with the art's bytes, the font files and
the renderer's version, is the face's content hash. An output is rewritten only when the hashes
it is made of change (the manifest in each game's output directory remembers them), so an edit
to one card re-renders that card's images only. Nothing is written until every game has laid
out without a problem, and every file is replaced atomically: a failed build leaves the last
good outputs in place.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import json
import multiprocessing
import pickle
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from ..core import Game, ValidationFailed, load_games
from ..core.problems import Problem, did_you_mean, display_path
from . import bandpng, fonts, images, markup, playmat, rulebook, sheets, templatelines
from .files import atomic_write
from .displaylist import Drawing, Image
from .icons import IconSet
from .layout import Layouter
from .options import PAPERS, Options
from .templates import Templates
from .watch import snapshot

RENDERER_VERSION = "2"  # bump when a change to the drawing code changes pictures
MANIFEST = ".spellpress-manifest.json"


@dataclass
class FaceOut:
    """A laid-out face and what identifies its picture."""

    key: str  # file-name stem: the card id, 'back-<deck>' or '<card id>-back'
    drawing: Drawing
    hash: str


@dataclass
class GamePlan:
    game: Game
    fronts: dict[str, FaceOut] = field(default_factory=dict)  # card id -> front
    backs: dict[str, FaceOut] = field(default_factory=dict)  # card id -> its back (shared or own)
    deck_backs: dict[str, FaceOut] = field(default_factory=dict)  # deck id -> the deck's back
    book: rulebook.Book | None = None
    mat: playmat.Mat | None = None


@dataclass
class Report:
    written: list[Path] = field(default_factory=list)
    unchanged: list[Path] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def plan(options: Options) -> tuple[list[GamePlan], list[str]]:
    """Load and lay out every face; raises ValidationFailed with every problem of every game."""
    games = load_games(options.cards, list(options.games) or None)
    templates, icons = _layouts(options.templates)
    problems: list[Problem] = []
    warnings: list[str] = []
    plans = []
    base = hashlib.sha256(f"{RENDERER_VERSION}:{fonts.fingerprint()}".encode()).hexdigest()

    def layout(name: str):
        try:
            return templates.get(name)
        except ValidationFailed as failed:
            problems.extend(failed.problems)
            return None

    for game in games:
        layouter = Layouter(game, icons)
        faces = _FaceMemo(game, layouter, icons, base)
        p = GamePlan(game)
        for deck in game.decks.values():
            back = layout(deck.back)
            if back is not None:
                p.deck_backs[deck.id] = faces.draw(f"back-{deck.id}", layouter.deck_face(deck), back)
            for card in deck.cards:
                ctype = game.card_types[card.type]
                front = layout(ctype.template)
                if front is not None:
                    p.fronts[card.id] = faces.draw(card.id, layouter.card_face(card), front)
                if ctype.back:
                    own = layout(ctype.back)
                    if own is not None:
                        p.backs[card.id] = faces.draw(f"{card.id}-back", layouter.card_face(card), own)
                elif deck.id in p.deck_backs:
                    p.backs[card.id] = p.deck_backs[deck.id]
        faces.keep()
        if "rulebook" in options.kinds and not layouter.problems:
            p.book = _book(game, options.templates, templates, layouter, p, problems)
        if "playmat" in options.kinds:
            try:
                p.mat = playmat.load(game, options.templates, icons)
            except ValidationFailed as failed:
                problems += failed.problems
        problems += layouter.problems
        warnings += layouter.warnings
        plans.append(p)
    if problems:
        raise ValidationFailed(problems)
    return plans, list(dict.fromkeys(warnings))


def _book(game: Game, root: Path, templates: Templates, layouter: Layouter, p: GamePlan,
          problems: list[Problem]) -> rulebook.Book | None:
    """The rulebook's markup, read, and the card drawings it shows; a problem in it is
    reported at the line of its template, like a problem in a card."""
    import jinja2

    try:
        rendered = rulebook.render_markup(game, root)
    except jinja2.TemplateSyntaxError as exc:
        problems.append(Problem(display_path(Path(exc.filename or root / "rulebook")), exc.lineno or 0, 1, "", f"rulebook template: {exc.message}"))
        return None
    except jinja2.TemplateError as exc:
        file, line = templatelines.raised_at(exc) or (root / "rulebook" / f"{game.slug}.md.j2", 0)
        problems.append(Problem(display_path(Path(file)), line, 1 if line else 0, "", f"rulebook template: {exc}"))
        return None
    parsed = markup.parse(rendered.text)
    found = len(problems)

    def problem(line: int, message: str) -> None:
        file, at, column = rendered.origin(line)
        problems.append(Problem(display_path(Path(file)), at, column, "", message))

    for line, message in parsed.problems:
        problem(line, message)
    samples = []
    for block, line in zip(parsed.blocks, parsed.lines):
        if isinstance(block, markup.Directive) and block.word == "sample":
            try:
                card = game.card(block.arg)
            except KeyError:
                problem(line, f"the rulebook shows card '{block.arg}', which {game.slug} does not have"
                              f"{did_you_mean(block.arg, [c.id for c in game.cards])}")
                continue
            layout = templates.get(game.card_types[card.type].template)
            parts = tuple(layouter.parts(card, layout))
            samples.append((block.arg, rulebook.Sample(p.fronts[block.arg].drawing, parts)))
    if len(problems) > found:
        return None
    palette = templates.get(f"{game.slug}/card").palette if (root / game.slug / "card.yaml").is_file() else {}
    fanned = tuple(p.fronts[deck.cards[0].id].drawing for deck in list(game.decks.values())[:3] if deck.cards)
    return rulebook.Book(
        title=game.title, pitch=game.pitch, blocks=parsed.blocks,
        accent=palette.get("band", "#3d3550"), cover=palette.get("frame", "#2b2438"),
        element_colors=tuple((e.name, e.color) for e in game.elements),
        samples=tuple(samples), fanned=fanned,
    )


def _value_bytes(value) -> bytes:
    """Bytes that depend only on a value, for hashing it."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=5)
    pickler.fast = True  # no memo: equal values give equal bytes, whatever objects they share
    pickler.dump(value)
    return buffer.getvalue()


_LAYOUTS: dict[Path, tuple[dict, Templates, IconSet]] = {}  # templates dir -> (its files' stats, layouts, icons)


def _layouts(root: Path) -> tuple[Templates, IconSet]:
    """The layouts and icons of a templates directory: read again only when one of its files
    changed, so a long-lived process keeps the layouts it has read (they are immutable)."""
    stats = snapshot([root])
    kept = _LAYOUTS.get(root.resolve())
    if kept is not None and kept[0] == stats:
        return kept[1], kept[2]
    templates, icons = Templates(root), IconSet.load(root / "icons.yaml")
    _LAYOUTS[root.resolve()] = (stats, templates, icons)
    return templates, icons


def forget() -> None:
    """Forget the layouts and faces this process kept from earlier plans: the next build is
    cold, as in a new process."""
    _LAYOUTS.clear()
    _FaceMemo.kept.clear()


class _FaceMemo:
    """Faces laid out by an earlier plan in this process, under what shapes them.

    A long-lived process (the resident builder, `watch`) plans again after every edit; most
    faces are as they were, and laying them out was most of a plan. A face's key holds all its
    layout reads: the face's own values and picture, its layout, and the game's side (the text
    context its references resolve in, the elements, the placeholders, the icons, the fonts).
    A face whose layout reported a problem is never kept, so its problem is reported again.
    """

    kept: dict[str, dict[str, tuple[Drawing, str]]] = {}  # game slug -> key -> (drawing, hash)

    def __init__(self, game: Game, layouter: Layouter, icons: IconSet, base: str):
        self.slug, self.layouter, self.base = game.slug, layouter, base
        self.before, self.now = self.kept.get(game.slug, {}), {}
        side = (base, game.title, json.dumps(game.text_context, sort_keys=True, default=str),
                [(e.name, e.color, e.icon) for e in game.elements], sorted(layouter.placeholders), icons.fingerprint)
        self.game_key = hashlib.sha256(_value_bytes(side)).digest()
        self.layout_keys: dict[int, bytes] = {}

    def draw(self, key: str, face, layout) -> FaceOut:
        if id(layout) not in self.layout_keys:
            self.layout_keys[id(layout)] = hashlib.sha256(_value_bytes(layout)).digest()
        art = face.art.stat() if face.art else None
        own = (face.values, face.elements, str(face.art), art and (art.st_mtime_ns, art.st_size), face.seed, face.label)
        memo = hashlib.sha256(self.game_key + self.layout_keys[id(layout)] + _value_bytes(own)).hexdigest()
        found = self.before.get(memo) or self.now.get(memo)
        if found is None:
            problems = len(self.layouter.problems)
            out = _face(key, self.layouter.draw(face, layout), self.base)
            if len(self.layouter.problems) > problems:
                return out
            found = (out.drawing, out.hash)
        self.now[memo] = found
        return FaceOut(key, *found)

    def keep(self) -> None:
        """Keep this plan's faces (only them: an edited card's old face is let go)."""
        self.kept[self.slug] = self.now


def _face(key: str, drawing: Drawing, base: str) -> FaceOut:
    h = hashlib.sha256(base.encode())
    h.update(_value_bytes(drawing))
    for item in drawing.items:
        if isinstance(item, Image):
            h.update(Path(item.path).read_bytes())
    return FaceOut(key, drawing, h.hexdigest())


def build(options: Options) -> Report:
    plans, warnings = plan(options)
    report = Report(warnings=warnings)
    games = [_GameBuild(p, options, report) for p in plans]
    # Face images first, then the sheets PDFs, then print-shop files, rulebooks and playmats,
    # over one pool; the sheets made of the images (Tabletop Simulator, the overview) join the
    # queue as soon as the images are drawn.
    renders = [job for g in games for job in g.render_jobs()]
    # Every game's first PDF before any game's second: by then its faces' forms are cached.
    per_game = [g.pdf_jobs() + g.rulebook_jobs() + g.playmat_jobs() for g in games]  # before the workers fork: see _SHARED
    pdfs = [job for jobs in itertools.zip_longest(*per_game) for job in jobs if job is not None]
    with _Workers(options) as workers:
        rendering = workers.submit(renders)
        workers.submit(pdfs)
        workers.wait(rendering)  # the composite sheets are made of the rendered images
        workers.submit([job for g in games for job in g.composite_jobs()])
    for g in games:
        g.finish()
    return report


@dataclass(frozen=True)
class RulebookJob:
    book: rulebook.Book
    paper: str
    booklet: bool
    path: str
    contents: str  # where the contents page's entries are kept between builds

    def run(self) -> None:
        data = rulebook.pdf(self.book, self.paper, booklet=self.booklet, contents=Path(self.contents))
        atomic_write(Path(self.path), rulebook.impose(data, self.paper) if self.booklet else data)


@dataclass(frozen=True)
class PlaymatJob:
    mat: playmat.Mat
    paper: str  # '' for the full-size mat
    path: str

    def run(self) -> None:
        data = playmat.tiled_pdf(self.mat, self.paper) if self.paper else playmat.full_pdf(self.mat)
        atomic_write(Path(self.path), data)


@dataclass(frozen=True)
class ComposeJob:
    """A file made by a function of module scope (so that a worker can run it)."""

    make: object
    args: tuple
    path: str

    def run(self) -> None:
        atomic_write(Path(self.path), self.make(*self.args))


# Data that the worker processes inherit when they fork, rather than receive through a pipe:
# the laid-out cards of a game go into every one of its PDFs, and pickling them once per PDF
# cost more than drawing them.
_SHARED: dict[str, list] = {}


@dataclass(frozen=True)
class PdfJob:
    """One PDF of sheets, made in a worker."""

    layout: str  # 'duplex', 'fold' or 'printshop'
    paper: str
    cards: str  # the key of the game's sheet cards in _SHARED
    size: tuple[float, float, float]
    title: str
    back_offset: tuple[float, float]
    path: str
    cache: str  # the directory of faces' cached PDF operators

    def run(self) -> None:
        cards, cache = _SHARED[self.cards], Path(self.cache)
        if self.layout == "printshop":
            data = sheets.printshop_pdf(cards, self.size, self.title, cache)
        elif self.layout == "fold":
            sheet = sheets.Sheet(PAPERS[self.paper], sheets.FOLD_GRID, *self.size)
            data = sheets.fold_pdf(cards, sheet, self.title, cache)
        else:
            sheet = sheets.Sheet(PAPERS[self.paper], sheets.DUPLEX_GRIDS[self.paper], *self.size)
            data = sheets.duplex_pdf(cards, sheet, self.title, self.back_offset, cache)
        atomic_write(Path(self.path), data)


class _GameBuild:
    def __init__(self, plan: GamePlan, options: Options, report: Report):
        self.plan, self.options, self.report = plan, options, report
        self.game = plan.game
        self.out = options.out / self.game.slug
        self.cache = self.out / ".cache"
        self._bands = self.cache / "bands"
        self._band_files: set[str] = set()  # the bands this build's composite images are made of
        self.old = self._read_manifest()
        self.new: dict[str, str] = {}

    def _read_manifest(self) -> dict[str, str]:
        try:
            data = json.loads((self.out / MANIFEST).read_text())
            return data if isinstance(data, dict) else {}
        except (OSError, ValueError):
            return {}

    def _fresh(self, rel: str, digest: str) -> bool:
        """Record `rel` as made from `digest`; True when it already is and is on disk."""
        self.new[rel] = digest
        if self.old.get(rel) == digest and (self.out / rel).is_file():
            self.report.unchanged.append(self.out / rel)
            return True
        return False

    def _write(self, rel: str, data: bytes) -> None:
        atomic_write(self.out / rel, data)
        self.report.written.append(self.out / rel)

    def _compose(self, rel: str, make, *args) -> "ComposeJob":
        self.report.written.append(self.out / rel)
        return ComposeJob(make, args, str(self.out / rel))


    def composite_jobs(self) -> list:
        """The sheets made of face images: run once those images are drawn."""
        kinds = self.options.kinds
        return (self._tts() if "tts" in kinds else []) + (self._overview() if "overview" in kinds else [])

    def finish(self) -> None:
        self._prune_cache()
        self._remove_stale()
        atomic_write(self.out / MANIFEST, json.dumps(self.new, indent=1, sort_keys=True).encode())

    # -- PDFs

    def _sheet_cards(self) -> tuple[list[sheets.SheetCard], str]:
        """Every card its count times, and the hash of that sequence of faces."""
        cards, digest = [], hashlib.sha256(RENDERER_VERSION.encode())
        for deck in self.game.decks.values():
            for card in deck.cards:
                front, back = self.plan.fronts[card.id], self.plan.backs[card.id]
                item = sheets.SheetCard(sheets.Face(front.key, front.drawing, front.hash),
                                        sheets.Face(back.key, back.drawing, back.hash), deck.name)
                cards += [item] * card.count
                digest.update(f"{front.hash}{back.hash}{deck.name}{card.count}".encode())
        return cards, digest.hexdigest()

    def pdf_jobs(self) -> list[PdfJob]:
        """The PDFs this build must (re)make; fresh ones are skipped."""
        cards, digest = self._sheet_cards()
        _SHARED[self.game.slug] = cards
        first = next(iter(self.plan.fronts.values())).drawing
        size = (first.width, first.height, first.bleed)
        offset = self.options.back_offset
        wanted = []  # the sheets to print at home first: `watch` shows them soonest
        for paper in self.options.papers:
            wanted += [("duplex", paper, "sheets", f"cards-{paper}.pdf", f"{digest}:{offset}"),
                       ("fold", paper, "fold", f"cards-fold-{paper}.pdf", digest)]
        wanted.append(("printshop", "", "printshop", "cards-printshop.pdf", digest))
        jobs = []
        for layout, paper, kind, rel, key in wanted:
            if kind in self.options.kinds and not self._fresh(rel, key):
                jobs.append(PdfJob(layout, paper, self.game.slug, size, self.game.title, offset, str(self.out / rel),
                                   str(self.cache / "pdf")))
                self.report.written.append(self.out / rel)
        return jobs

    # -- images

    def _faces(self) -> list[FaceOut]:
        """Every unique face once: fronts, own backs, deck backs."""
        seen, out = set(), []
        for face in [*self.plan.fronts.values(), *self.plan.backs.values(), *self.plan.deck_backs.values()]:
            if face.key not in seen:
                seen.add(face.key)
                out.append(face)
        return out

    def _thumb(self, face: FaceOut) -> Path:
        return self.cache / f"{face.hash[:32]}.png"

    def rulebook_jobs(self) -> list[RulebookJob]:
        book = self.plan.book
        if book is None or "rulebook" not in self.options.kinds:
            return []
        digest = hashlib.sha256(RENDERER_VERSION.encode() + _value_bytes(book)).hexdigest()
        jobs = []
        for paper in self.options.papers:
            for booklet in (False, True) if self.options.booklet else (False,):
                rel = f"rulebook-{paper}{'-booklet' if booklet else ''}.pdf"
                if not self._fresh(rel, digest):
                    jobs.append(RulebookJob(book, paper, booklet, str(self.out / rel), str(self.cache / f"{Path(rel).stem}.toc.json")))
                    self.report.written.append(self.out / rel)
        return jobs

    def playmat_jobs(self) -> list[PlaymatJob]:
        mat = self.plan.mat
        if mat is None or "playmat" not in self.options.kinds:
            return []
        digest = hashlib.sha256(RENDERER_VERSION.encode() + _value_bytes(mat)).hexdigest()
        jobs = []
        for paper, rel in [("", "playmat.pdf")] + [(p, f"playmat-tiled-{p}.pdf") for p in self.options.papers]:
            if not self._fresh(rel, digest):
                jobs.append(PlaymatJob(mat, paper, str(self.out / rel)))
                self.report.written.append(self.out / rel)
        return jobs

    def render_jobs(self) -> list[images.RenderJob]:
        """The face images this build must (re)draw; fresh ones are skipped."""
        kinds = self.options.kinds
        jobs = []
        for face in self._faces():
            png = None
            if "png" in kinds and not self._fresh(f"png/{face.key}.png", face.hash):
                png = str(self.out / "png" / f"{face.key}.png")
                self.report.written.append(Path(png))
            thumb = self._thumb(face)
            need_thumb = {"tts", "overview"} & set(kinds) and not (thumb.is_file() and images.small_thumb(thumb).is_file())
            if png or need_thumb:
                jobs.append(images.RenderJob(face.drawing, png, str(thumb) if need_thumb else None))
        return jobs

    def _overview(self) -> list:
        rows = [[self._thumb(self.plan.fronts[c.id]) for c in deck.cards] + [self._thumb(self.plan.deck_backs[deck.id])]
                for deck in self.game.decks.values()]
        digest = hashlib.sha256(json.dumps([[p.name for p in r] for r in rows]).encode()).hexdigest()
        self._band_files.update(bandpng.file_name(k) for k, _, _ in images.overview_bands(rows)[1])
        return [] if self._fresh("overview.png", digest) else [self._compose("overview.png", images.overview, rows, self._bands)]

    def _tts(self) -> list:
        index, jobs = [], []
        for deck in self.game.decks.values():
            slots = [card for card in deck.cards for _ in range(card.count)]
            back = self.plan.deck_backs[deck.id]
            own_backs = any(self.plan.backs[c.id] is not back for c in deck.cards)
            rel = f"tts/{deck.id}-back.png"
            if not self._fresh(rel, back.hash):
                self._write(rel, self._thumb(back).read_bytes())
            for n, chunk in enumerate(sheets.chunks(slots, images.TTS_PER_SHEET), start=1):
                fronts = [self._thumb(self.plan.fronts[c.id]) for c in chunk]
                cols, rows = images.tts_grid(len(fronts))
                entry = {"sheet": f"{deck.id}-{n}.png", "deck": deck.name, "cards": len(fronts), "width": cols, "height": rows,
                         "back": f"{deck.id}-back.png"}
                rel = f"tts/{deck.id}-{n}.png"
                self._band_files.update(bandpng.file_name(k) for k, _ in images.tts_bands(fronts, self._thumb(back)))
                if not self._fresh(rel, hashlib.sha256("".join(p.name for p in fronts).encode()).hexdigest()):
                    jobs.append(self._compose(rel, images.tts_sheet, fronts, self._thumb(back), self._bands))
                if own_backs:  # double-sided cards: a sheet of their backs in the same grid
                    backs = [self._thumb(self.plan.backs[c.id]) for c in chunk]
                    rel = f"tts/{deck.id}-{n}-backs.png"
                    entry["backs"] = f"{deck.id}-{n}-backs.png"
                    self._band_files.update(bandpng.file_name(k) for k, _ in images.tts_bands(backs, self._thumb(back)))
                    if not self._fresh(rel, hashlib.sha256("".join(p.name for p in backs).encode()).hexdigest()):
                        jobs.append(self._compose(rel, images.tts_sheet, backs, self._thumb(back), self._bands))
                index.append(entry)
        data = json.dumps({"game": self.game.title, "sheets": index}, indent=2).encode()
        if not self._fresh("tts/sheets.json", hashlib.sha256(data).hexdigest()):
            self._write("tts/sheets.json", data)
        return jobs

    def _prune_cache(self) -> None:
        """Drop the cached thumbnails, PDF forms and image bands of faces that are no more."""
        keep = {p.name for f in self._faces() for p in (self._thumb(f), images.small_thumb(self._thumb(f)))}
        keep |= {sheets.form_cache_name(f.hash) for f in self._faces()}
        keep |= {f"{Path(rel).stem}.toc.json" for rel in self.new if rel.startswith("rulebook-")}
        cached = [*self.cache.glob("*.png"), *self.cache.glob("*.toc.json"), *self.cache.glob("pdf/*.form")] if self.cache.is_dir() else []
        if {"tts", "overview"} <= set(self.options.kinds):  # else some sheets' bands were not listed
            keep |= self._band_files
            cached += self._bands.glob("*.band")
        for path in cached:
            if path.name not in keep:
                path.unlink()

    def _remove_stale(self) -> None:
        """Outputs an earlier build made that this one, asked for the same kind, no longer makes
        (a deleted card's image); outputs of kinds or papers not asked for are kept as they are."""
        for rel in set(self.old) - set(self.new):
            kind, paper = _kind_of(rel)
            if kind not in self.options.kinds or (paper and paper not in self.options.papers):
                self.new[rel] = self.old[rel]
                continue
            path = self.out / rel
            if path.is_file():
                path.unlink()
                self.report.removed.append(path)


def _kind_of(rel: str) -> tuple[str, str | None]:
    """The kind of output a manifest entry is, and its paper if it has one."""
    if rel.startswith(("png/", "tts/")):
        return rel.split("/", 1)[0], None
    if rel == "cards-printshop.pdf":
        return "printshop", None
    if rel == "playmat.pdf":
        return "playmat", None
    if rel.startswith("playmat-tiled-"):
        return "playmat", rel.removeprefix("playmat-tiled-").removesuffix(".pdf")
    if rel.startswith("rulebook-"):
        return "rulebook", rel.removeprefix("rulebook-").removesuffix(".pdf").removesuffix("-booklet")
    for prefix, kind in (("cards-fold-", "fold"), ("cards-", "sheets")):
        if rel.startswith(prefix):
            return kind, rel[len(prefix):].removesuffix(".pdf")
    return "overview", None


def _run(job) -> None:
    job.run()


class _Workers:
    """Runs jobs over every core: worker processes forked after the plan (so they inherit
    _SHARED), fed in the order given, with a progress bar on a terminal for long builds."""

    def __init__(self, options: Options):
        self.options = options
        self.parallel = options.jobs > 1 and "fork" in multiprocessing.get_all_start_methods()
        self.pool: ProcessPoolExecutor | None = None
        self.futures: list = []
        self.bar = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        try:
            for future in self.futures:
                future.result()  # a worker's exception is raised here
        finally:
            if self.pool is not None:
                self.pool.shutdown()
            if self.bar is not None:
                self.bar.close()

    def submit(self, jobs: list) -> list:
        """Start the jobs; returns what `wait` takes."""
        if not jobs:
            return []
        self._progress(len(jobs))
        if not self.parallel:
            for job in jobs:
                job.run()
                self._tick()
            return []
        if self.pool is None:
            # Image codecs are loaded lazily by Pillow; load them once, before the fork.
            from PIL import Image as PILImage

            PILImage.preinit()
            self.pool = ProcessPoolExecutor(self.options.jobs, mp_context=multiprocessing.get_context("fork"))
        futures = [self.pool.submit(_run, job) for job in jobs]
        for future in futures:
            future.add_done_callback(lambda _: self._tick())
        self.futures += futures
        return futures

    def wait(self, futures: list) -> None:
        for future in futures:
            future.result()

    def _progress(self, more: int) -> None:
        if not (self.options.progress and sys.stderr.isatty()):
            return
        if self.bar is None:
            from tqdm import tqdm  # only a terminal shows it

            self.bar = tqdm(total=0, desc="building", unit="file")
        self.bar.total += more
        self.bar.refresh()

    def _tick(self) -> None:
        if self.bar is not None:
            self.bar.update()
