"""RGB to CMYK for a print shop that asks for CMYK (DriveThruCards): through a real CMYK ICC
profile with LittleCMS (Pillow's ImageCms), total ink kept within the shop's limit.

The faces are drawn in sRGB. LittleCMS separates each colour for the press the profile
describes (shops.yaml names it: Ghostscript's SWOP profile, a US web-offset press on coated
paper, whose separations reach 300 % of ink), relative colorimetric: a colour the press can
print keeps its measured colour, and one beyond it (the screen's deepest purples and blacks:
the press's black is L* 16.5) becomes the nearest it prints. Without black point compensation:
with it, every dark colour of the cards' flat designs printed lighter (the purple border L* 26
instead of 21; screen: 16), for shadow detail that flat colours do not have.

Where a separation passes the shop's total ink (`max_ink`), it is made again with the same
colour and less ink: grey taken out of C, M and Y and put back as black (GCR), choosing the mix
whose colour, as the profile prints it, is nearest the separation's (the purple border: 1.3
CIE76 from it at 236 %, where scaling C, M and Y down alone is 4.8). That search is done once
for the nodes of a 33 x 33 x 33 table of sRGB (one or two seconds), and each picture goes through
the table (Pillow's Color3DLUT, trilinear): a mix of nodes within the limit is within it too,
and the table is within 0.2 CIEDE2000 on average of LittleCMS's own separation elsewhere.

Pillow ships no CMYK profile. The profile is found by its file name in the folders where
Ghostscript's are installed (Debian's `libgs-common`: /usr/share/color/icc/ghostscript/), or
given by path in SPELLPRESS_CMYK_PROFILE (a print shop's own profile, say); its SHA-256 joins
the key of every picture converted with it.
"""

from __future__ import annotations

import functools
import glob
import hashlib
import io
import os
from pathlib import Path

from PIL import Image, ImageCms, ImageFilter, features

from ...core import Problem, ValidationFailed
from ..model.shops import Shop

SEPARATION_VERSION = "icc-gcr-1"  # joins the key of every CMYK picture: bump when the conversion changes
ENV = "SPELLPRESS_CMYK_PROFILE"
GRID = 33  # nodes of the table on each axis of sRGB: every 8th level
# JPEG compression moves each channel a little (ringing beside sharp edges): the table keeps
# this much below the limit, so that no pixel of the JPEG passes it (at quality 100, as
# shopfiles.py writes them, the 349 faces of the five games came back at 237.7 % at most)
JPEG_MARGIN = 4  # per cent of total ink
# Where Ghostscript's profiles are: Debian and Ubuntu (libgs-common), then Ghostscript's own
# share folder (a build from source, Homebrew, MacPorts).
FOLDERS = ("/usr/share/color/icc/ghostscript", "/usr/local/share/color/icc/ghostscript",
           "/usr/share/ghostscript/*/iccprofiles", "/usr/local/share/ghostscript/*/iccprofiles",
           "/opt/homebrew/share/ghostscript/*/iccprofiles", "/opt/local/share/ghostscript/*/iccprofiles")
INSTALL = "on Debian or Ubuntu: sudo apt-get install libgs-common; elsewhere it is in Ghostscript's iccprofiles folder"


def profile_path(shop: Shop) -> Path:
    """The CMYK profile the shop's pictures are separated for; ValidationFailed if there is none."""
    given = os.environ.get(ENV, "")
    if given:
        path = Path(given).expanduser()
        if not path.is_file():
            raise _missing(shop, f"{ENV} names {path}, which is not a file")
    else:
        found = [Path(p) for folder in FOLDERS for p in sorted(glob.glob(os.path.join(folder, shop.profile)))]
        if not found:
            raise _missing(shop, f"its CMYK profile, {shop.profile} (Ghostscript's), is not installed ({INSTALL}), "
                                 f"and {ENV} names no other")
        path = found[0]
    try:
        profile = ImageCms.getOpenProfile(str(path))
    except (OSError, ImageCms.PyCMSError):
        raise _missing(shop, f"{path} is not an ICC profile") from None
    if profile.profile.xcolor_space.strip() != "CMYK":
        raise _missing(shop, f"{path} is a profile of {profile.profile.xcolor_space.strip()}, not of CMYK")
    return path


def _missing(shop: Shop, why: str) -> ValidationFailed:
    return ValidationFailed([Problem("", 0, 0, "", f"cannot make {shop.name}'s CMYK files: {why}")])


def fingerprint(shop: Shop) -> str:
    """What of the conversion shapes a picture: its version, the profile's bytes, LittleCMS's."""
    return f"{SEPARATION_VERSION}:{_digest(profile_path(shop))}:{features.version('littlecms2')}:{shop.max_ink}"


def _digest(path: Path) -> str:
    found = path.stat()
    return _hashed(str(path), found.st_mtime_ns, found.st_size)


@functools.lru_cache(maxsize=8)
def _hashed(path: str, mtime_ns: int, size: int) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def separate(image: Image.Image, shop: Shop) -> Image.Image:
    """The sRGB picture in CMYK for the shop's press, within its total ink."""
    return image.convert("RGB").filter(warm(shop))


def warm(shop: Shop) -> ImageFilter.Color3DLUT:
    """The shop's separation table, made once a process (a build makes it before its workers fork)."""
    path = profile_path(shop)
    return _table(str(path), _digest(path), shop.max_ink - JPEG_MARGIN)


# -- the table


_INTENT = ImageCms.Intent.RELATIVE_COLORIMETRIC
_SIGNED = bytes(v ^ 0x80 for v in range(256))  # a two's complement byte to the same number + 128


@functools.lru_cache(maxsize=2)
def _table(path: str, digest: str, limit: int) -> ImageFilter.Color3DLUT:
    """sRGB -> CMYK at GRID**3 nodes (red varying fastest, as Color3DLUT reads them), each
    within `limit` per cent of total ink; `digest`: the profile's, so that a profile replaced
    under a long-lived builder (the resident one) is read again."""
    profile = ImageCms.ImageCmsProfile(io.BytesIO(Path(path).read_bytes()))
    srgb = ImageCms.createProfile("sRGB")
    to_cmyk = ImageCms.buildTransform(srgb, profile, "RGB", "CMYK", _INTENT)
    to_lab = ImageCms.buildTransform(profile, ImageCms.createProfile("LAB", 5000), "CMYK", "LAB", _INTENT)
    levels = [round(i * 255 / (GRID - 1)) for i in range(GRID)]
    nodes = Image.new("RGB", (GRID ** 3, 1))
    nodes.putdata([(r, g, b) for b in levels for g in levels for r in levels])
    data = to_cmyk.apply(nodes).tobytes()
    inks = [tuple(v / 255 for v in data[i:i + 4]) for i in range(0, len(data), 4)]
    most = limit / 100
    over = [i for i, ink in enumerate(inks) if sum(ink) > most]
    if over:
        for i, ink in zip(over, _within(to_lab, [inks[i] for i in over], most)):
            inks[i] = ink
    return ImageFilter.Color3DLUT(GRID, [v for ink in inks for v in ink], channels=4, target_mode="CMYK")


def _within(to_lab: ImageCms.ImageCmsTransform, inks: list[tuple[float, ...]], most: float) -> list[tuple[float, ...]]:
    """For each separation over `most` (a fraction: 2.36 is 236 %), the mix within it whose
    colour as the profile prints it is nearest: searched over how much of the grey in C, M and Y
    is taken out (`a`, a fraction of min(C, M, Y)) and how much black is added (`f`, a fraction of
    what K lacks of 100 %), C, M and Y scaled down if still over; coarse, then finer around the best."""

    def mix(ink, a, f):
        c, m, y, k = ink
        grey = a * min(c, m, y)
        k2 = k + f * (1 - k)
        c, m, y = c - grey, m - grey, y - grey
        if c + m + y + k2 > most:
            scale = max(0.0, most - k2) / (c + m + y)
            c, m, y = c * scale, m * scale, y * scale
        return c, m, y, k2

    def lab(mixes) -> bytearray:  # L, a, b a byte each (L: 0-255 for 0-100; a, b: +128)
        data = bytes(int(v * 255 + 0.5) for mix in mixes for v in mix)
        out = bytearray(to_lab.apply(Image.frombytes("CMYK", (len(mixes), 1), data)).tobytes())
        out[1::3], out[2::3] = out[1::3].translate(_SIGNED), out[2::3].translate(_SIGNED)  # a, b come as -128..127
        return out

    def best(targets: bytearray, choices) -> list[tuple[float, float]]:
        """The nearest choice for each ink: choices[i] is a list of (a, f)."""
        colours, at, chosen = lab([mix(ink, a, f) for ink, options in zip(inks, choices) for a, f in options]), 0, []
        for i, options in enumerate(choices):
            L, a, b = targets[3 * i:3 * i + 3]
            far = [((colours[j] - L) * 100 / 255) ** 2 + (colours[j + 1] - a) ** 2 + (colours[j + 2] - b) ** 2
                   for j in range(3 * at, 3 * (at + len(options)), 3)]
            chosen.append(options[far.index(min(far))])
            at += len(options)
        return chosen

    targets = lab(inks)
    coarse = [(a / 4, f / 10) for a in range(5) for f in range(11)]
    first = best(targets, [coarse] * len(inks))
    fine = [[(min(1.0, max(0.0, a + da / 40)), min(1.0, max(0.0, f + df / 100))) for da in range(-4, 5, 2) for df in range(-4, 5, 2)]
            for a, f in first]
    return [mix(ink, a, f) for ink, (a, f) in zip(inks, best(targets, fine))]
