"""Terminal colour capability: which depth to draw in, and C64 colour -> terminal colour.

Depths, best first: "truecolor" (exact RGB), 256 (xterm-256 index), 16
(the terminal's ANSI colours), 8 (curses' eight, with bold for the bright
foregrounds) and "mono" (the terminal's own colours plus reverse video).

Detection (``detect_depth``): ``--colors`` wins; ``NO_COLOR`` set means
mono; ``COLORTERM=truecolor`` or ``24bit`` means truecolor (not on Windows,
where the console is driven through PDCurses only); otherwise what curses
reports in ``curses.COLORS``; a terminal without colours is mono.

How truecolor is drawn: curses has no 24-bit colour model (only palette
slots, and changing those with init_color repaints the user's terminal
palette).  So in truecolor the screen is written with SGR 38;2;r;g;b /
48;2;r;g;b sequences by ``surface.AnsiSurface``, and curses is used only
for the keyboard, the terminal mode and the window size.  Every other depth
draws through curses colour pairs (``CursesColours``).

The colour tables themselves (palettes, xterm-256 and ANSI indices) live
in ``charset.colours``; this module only picks among them.
"""

import os
import sys

from charset.colours import DEFAULT_PALETTE, color_for_depth

DEPTH_CHOICES = {"truecolor": "truecolor", "256": 256, "16": 16, "8": 8, "mono": "mono"}


def detect_depth(override="auto", env=None, curses_colours=0, has_colours=True, platform=None):
    """The colour depth to draw in.

    override: the --colors value ("auto", "truecolor", "256", "16", "8", "mono").
    env: the environment (COLORTERM, NO_COLOR); curses_colours: curses.COLORS;
    has_colours: curses.has_colors(); platform: sys.platform.
    """
    if override not in (None, "auto"):
        try:
            return DEPTH_CHOICES[str(override)]
        except KeyError:
            raise ValueError("unknown --colors value %r (have auto, %s)"
                             % (override, ", ".join(DEPTH_CHOICES))) from None
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    if env.get("NO_COLOR"):
        return "mono"
    if env.get("COLORTERM", "").lower() in ("truecolor", "24bit") and platform != "win32":
        return "truecolor"
    if not has_colours:
        return "mono"
    if curses_colours >= 256:
        return 256
    if curses_colours >= 16:
        return 16
    if curses_colours >= 8:
        return 8
    return "mono"


def terminal_colour(c64_colour, depth, foreground, palette=DEFAULT_PALETTE):
    """C64 colour 0-15 -> (terminal colour number, bold) for the curses depths.

    For 16 and 8 colours the bright variant of a foreground is shown with
    bold where the index is 8-15 and the terminal lacks those (8 colours);
    backgrounds get no bold (terminals do not brighten backgrounds for it).
    """
    spec = color_for_depth(c64_colour, depth, palette)
    if depth == 256:
        return spec, False
    index, bold = spec
    if depth == 16:
        return index, False          # COLORS >= 16: the bright half is addressable directly
    return index, bold and foreground


class CursesColours:
    """C64 (fg, bg) -> curses attribute, with colour pairs allocated on first use.

    curses_module: the curses module (or a stand-in with color_pair, init_pair,
    A_BOLD, A_REVERSE, COLOR_PAIRS, error).  depth: 256, 16, 8 or "mono".
    palette: a charset.colours palette name ("vice", "pepto", "grey").
    """

    def __init__(self, curses_module, depth, palette=DEFAULT_PALETTE):
        self.curses = curses_module
        self.depth = depth
        self.palette = palette
        self.pairs = {}
        self.max_pairs = getattr(curses_module, "COLOR_PAIRS", 0) if depth != "mono" else 0

    def attr(self, style):
        """Attribute for a Style (fg, bg: C64 colours or None for the terminal's; reverse)."""
        curses = self.curses
        if self.depth == "mono":
            return curses.A_REVERSE if style.reverse else 0
        fg, bold = (-1, False) if style.fg is None else terminal_colour(style.fg, self.depth, True, self.palette)
        bg = -1 if style.bg is None else terminal_colour(style.bg, self.depth, False, self.palette)[0]
        if style.fg is None and style.bg is None:
            return curses.A_REVERSE if style.reverse else 0
        pair = self._pair(fg, bg)
        return curses.color_pair(pair) | (curses.A_BOLD if bold else 0)

    def _pair(self, fg, bg):
        key = (fg, bg)
        pair = self.pairs.get(key)
        if pair is None:
            pair = len(self.pairs) + 1           # pair 0 is the terminal's default, fixed
            if pair >= self.max_pairs:
                return 0                          # out of pairs: default colours, still readable
            try:
                self.curses.init_pair(pair, fg, bg)
            except self.curses.error:
                return 0                          # e.g. --colors 256 on an 8-colour terminal
            self.pairs[key] = pair
        return pair


def rgb(c64_colour, palette=DEFAULT_PALETTE):
    """Exact (r, g, b) of a C64 colour, for the truecolor surface."""
    return color_for_depth(c64_colour, "truecolor", palette)
