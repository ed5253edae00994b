"""C64 screen codes -> characters a terminal can draw, for both character sets.

Set 1 is the upper-case/graphics set (character ROM $D000, $D018 bit 1 = 0),
set 2 the lower/upper-case set ($D800, bit 1 = 1).  Screen codes $80-$FF are
codes $00-$7F in reverse video.

Three drawing modes:
  "unicode"  the exact glyphs, using Symbols for Legacy Computing (U+1FB00);
  "legacy"   the same, with the U+1FBxx glyphs swapped for look-alikes from
             the Basic Multilingual Plane, for fonts that lack that block;
  "ascii"    one printable ASCII character per code, for dumb terminals,
             headless output and tests.

Sources: SC_UPPER/SC_LOWER and the ready-made reverse glyphs follow Rebecca
Bettencourt's UNI video mapping files C64VPRI/C64VALT (docs/c64.md,
"Host-side tables"); the legacy fallbacks and the ASCII table are this
project's own choice, documented below.
"""

from __future__ import annotations

from typing import Iterable

# screen code 0..127 -> Unicode (code 128..255 = same glyph, reverse video).
# Verbatim from ref 6.2.
SC_UPPER = "@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\u00a3]\u2191\u2190 !\u0022#$%&'()*+,-./0123456789:;<=>?\u2500\u2660\U0001fb72\U0001fb78\U0001fb77\U0001fb76\U0001fb7a\U0001fb71\U0001fb74\u256e\u2570\u256f\U0001fb7c\u2572\u2571\U0001fb7d\U0001fb7e\u2022\U0001fb7b\u2665\U0001fb70\u256d\u2573\u25cb\u2663\U0001fb75\u2666\u253c\U0001fb8c\u2502\u03c0\u25e5\u00a0\u258c\u2584\u2594\u2581\u258f\u2592\u2595\U0001fb8f\u25e4\U0001fb87\u251c\u2597\u2514\u2510\u2582\u250c\u2534\u252c\u2524\u258e\u258d\U0001fb88\U0001fb82\U0001fb83\u2583\U0001fb7f\u2596\u259d\u2518\u2598\u259a"
SC_LOWER = "@abcdefghijklmnopqrstuvwxyz[\u00a3]\u2191\u2190 !\u0022#$%&'()*+,-./0123456789:;<=>?\u2500ABCDEFGHIJKLMNOPQRSTUVWXYZ\u253c\U0001fb8c\u2502\U0001fb96\U0001fb98\u00a0\u258c\u2584\u2594\u2581\u258f\u2592\u2595\U0001fb8f\U0001fb99\U0001fb87\u251c\u2597\u2514\u2510\u2582\u250c\u2534\u252c\u2524\u258e\u258d\U0001fb88\U0001fb82\U0001fb83\u2583\u2713\u2596\u259d\u2518\u2598\u259a"

# Reverse-video screen codes whose inverted glyph exists in Unicode (ref 6.3).
_REVERSE_BOTH = {
    0xDC: "\U0001fb94", 0xE0: "\u2588", 0xE1: "\u2590", 0xE2: "\u2580",
    0xE3: "\u2587", 0xE4: "\U0001fb86", 0xE5: "\U0001fb8b", 0xE6: "\U0001fb90",
    0xE7: "\u2589", 0xE8: "\U0001fb91", 0xEA: "\u258a", 0xEC: "\u259b",
    0xEF: "\U0001fb85", 0xF4: "\U0001fb8a", 0xF5: "\U0001fb89", 0xF6: "\u258b",
    0xF7: "\u2586", 0xF8: "\u2585", 0xF9: "\U0001fb84", 0xFB: "\u259c",
    0xFC: "\u2599", 0xFE: "\u259f", 0xFF: "\u259e",
}
REVERSE_UPPER = {**_REVERSE_BOTH, 0xD1: "\u25d8", 0xD7: "\u25d9", 0xDF: "\u25e3", 0xE9: "\u25e2"}
REVERSE_LOWER = {**_REVERSE_BOTH, 0xDE: "\U0001fb95", 0xFA: "\U0001fbb1"}

# U+1FBxx glyph -> look-alike in the Basic Multilingual Plane (ref 6.4
# [suggestion]); covers every U+1FBxx char in SC_UPPER and SC_LOWER.
LEGACY_FALLBACK = {
    "\U0001fb70": "\u258f", "\U0001fb71": "\u2502", "\U0001fb72": "\u2502",
    "\U0001fb74": "\u2502", "\U0001fb75": "\u2595", "\U0001fb76": "\u2594",
    "\U0001fb77": "\u2500", "\U0001fb78": "\u2500", "\U0001fb7a": "\u2500",
    "\U0001fb7b": "\u2581", "\U0001fb7c": "\u2514", "\U0001fb7d": "\u250c",
    "\U0001fb7e": "\u2510", "\U0001fb7f": "\u2518", "\U0001fb82": "\u2580",
    "\U0001fb83": "\u2580", "\U0001fb87": "\u2590", "\U0001fb88": "\u2590",
    "\U0001fb8c": "\u2592", "\U0001fb8f": "\u2592", "\U0001fb96": "\u2592",
    "\U0001fb98": "\u2592", "\U0001fb99": "\u2592",
}

# Non-ASCII glyph -> one printable ASCII char (project choice).  Lines become
# - | + / \, thin edge lines _ | -, solid or half blocks #, shades %,
# quarter blocks . and ', symbols something that reads alike.  Where the C64
# glyph has an ASCII twin on the host keyboard the same char is used
# (pound \, up-arrow ^, left-arrow ~), so that text copied from the screen
# types back the same codes through charset.keys.host_key_to_c64.
_ASCII_FOR_GLYPH = {
    "\u00a3": "\\", "\u2191": "^", "\u2190": "~", "\u00a0": " ",
    # box drawing and diagonals
    "\u2500": "-", "\u2502": "|", "\u253c": "+", "\u251c": "+", "\u2524": "+",
    "\u252c": "+", "\u2534": "+", "\u250c": "+", "\u2510": "+", "\u2514": "+",
    "\u2518": "+", "\u256d": "+", "\u256e": "+", "\u2570": "+", "\u256f": "+",
    "\u2571": "/", "\u2572": "\\", "\u2573": "x",
    # one-eighth lines at various offsets and corner pieces (U+1FB70-1FB7F)
    "\U0001fb70": "|", "\U0001fb71": "|", "\U0001fb72": "|", "\U0001fb74": "|",
    "\U0001fb75": "|", "\U0001fb76": "-", "\U0001fb77": "-", "\U0001fb78": "-",
    "\U0001fb7a": "-", "\U0001fb7b": "_", "\U0001fb7c": "+", "\U0001fb7d": "+",
    "\U0001fb7e": "+", "\U0001fb7f": "+",
    # edge lines and partial blocks
    "\u258f": "|", "\u2595": "|", "\u258e": "|", "\u258d": "|",
    "\U0001fb87": "|", "\U0001fb88": "|",
    "\u2594": "-", "\U0001fb82": "-", "\U0001fb83": "-",
    "\u2581": "_", "\u2582": "_", "\u2583": "_",
    "\u258c": "#", "\u2584": "#", "\u25e4": "#", "\u25e5": "#",
    "\u2597": ".", "\u2596": ".", "\u259d": "'", "\u2598": "'",
    # shades and hatches
    "\u2592": "%", "\U0001fb8c": "%", "\U0001fb8f": "%", "\U0001fb96": "%",
    "\u259a": "%", "\U0001fb98": "\\", "\U0001fb99": "/",
    # symbols
    "\u2660": "*", "\u2665": "*", "\u2663": "*", "\u2666": "*",
    "\u2022": "o", "\u25cb": "O", "\u03c0": "#", "\u2713": "*",
}


def _ascii_set(unicode_set: str) -> str:
    return "".join(ch if " " <= ch <= "~" else _ASCII_FOR_GLYPH[ch] for ch in unicode_set)


# screen code 0..127 -> printable ASCII, per set.
ASCII_UPPER = _ascii_set(SC_UPPER)
ASCII_LOWER = _ascii_set(SC_LOWER)

MODES = ("unicode", "legacy", "ascii")


def glyph(sc: int, lower_set: bool = False, mode: str = "unicode") -> tuple[str, bool]:
    """Character to draw for screen code *sc* (0-255) and whether the cell
    must be drawn in reverse video.

    Reverse is True for sc >= $80, except when a ready inverted glyph exists
    (ref 6.3) and the mode can show it: unicode mode uses all of them,
    legacy mode only those in the BMP, ascii mode none.
    """
    base, reverse = sc & 0x7F, sc >= 0x80
    if mode == "ascii":
        return (ASCII_LOWER if lower_set else ASCII_UPPER)[base], reverse
    if mode not in MODES:
        raise ValueError(f"unknown glyph mode {mode!r} (have {MODES})")
    if reverse:
        ready = (REVERSE_LOWER if lower_set else REVERSE_UPPER).get(sc)
        if ready is not None and (mode == "unicode" or ord(ready) < 0x10000):
            return ready, False
    ch = (SC_LOWER if lower_set else SC_UPPER)[base]
    if mode == "legacy":
        ch = LEGACY_FALLBACK.get(ch, ch)
    return ch, reverse


def screen_to_text(codes: Iterable[int], lower_set: bool = False, mode: str = "ascii") -> str:
    """A row of screen codes as plain text, reverse video ignored.

    Default ascii mode: a printed "RATON" reads "RATON", "." reads ".",
    a space " "; reversed letters read as the letters.
    """
    return "".join(glyph(sc, lower_set, mode)[0] for sc in codes)
