"""A PDF kept with holes where its forms go: after an edit to a card, its sheets (and the
rulebooks that show it) are the kept file with the new forms put in, not laid out, drawn and
written again.

A face's form whose drawing pdf.define_form caches (and a rulebook's card figure, likewise) is
a stream of operators that names no resource of its document, and the pages place it by name:
nothing else in the file depends on what it draws. The rest of the file, the skeleton, depends
only on what its key holds (kinds._sheet_pdfs, rulebook.skeleton_key): the file's settings and
content, with each hole's size but not what it draws, the fonts, the PDF libraries and the
code that writes it. A skeleton is kept only if filling it with the very forms it was made
with gives back the file byte for byte.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from pathlib import Path

MAGIC = b"%spellpress skeleton 1\n"
STREAM_END = b"endstream\nendobj\n"  # after a form's data, as reportlab ends a stream object


@functools.cache
def code_version(writers: tuple[str, ...] = ("sheets.py",)) -> str:
    """The code that writes a PDF (`writers`, and what draws its faces and forms), as it is on
    disk: a skeleton made by other code is not this code's."""
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for name in (*writers, "pdf.py", "rlinternals.py", "skeleton.py", "fonts.py", "papers.py", "edges.py"):
        digest.update((here / name).read_bytes())
    return digest.hexdigest()


def make(data: bytes, objects: list[tuple[str | None, int]], holes: dict[str, bytes]) -> bytes | None:
    """The skeleton of the PDF `data`, whose indirect objects are `objects` (rlinternals.saved_objects),
    with a hole for each form named in `holes` (name -> the compressed stream it holds); None if
    the file is not laid out as expected."""
    if not objects:
        return None
    end = data.rfind(b"startxref\n")
    xref = int(data[end + len(b"startxref\n"):].split(b"\n", 1)[0])
    trailer = data[data.index(b"trailer\n", xref):end + len(b"startxref\n")]
    header = data[:objects[0][1]]
    parts: list[list] = []
    blobs = [header]
    for (form, start), stop in zip(objects, [at for _, at in objects[1:]] + [xref]):
        obj = data[start:stop]
        stream = holes.get(form) if form is not None else None
        length = b"/Length %d " % len(stream) if stream is not None else b""
        if stream is None or not obj.endswith(stream + STREAM_END) or obj.count(length) != 1:
            parts.append([len(obj)])
            blobs.append(obj)
            continue
        before, after = obj[:len(obj) - len(stream) - len(STREAM_END)].split(length)
        parts.append([len(before), len(after), form])
        blobs += [before, after]
    blobs.append(trailer)
    index = json.dumps({"header": len(header), "objects": parts, "trailer": len(trailer)}).encode()
    kept = MAGIC + index + b"\n" + b"".join(blobs)
    return kept if fill(kept, holes.__getitem__) == data else None


def fill(kept: bytes, stream: Callable[[str], bytes]) -> bytes:
    """The PDF of the skeleton `kept`, each hole filled with `stream(form name)`, its
    cross-reference table made for the new offsets; ValueError if `kept` is damaged."""
    if not kept.startswith(MAGIC):
        raise ValueError("not a skeleton")
    start = kept.index(b"\n", len(MAGIC))
    index = json.loads(kept[len(MAGIC):start])
    at = start + 1

    def take(n: int) -> bytes:
        nonlocal at
        if at + n > len(kept):
            raise ValueError("a damaged skeleton")
        at += n
        return kept[at - n:at]

    out = [take(index["header"])]
    pos, offsets = len(out[0]), []
    for part in index["objects"]:
        offsets.append(pos)
        if len(part) == 1:
            chunk = [take(part[0])]
        else:
            data = stream(part[2])
            chunk = [take(part[0]), b"/Length %d " % len(data), take(part[1]), data, STREAM_END]
        out += chunk
        pos += sum(map(len, chunk))
    xref = [f"xref\n0 {len(offsets) + 1}\n0000000000 65535 f \n", *(f"{o:010d} 00000 n \n" for o in offsets)]
    out += ["".join(xref).encode(), take(index["trailer"]), b"%d\n%%%%EOF\n" % pos]
    if at != len(kept):
        raise ValueError("a damaged skeleton")
    return b"".join(out)
