"""The kinds of output a build makes, each declared once, here.

A kind names its files (for the manifest to know whose an old file is), the phase its jobs
run in, whether it is made of the faces' thumbnails, the files under a game's .cache its
outputs are made with, and the files only a build with an option makes. What a kind makes of
a game (each output's file, what it is made from, the libraries that draw it and the job that
makes it) is listed by its function in outputs/listing.py, under its name. `spellpress build
--only` offers the kinds in the order they are declared. Adding a kind is declaring it here
and writing its function there.

The command line reads this module for the kinds' names, on every command: it imports nothing
that draws.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from .shops import SHOPS

# The phases, in the order their jobs are queued: the faces' images, the PDFs, and (once the
# faces' thumbnails are drawn) the images made of those.
IMAGES, PRINT, COMPOSITE = "images", "print", "composite"


@dataclass(frozen=True)
class Output:
    rel: str  # the file, relative to the game's output directory
    key: str  # what it is made from: the file is made again when this changes...
    libraries: tuple[str, ...]  # ...or the version of a library that draws it (libraries.py)
    job: Callable[[dict], bytes]  # what makes its bytes, in a worker (outputs/jobs.py)
    cache: tuple[str, ...] = ()  # the files under the game's .cache it is made with


@dataclass(frozen=True)
class Kind:
    name: str
    files: tuple[str, ...]  # its file names; '{paper}' stands for a paper's name, '*' for any name
    phase: str
    thumbnails: bool = False  # made of the faces' thumbnails (drawn before its phase starts)
    cache: tuple[str, ...] = ()  # patterns of the files under .cache its outputs are made with
    # files of `files` that only a build with an option makes: the name of that option (an
    # Options field, true when asked for); only such a build may remove them (outputs/build.py)
    options: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        assert set(self.options) <= set(self.files), f"the kind '{self.name}' gives an option to a file it does not make"


def _registry(*declared: Kind) -> dict[str, Kind]:
    registry: dict[str, Kind] = {}
    for k in declared:
        assert k.name not in registry, f"the kind '{k.name}' is declared twice"
        registry[k.name] = k
    return registry


_FORMS = ("pdf/*.form", "pdf/*.skeleton")  # the faces' cached PDF forms and the sheets' skeletons
_THUMBNAILS = ("*.png", "bands/*.band")  # the faces' thumbnails and the compressed bands made of them

REGISTRY: dict[str, Kind] = _registry(
    # card sheets
    Kind("sheets", ("cards-{paper}.pdf", "cards-{paper}-3x3.pdf"), PRINT, cache=_FORMS,
         options={"cards-{paper}-3x3.pdf": "letter_3x3"}),
    Kind("fold", ("cards-fold-{paper}.pdf",), PRINT, cache=_FORMS),
    Kind("printshop", ("cards-printshop.pdf",), PRINT, cache=_FORMS),
    Kind("reprint", ("cards-reprint-{paper}.pdf", "cards-reprint-fold-{paper}.pdf"), PRINT),
    # images
    Kind("png", ("png/*.png",), IMAGES),
    Kind("tts", ("tts/*",), COMPOSITE, thumbnails=True, cache=_THUMBNAILS),
    Kind("overview", ("overview.png",), COMPOSITE, thumbnails=True, cache=_THUMBNAILS),
    # rulebooks, playmats and tokens
    Kind("rulebook", ("rulebook-{paper}.pdf", "rulebook-{paper}-booklet.pdf"), PRINT, cache=("*.toc.json", "*.skeleton"),
         options={"rulebook-{paper}-booklet.pdf": "booklet"}),
    Kind("playmat", ("playmat.pdf", "playmat-tiled-{paper}.pdf"), PRINT),
    Kind("tokens", ("tokens-{paper}.pdf",), PRINT),
    # print shops (shops.py): one kind a shop, asked for by `--target`
    *(Kind(shop.key, (f"{shop.key}/*", f"{shop.key}/*/*"), PRINT if shop.format == "pdf" else IMAGES,
           cache=(f"{shop.key}/*.jpg",) if shop.format == "pdf" else ())
      for shop in SHOPS.values()),
)

ON_REQUEST = ("reprint",)  # made only when asked for (`build --reprint`), never by a plain build
# what a plain build makes, and `--only` offers (a print shop's kinds are asked for by --target)
NAMES = tuple(name for name in REGISTRY if name not in ON_REQUEST and name not in SHOPS)


@dataclass(frozen=True)
class Owner:
    """Whose a file is: the build that may remove it has its kind, its paper and its option."""

    kind: str
    paper: str | None  # None: a file of every paper
    option: str | None  # an Options field the build must have on (booklet, letter_3x3), or None


def owner(rel: str, papers: tuple[str, ...]) -> tuple[str, str | None] | None:
    """The kind whose file `rel` is, and the paper it is for if any; None if no kind's."""
    found = owned_by(rel, papers)
    return None if found is None else (found.kind, found.paper)


def owned_by(rel: str, papers: tuple[str, ...]) -> Owner | None:
    """The kind, paper and option whose file `rel` is; None if no kind's."""
    for name, option, pattern in _patterns(papers):
        found = pattern.fullmatch(rel)
        if found:
            return Owner(name, found.groupdict().get("paper"), option)
    return None


@lru_cache(maxsize=4)
def _patterns(papers: tuple[str, ...]) -> tuple[tuple[str, str | None, re.Pattern], ...]:
    paper = "(?P<paper>" + "|".join(map(re.escape, papers)) + ")"
    return tuple((k.name, k.options.get(f), re.compile(re.escape(f).replace(r"\{paper\}", paper).replace(r"\*", "[^/]+")))
                 for k in REGISTRY.values() for f in k.files)
