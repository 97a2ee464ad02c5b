"""Incremental equals clean, always (issue 26, part 1): random sequences of edits (some saved within
the clock's tick, so a file's size and time stay as they were), broken inputs and their fixes,
builds that fail part-way or are killed, option changes and library upgrades, built in a fresh
process's way or in one long-lived session (as the resident builder and `watch` build: the same
`build` with a BuildSession kept from build to build), on a small game of YAML alone; after each
good build, every output is byte for byte what a clean build of the
same inputs and options makes into an empty folder, and the files it leaves besides are other
options' (which it does not own); after each failed or killed build, nothing changed.

hypothesis's rule-based state machine shrinks a failing sequence to its shortest. A short run
here (a few sequences); SPELLPRESS_INCREMENTAL_EXAMPLES sets how many (`make bench` runs many).
"""

import os
import shutil
import signal
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from spellpress import defaults
from spellpress.cli import main, parser
from spellpress.core import ValidationFailed
from spellpress.press.cli import options as parsed
from spellpress.press.drawing.papers import PAPER_NAMES
from spellpress.press.model import kinds, libraries
from spellpress.press.model.session import BuildSession
from spellpress.press.outputs import jobs
from spellpress.press.outputs.build import build
from spellpress.press.outputs.gamebuild import STAGING

SLUG = "goblin-market"
EXAMPLES = int(os.environ.get("SPELLPRESS_INCREMENTAL_EXAMPLES", "8"))
STEPS = int(os.environ.get("SPELLPRESS_INCREMENTAL_STEPS", "10"))

# What each edit can set: (file under the project, the text as `spellpress new` wrote it, its variants)
EDITS = {
    "card text": ("cards/goblin-market/actions.yaml", "loses 2 health",
                  ("loses 2 health", "loses 3 health", "loses {{ hand_size }} health")),
    "constant": ("cards/goblin-market/game.yaml", "hand_size: 3", ("hand_size: 3", "hand_size: 4", "hand_size: 2")),
    "layout": ("templates/card.yaml", 'frame: "#3d3550"', ('frame: "#3d3550"', 'frame: "#7a2e2e"')),
    "count": ("cards/goblin-market/actions.yaml", "count: 2", ("count: 2", "count: 1", "count: 4")),
    "rules": ("cards/goblin-market/rules.yaml", "Play one card, then draw one.",
              ("Play one card, then draw one.", "Play one card, then draw two.")),
}
SAME_SIZE = sorted(name for name, (_, _, variants) in EDITS.items() if len({len(v) for v in variants}) == 1)
BROKEN = ("cards/goblin-market/actions.yaml", "Draw until you hold", "Draw until you hold {{ hnad_size }} or")
OPTIONS = st.fixed_dictionaries({
    "paper": st.sampled_from([(), ("a4",), ("letter",)]),
    "booklet": st.booleans(),
    "letter_3x3": st.booleans(),
    "ink": st.sampled_from([None, "mono"]),
    "target": st.sampled_from([None, ("mpc",), ("home", "tgc")]),
    "only": st.sampled_from([None, ("png", "sheets"), ("rulebook",)]),
    "jobs": st.sampled_from([1, 2]),
})


@pytest.fixture(scope="module")
def new_game(tmp_path_factory):
    """`spellpress new goblin-market`, with the shared card layout copied into its templates."""
    base = tmp_path_factory.mktemp("new")
    cwd = os.getcwd()
    os.chdir(base)
    try:
        assert main(["new", SLUG]) == 0
    finally:
        os.chdir(cwd)
    (base / "templates").mkdir(exist_ok=True)
    shutil.copy(defaults.TEMPLATES / "card.yaml", base / "templates" / "card.yaml")
    for where, old, _ in [*EDITS.values(), BROKEN]:
        assert old in (base / where).read_text(), (where, old)
    return base


def files(out: Path) -> dict[str, bytes]:
    """The outputs under `out` (not the cache, the manifest or what a build keeps for itself)."""
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and not any(part.startswith(".") for part in p.relative_to(out).parts)}


def files_of(found: dict[str, bytes]) -> list[str]:
    """The outputs among what `state` found."""
    return [rel for rel in found if not any(part.startswith(".") for part in rel.split("/"))]


def state(out: Path) -> dict[str, bytes]:
    """The outputs and the manifests: what a failed build must leave as it was."""
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and ".cache" not in p.parts and STAGING not in p.parts}


class Builds(RuleBasedStateMachine):
    base: Path  # the new game, set by the test

    @initialize()
    def start(self):
        self.root = Path(tempfile.mkdtemp(prefix="incremental-"))
        shutil.copytree(self.base, self.root, dirs_exist_ok=True)
        self.chosen = {name: variants[0] for name, (_, _, variants) in EDITS.items()}
        self.broken = False
        self.argv: list[str] = []
        self.aside: set[Path] = set()  # the folders a killed build left files aside in, till a good build there
        self.session = BuildSession()  # the resident builder's and watch's, kept from build to build
        self.readers = dict(libraries.READERS)

    def teardown(self):
        libraries.READERS.clear()
        libraries.READERS.update(self.readers)
        shutil.rmtree(self.root, ignore_errors=True)

    # -- the inputs

    def _write(self) -> None:
        """Every edited file from the text `new` wrote, with the variants chosen (and the break)."""
        texts = {where: (self.base / where).read_text() for where, _, _ in EDITS.values()}
        texts.setdefault(BROKEN[0], (self.base / BROKEN[0]).read_text())
        for name, (where, old, _) in EDITS.items():
            texts[where] = texts[where].replace(old, self.chosen[name])
        if self.broken:
            texts[BROKEN[0]] = texts[BROKEN[0]].replace(BROKEN[1], BROKEN[2])
        for where, text in texts.items():
            path = self.root / where
            if path.read_text() != text:
                path.write_text(text)

    @rule(name=st.sampled_from(sorted(EDITS)), data=st.data())
    def edit(self, name, data):
        self.chosen[name] = data.draw(st.sampled_from(EDITS[name][2]), label=name)
        self._write()

    @rule(name=st.sampled_from(SAME_SIZE), data=st.data())
    def save_within_the_tick_and_build(self, name, data):
        """A save the file's clock does not see (another value of the same size, the same modification
        time: two saves within one tick of a coarse clock), then a build in the session at once."""
        where = self.root / EDITS[name][0]
        before = where.stat()
        self.chosen[name] = data.draw(st.sampled_from([v for v in EDITS[name][2] if v != self.chosen[name]]), label=name)
        self._write()
        os.utime(where, ns=(before.st_atime_ns, before.st_mtime_ns))
        self.build()

    @rule(library=st.sampled_from(sorted(libraries.READERS)))
    def upgrade(self, library):
        """A new version of a library the build draws with (the same code: the bytes stay)."""
        known = libraries.READERS[library]()
        libraries.READERS[library] = lambda: known + "+1"

    @rule()
    def break_a_card(self):
        self.broken = True
        self._write()

    @rule()
    def fix_it(self):
        self.broken = False
        self._write()

    @rule(choice=OPTIONS)
    def choose_options(self, choice):
        argv = [*(a for p in choice["paper"] for a in ("--paper", p)), *(["--booklet"] if choice["booklet"] else []),
                *(["--letter-3x3"] if choice["letter_3x3"] else []), *(["--ink", choice["ink"]] if choice["ink"] else []),
                *(a for t in choice["target"] or () for a in ("--target", t)), "--jobs", str(choice["jobs"])]
        if choice["only"] and (choice["target"] is None or "home" in choice["target"]):
            argv += ["--only", *choice["only"]]
        self.argv = argv

    # -- the builds

    def _options(self, out: str = "build"):
        return parsed(parser().parse_args(["build", "--here", "--cards", str(self.root / "cards"), "--templates",
                                           str(self.root / "templates"), "--out", str(self.root / out), *self.argv]))

    @rule()
    def build(self):
        """As the resident builder and `watch` build: in the session kept from the builds before (the
        clean builds it is compared with, and the failed and killed ones, are each a new process's)."""
        before = state(self.root / "build")
        try:
            build(self._options(), self.session)
        except ValidationFailed:
            assert self.broken, "a build of good inputs found a problem"
            assert state(self.root / "build") == before, "a build that found a problem changed the outputs"
            return
        assert not self.broken, "a broken card built"
        self._compare(before)

    @rule()
    def fail_part_way(self):
        """A job fails after others made their files: nothing changes."""
        before = state(self.root / "build")
        original = jobs.FacePng.__call__
        jobs.FacePng.__call__ = _fail  # type: ignore[method-assign]  (inherited by the workers it forks)
        try:
            build(self._options())
        except (ValidationFailed, RuntimeError):
            assert state(self.root / "build") == before, "a build that failed changed the outputs"
            return
        finally:
            jobs.FacePng.__call__ = original  # type: ignore[method-assign]
        self._compare(before)  # it drew no face: a good build

    @rule()
    def kill(self):
        """SIGKILL while the sheets are drawn, in one process: nothing changes."""
        before = state(self.root / "build")
        o = self._options()
        pid = os.fork()
        if pid == 0:
            try:
                jobs.SheetsPdf.__call__ = _die  # type: ignore[method-assign]
                build(type(o)(**{**o.__dict__, "jobs": 1}))
            finally:
                os._exit(3)
        _, status = os.waitpid(pid, 0)
        if os.WIFSIGNALED(status):
            self.aside.add(_folder(o))
            assert state(self.root / "build") == before, "a killed build changed the outputs"
        elif state(self.root / "build") != before:  # it drew no sheets: it was a good build, or a broken one
            self._compare(before)

    def _compare(self, before: dict[str, bytes]) -> None:
        """After a good build: every output of a clean build of these inputs and options, byte for byte; besides
        them only files this build does not own (other options'), and those as they were `before` it."""
        o = self._options()
        self.aside.discard(_folder(o))
        kept = self.root / "build.kept"
        o.out.rename(kept)
        try:
            build(o)
            clean = files(o.out)
        finally:
            shutil.rmtree(o.out)
            kept.rename(o.out)
        now = files(o.out)
        differ = sorted(rel for rel in clean if now.get(rel) != clean[rel])
        assert not differ, f"not what a clean build makes: {differ}"
        owned = [rel for rel in set(now) - set(clean) if _owns(o, rel)]
        assert not owned, f"left though this build owns them and does not make them: {sorted(owned)}"
        others = [rel for rel in files_of(before) if not _owns(o, rel) and now.get(rel) != before[rel]]
        assert not others, f"another option's files removed or changed: {sorted(others)}"

    @invariant()
    def nothing_left_aside_or_empty(self):
        out = self.root / "build"
        if out.is_dir():
            left = {p.parent for p in out.rglob(STAGING)}
            assert left <= self.aside, f"files left aside by a build that was not killed: {left - self.aside}"
            empty = [p for p in out.rglob("*") if p.is_dir() and not any(p.iterdir())]
            assert not empty, f"empty folders: {empty}"


def _fail(self, shared):
    raise RuntimeError("a job fails after others made their files")


def _die(self, shared):
    os.kill(os.getpid(), signal.SIGKILL)


def _folder(o) -> Path:
    """The game's output folder for the options `o`: a build there clears what a killed one left."""
    return o.out / SLUG / (f"ink-{o.ink}" if o.ink and o.ink != "full" else "")


def _owns(o, rel: str) -> bool:
    """Whether a build with options `o` owns the output `rel` (under --out): its ink's folder, and
    a kind, paper and option of its own (as gamebuild.GameBuild._owns; the game's targets are home)."""
    slug, _, rest = rel.partition("/")
    ink = f"ink-{o.ink}" if o.ink and o.ink != "full" else ""
    if ink:
        if not rest.startswith(ink + "/"):
            return False
        rest = rest[len(ink) + 1:]
    elif rest.startswith("ink-"):
        return False
    owner = kinds.owned_by(rest, PAPER_NAMES)
    made = [k for k in o.kinds if not o.game_targets or k not in {"mpc", "tgc", "dtc"}]
    return (owner is not None and owner.kind in made and owner.paper in (None, *o.papers)
            and (owner.option is None or bool(getattr(o, owner.option))))


def test_incremental_builds_equal_clean_ones(new_game):
    Builds.base = new_game
    run_state_machine_as_test(Builds, settings=settings(
        max_examples=EXAMPLES, stateful_step_count=STEPS, deadline=None, derandomize="SPELLPRESS_INCREMENTAL_EXAMPLES" not in os.environ,
        suppress_health_check=list(HealthCheck), database=None))
