"""A font file a game names (game.yaml's `fonts:`), checked before anything draws with it.

The press embeds every face it sets text in, as a subset, with reportlab, which reads TrueType
(glyf) outlines only, and refuses a face whose licence flags forbid embedding. So the file's
header and table directory are read here, without a font library: what kind of font it is (a
TrueType face; an OpenType face with PostScript outlines, `OTTO`; a web font; a collection; not a
font at all) and whether it may be embedded (OS/2 fsType). Each refusal says what would do.
Whether reportlab then reads the whole file, and whether it has a glyph for every character the
cards set in it, the press checks (press/drawing/fonts.py, press/model/plan.py).
"""

from __future__ import annotations

import os
import struct
from pathlib import Path

MAX_BYTES = 50 * 1024 * 1024  # a large CJK face is 20 MB; the file is read whole to be hashed
TRUETYPE = "a TrueType font file (.ttf, or an .otf with TrueType outlines)"
_NEEDED = (b"cmap", b"glyf", b"head", b"hhea", b"hmtx", b"loca", b"maxp")  # what a TrueType face is drawn from
_KINDS = {
    b"OTTO": ("an OpenType font with PostScript (CFF) outlines, which the PDF writer (reportlab) cannot embed: name the "
              "face's TrueType-outline version instead (most families publish both, as .ttf; fontTools' otf2ttf or "
              "FontForge converts one)"),
    b"wOFF": "a web font (WOFF): name the face's .ttf file instead",
    b"wOF2": "a web font (WOFF2): name the face's .ttf file instead",
    b"ttcf": "a font collection (.ttc) of several faces: name one face's .ttf file",
}


class Refused(Exception):
    """A font file that cannot be used: the message says why and what would do."""


def check(path: Path) -> str:
    """The face's full name as its file gives it, when `path` (inside its game's directory,
    existing) is a TrueType font the press may embed; Refused otherwise."""
    try:
        st = os.stat(path)
    except OSError as exc:
        raise Refused(f"cannot be read: {exc.strerror}") from None
    if not (st.st_mode & 0o170000 == 0o100000):  # a pipe or a device would never end
        raise Refused(f"is not a regular file; name {TRUETYPE}")
    if st.st_size > MAX_BYTES:
        raise Refused(f"is {st.st_size / 1024 / 1024:.0f} MB, more than the {MAX_BYTES // 1024 // 1024} MB a face may be")
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise Refused(f"cannot be read: {exc.strerror}") from None
    tag = data[:4]
    if tag in _KINDS:
        raise Refused(f"is {_KINDS[tag]}")
    if tag not in (b"\x00\x01\x00\x00", b"true"):
        raise Refused(f"is not a font file (it does not begin as a TrueType font does); name {TRUETYPE}")
    tables = _tables(data)
    if tables is None:
        raise Refused(f"is damaged: its table directory runs past the end of the file; name {TRUETYPE}")
    lacking = [t.decode().strip() for t in _NEEDED if t not in tables]
    if lacking:
        raise Refused(f"is not a whole TrueType font: it has no {', '.join(repr(t) for t in lacking)} table; name {TRUETYPE}")
    fs_type = _fs_type(data, tables)
    if fs_type is not None and (fs_type == 0x0002 or fs_type & 0x0300):
        raise Refused("may not be embedded: its licence flags (OS/2 fsType) forbid embedding it, or a subset of it, in a "
                      "document, and a PDF must embed its fonts; choose a face whose licence allows it (any under the "
                      "SIL Open Font License does)")
    return _name(data, tables, 4) or Path(path).stem


def _tables(data: bytes) -> dict[bytes, tuple[int, int]] | None:
    """The table directory: tag -> (offset, length); None when it or a table lies past the end."""
    if len(data) < 12:
        return None
    (count,) = struct.unpack(">H", data[4:6])
    if len(data) < 12 + 16 * count:
        return None
    out = {}
    for i in range(count):
        tag, _, offset, length = struct.unpack(">4sLLL", data[12 + 16 * i:28 + 16 * i])
        if offset + length > len(data):
            return None
        out[tag] = (offset, length)
    return out


def _fs_type(data: bytes, tables: dict[bytes, tuple[int, int]]) -> int | None:
    offset, length = tables.get(b"OS/2", (0, 0))
    if length < 10:
        return None
    (fs_type,) = struct.unpack(">H", data[offset + 8:offset + 10])
    return int(fs_type)


def credit(path: Path) -> str:
    """How a rulebook credits a checked face: its full name, and its copyright notice when its
    file gives one ('Cinzel Bold (Copyright 2020 The Cinzel Project Authors)')."""
    data = Path(path).read_bytes()
    tables = _tables(data) or {}
    full, notice = _name(data, tables, 4) or Path(path).stem, _name(data, tables, 0)
    return f"{full} ({notice})" if notice else full


def _name(data: bytes, tables: dict[bytes, tuple[int, int]], wanted: int) -> str:
    """A string of the name table (4: the full name, 0: the copyright notice), from its Windows
    Unicode record, else its Mac Roman one; '' when it has none."""
    offset, length = tables.get(b"name", (0, 0))
    if length < 6:
        return ""
    _, count, strings = struct.unpack(">HHH", data[offset:offset + 6])
    found = ""
    for i in range(count):
        at = offset + 6 + 12 * i
        if at + 12 > offset + length:
            break
        platform, _, _, name_id, size, start = struct.unpack(">6H", data[at:at + 12])
        if name_id != wanted:
            continue
        raw = data[offset + strings + start:offset + strings + start + size]
        if platform == 3:
            return " ".join(raw.decode("utf-16-be", "replace").split())
        if platform == 1 and not found:
            found = " ".join(raw.decode("mac_roman", "replace").split())
    return found
