"""The 16 C64 colours and how to show them on a terminal of any colour depth.

Everything here is data plus two small searches (nearest xterm-256 index,
nearest of a set of candidates).  Source of the tables: VICE's palette
files (Pepto PAL = ``pepto-pal.vpl``; Colodore = ``colodore.vpl``), the
KERNAL's colour-code table at $E8DA; the ANSI-16 and curses-8 mappings are
this project's choice (docs/c64.md, "Host-side tables").

Colour distance is CIE76 Delta E in CIELAB (sRGB, D65 white): plain
Euclidean distance after converting both colours to L*a*b*.  It is cheap,
and perceptually far better than raw RGB distance for the dark,
desaturated C64 colours (brown, dark grey, blue), which RGB distance tends
to pull towards black.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Mapping, Sequence

RGB = tuple[int, int, int]

# Colour numbers as the VIC-II ($D020/$D021/colour RAM) and the KERNAL use them.
BLACK, WHITE, RED, CYAN, PURPLE, GREEN, BLUE, YELLOW = range(8)
ORANGE, BROWN, LIGHT_RED, DARK_GREY, GREY, LIGHT_GREEN, LIGHT_BLUE, LIGHT_GREY = range(8, 16)

COLOUR_NAMES = (
    "black", "white", "red", "cyan", "purple", "green", "blue", "yellow",
    "orange", "brown", "light red", "dark grey", "grey", "light green",
    "light blue", "light grey",
)


def _hex_palette(text: str) -> tuple[RGB, ...]:
    """Turn 16 'RRGGBB' words into a tuple of (r, g, b)."""
    words = text.split()
    assert len(words) == 16
    return tuple((int(w[0:2], 16), int(w[2:4], 16), int(w[4:6], 16)) for w in words)


# VICE's pepto-pal.vpl.
PEPTO_PAL = _hex_palette("""
    000000 FFFFFF 68372B 70A4B2 6F3D86 588D43 352879 B8C76F
    6F4F25 433900 9A6759 444444 6C6C6C 9AD284 6C5EB5 959595
""")

# VICE's colodore.vpl (colodore.com's own values are a differently adjusted,
# less saturated set).
COLODORE = _hex_palette("""
    000000 FFFFFF 96282E 5BD6CE 9F2DAD 41B936 2724C4 EFF347
    9F4815 5E3500 DA5F66 474747 787878 91FF84 6864FF AEAEAE
""")



def _grey_of(rgb: Sequence[int]) -> RGB:
    """The sRGB grey with the same CIELAB lightness L* as *rgb* (a* = b* = 0)."""
    lightness = _lab(tuple(rgb))[0]
    fy = (lightness + 16) / 116
    y = fy ** 3 if fy ** 3 > 216 / 24389 else (116 * fy - 16) * 27 / 24389
    value = 12.92 * y if y <= 0.0031308 else 1.055 * y ** (1 / 2.4) - 0.055
    level = max(0, min(255, round(value * 255)))
    return (level, level, level)


PALETTES: dict[str, tuple[RGB, ...]] = {"pepto": PEPTO_PAL, "colodore": COLODORE}

# The palettes a user picks by name (--palette, the config file): "vice" is
# VICE's colodore.vpl, the default; "grey" is each colodore colour at its own
# lightness (CIELAB L*), as a monochrome monitor shows the C64's luminance.
PALETTE_CHOICES = ("vice", "pepto", "grey")

# Default: Colodore.  It is Pepto's later, re-measured palette, brighter and
# more saturated, which keeps the dark colours (blue background, brown,
# dark grey) apart on a terminal; and the reference's xterm-256 column was
# computed from it, so the 256-colour and truecolor renderings agree.
DEFAULT_PALETTE = "colodore"

# Our choice for 16-colour terminals: index 0-15 of the terminal's
# 16 colours (8-15 = bright).  16 colours cannot show 16 C64 colours: brown
# shares 3 with orange, grey shares 8 with dark grey.
ANSI16 = (0, 15, 1, 6, 5, 2, 4, 11, 3, 3, 9, 8, 8, 10, 12, 7)

# Our choice for 8-colour curses: (curses colour number, bold).
# Numbers are the standard curses.COLOR_* values: BLACK 0, RED 1, GREEN 2,
# YELLOW 3, BLUE 4, MAGENTA 5, CYAN 6, WHITE 7.  Bold brightens only the
# foreground on most terminals.
CURSES8 = (
    (0, False), (7, True), (1, False), (6, False),
    (5, False), (2, False), (4, False), (3, True),
    (3, False), (1, False), (1, True), (0, True),
    (7, False), (2, True), (4, True), (7, False),
)

# KERNAL table at $E8DA (ref 2.1): the PETSCII control code that selects
# each colour, in colour order 0-15.
COLOUR_CODES = (0x90, 0x05, 0x1C, 0x9F, 0x9C, 0x1E, 0x1F, 0x9E,
                0x81, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0x9B)


class _CodeTable(dict):
    """A dict that can also be called like ``.get`` (code -> colour or None)."""

    def __call__(self, code: int) -> int | None:
        return self.get(code)


# PETSCII control code -> colour number 0-15, e.g. petscii_colour_codes[0x05] == 1.
# Usable as a mapping or called: petscii_colour_codes(0x41) is None.
petscii_colour_codes: Mapping[int, int] = _CodeTable(
    (code, colour) for colour, code in enumerate(COLOUR_CODES))
PETSCII_COLOUR_CODES = petscii_colour_codes


# --- colour distance -------------------------------------------------------

def _srgb_to_linear(c: float) -> float:
    c /= 255.0
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def rgb_to_lab(rgb: Sequence[int]) -> tuple[float, float, float]:
    """sRGB (0-255 each) -> CIELAB (L*, a*, b*), D65 reference white."""
    return _lab(tuple(int(c) for c in rgb))


@lru_cache(maxsize=1024)   # the xterm cube is converted once, not per search
def _lab(rgb: RGB) -> tuple[float, float, float]:
    r, g, b = (_srgb_to_linear(c) for c in rgb)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = (0.2126729 * r + 0.7151522 * g + 0.0721750 * b) / 1.00000
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1.0 / 3.0) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def delta_e(rgb1: Sequence[int], rgb2: Sequence[int]) -> float:
    """CIE76 colour difference between two sRGB colours."""
    l1, a1, b1 = rgb_to_lab(rgb1)
    l2, a2, b2 = rgb_to_lab(rgb2)
    return ((l1 - l2) ** 2 + (a1 - a2) ** 2 + (b1 - b2) ** 2) ** 0.5


def nearest_of(rgb: Sequence[int], candidates: Mapping | Sequence[Sequence[int]]):
    """Key of the candidate colour nearest to *rgb* (CIE76 Delta E).

    *candidates* is a mapping key -> (r, g, b) or a sequence of (r, g, b),
    whose keys are then the indices.  Ties go to the first candidate.
    """
    items: Iterable = candidates.items() if isinstance(candidates, Mapping) else enumerate(candidates)
    lab = rgb_to_lab(rgb)
    best_key, best_d = None, float("inf")
    for key, cand in items:
        l2, a2, b2 = rgb_to_lab(cand)
        d = (lab[0] - l2) ** 2 + (lab[1] - a2) ** 2 + (lab[2] - b2) ** 2
        if d < best_d:
            best_key, best_d = key, d
    if best_key is None:
        raise ValueError("nearest_of: no candidates")
    return best_key


# --- xterm-256 ---------------------------------------------------------------

def _xterm256_rgb() -> dict[int, RGB]:
    """RGB of xterm colours 16-255: the 6x6x6 cube and the 24-step grey ramp.

    Colours 0-15 are left out on purpose: their RGB is whatever the user's
    terminal theme says, so they cannot be matched reliably.
    """
    levels = (0, 95, 135, 175, 215, 255)
    table = {}
    for i in range(216):
        table[16 + i] = (levels[i // 36], levels[(i // 6) % 6], levels[i % 6])
    for i in range(24):
        v = 8 + 10 * i
        table[232 + i] = (v, v, v)
    return table


XTERM256_RGB = _xterm256_rgb()


def nearest_xterm256(rgb: Sequence[int]) -> int:
    """xterm-256 index (16-255) nearest to *rgb* (CIE76 Delta E)."""
    return nearest_of(rgb, XTERM256_RGB)


def xterm256_table(palette: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """Nearest xterm-256 index for each of the 16 colours, all distinct.

    Colours are assigned in colour-number order; a colour whose best index
    is already taken gets its next best one (ref 7: with Pepto, light red
    takes 131 because 95 is red's).
    """
    taken: list[int] = []
    for rgb in palette:
        free = {k: v for k, v in XTERM256_RGB.items() if k not in taken}
        taken.append(nearest_of(rgb, free))
    return tuple(taken)


PALETTES["vice"] = COLODORE
PALETTES["grey"] = GREY = tuple(_grey_of(rgb) for rgb in COLODORE)

# Computed once at import (a few ms).
XTERM256 = {name: xterm256_table(pal) for name, pal in PALETTES.items()}


# The grey palette on 16 and 8 colours: the nearest of the terminal's four
# greys (black 0, bright black 8, white 7, bright white 15; xterm's default
# RGB for them), and on 8 colours the same four as black/white with bold.
_ANSI_GREYS = {0: (0, 0, 0), 8: (127, 127, 127), 7: (229, 229, 229), 15: (255, 255, 255)}
ANSI16_GREY = tuple(nearest_of(rgb, _ANSI_GREYS) for rgb in GREY)
CURSES8_GREY = tuple((0 if index in (0, 8) else 7, index >= 8) for index in ANSI16_GREY)


# --- one call for the renderer ---------------------------------------------

DEPTHS = ("truecolor", 256, 16, 8, "mono")


def color_for_depth(c64_colour: int, depth, palette: str = DEFAULT_PALETTE):
    """What a renderer needs to show C64 colour 0-15 at a terminal colour depth.

    depth "truecolor" -> (r, g, b) from *palette*;
          256         -> xterm-256 index (16-255);
          16          -> (ANSI index 0-15, bold) with bold = index >= 8, for
                         terminals that show the bright half only as bold;
          8           -> (curses colour number 0-7, bold);
          "mono"      -> None (draw in the terminal's default colours).
    """
    if not 0 <= c64_colour <= 15:
        raise ValueError(f"C64 colour must be 0-15, got {c64_colour!r}")
    if palette not in PALETTES:
        raise ValueError(f"unknown palette {palette!r} (have {', '.join(PALETTES)})")
    if depth == "truecolor":
        return PALETTES[palette][c64_colour]
    if depth == 256:
        return XTERM256[palette][c64_colour]
    if depth == 16:
        index = (ANSI16_GREY if palette == "grey" else ANSI16)[c64_colour]
        return (index, index >= 8)
    if depth == 8:
        return (CURSES8_GREY if palette == "grey" else CURSES8)[c64_colour]
    if depth == "mono":
        return None
    raise ValueError(f"unknown colour depth {depth!r} (have {DEPTHS})")
