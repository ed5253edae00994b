"""Colour depth per terminal capability, the --colors override, and the terminal colour of each C64 colour."""

import pytest

from charset.colours import ANSI16, CURSES8, XTERM256
from c64.terminal.colours import CursesColours, detect_depth, terminal_colour
from c64.terminal.surface import Style
from tests.terminal.test_terminal_render import FakeCurses


@pytest.mark.parametrize("env, colours, has, platform, depth", [
    ({"COLORTERM": "truecolor"}, 256, True, "linux", "truecolor"),
    ({"COLORTERM": "24bit"}, 8, True, "darwin", "truecolor"),
    ({"COLORTERM": "truecolor"}, 256, True, "win32", 256),
    ({}, 256, True, "linux", 256),
    ({"COLORTERM": "yes"}, 88, True, "linux", 16),
    ({}, 16, True, "linux", 16),
    ({}, 8, True, "linux", 8),
    ({}, 0, False, "linux", "mono"),
    ({"NO_COLOR": "1", "COLORTERM": "truecolor"}, 256, True, "linux", "mono"),
])
def test_the_depth_follows_what_the_terminal_says(env, colours, has, platform, depth):
    assert detect_depth("auto", env, colours, has, platform) == depth


@pytest.mark.parametrize("override, depth", [("truecolor", "truecolor"), ("256", 256), ("16", 16),
                                             ("8", 8), ("mono", "mono")])
def test_colors_option_overrides_detection(override, depth):
    assert detect_depth(override, {"COLORTERM": "truecolor"}, 256, True, "linux") == depth
    assert detect_depth(override, {}, 0, False, "linux") == depth


def test_an_unknown_colors_value_is_an_error():
    with pytest.raises(ValueError):
        detect_depth("4096", {}, 256, True, "linux")


def test_256_colours_use_the_nearest_xterm_index_of_each_c64_colour():
    table = XTERM256["colodore"]
    assert [terminal_colour(c, 256, True)[0] for c in range(16)] == list(table)
    assert len(set(table)) == 16


def test_16_colours_use_the_ansi_indices_without_bold():
    assert [terminal_colour(c, 16, True) for c in range(16)] == [(i, False) for i in ANSI16]


def test_8_colours_brighten_foregrounds_with_bold_but_never_backgrounds():
    assert terminal_colour(1, 8, True) == (7, True)           # white = bright white foreground
    assert terminal_colour(1, 8, False) == (7, False)
    assert [terminal_colour(c, 8, True)[0] for c in range(16)] == [n for n, _ in CURSES8]


def test_8_colour_attributes_carry_bold_for_a_bright_foreground():
    fake = FakeCurses(64)
    attr = CursesColours(fake, 8).attr(Style(7, 6, False))     # yellow on blue
    assert attr & FakeCurses.A_BOLD
    assert fake.pairs[attr >> 8 & 0xFF] == (3, 4)


def test_mono_draws_reverse_cells_with_the_reverse_attribute_only():
    colours = CursesColours(FakeCurses(), "mono")
    assert colours.attr(Style(6, 14, True)) == FakeCurses.A_REVERSE
    assert colours.attr(Style(14, 6, False)) == 0


def test_running_out_of_colour_pairs_falls_back_to_the_default_pair():
    fake = FakeCurses(colour_pairs=4)
    colours = CursesColours(fake, 256)
    attrs = [colours.attr(Style(fg, 6, False)) for fg in range(6)]
    assert attrs[:3] == [1 << 8, 2 << 8, 3 << 8]
    assert attrs[3:] == [0, 0, 0]


def test_terminal_default_colours_are_asked_for_as_minus_one():
    fake = FakeCurses()
    colours = CursesColours(fake, 256)
    attr = colours.attr(Style(1, None, False))
    assert fake.pairs[attr >> 8] == (XTERM256["colodore"][1], -1)
