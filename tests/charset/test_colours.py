"""charset.colours: palettes, nearest-colour search, per-depth mapping."""

import pytest

from charset import colours
from charset.colours import (
    ANSI16, COLODORE, COLOUR_NAMES, CURSES8, PEPTO_PAL, XTERM256_RGB,
    color_for_depth, delta_e, nearest_of, nearest_xterm256, petscii_colour_codes,
    rgb_to_lab, xterm256_table,
)


def test_there_are_16_named_colours_in_vic_order():
    assert len(COLOUR_NAMES) == 16 == len(set(COLOUR_NAMES))
    assert COLOUR_NAMES[0] == "black" and COLOUR_NAMES[6] == "blue" and COLOUR_NAMES[14] == "light blue"
    assert colours.LIGHT_GREY == 15 and colours.ORANGE == 8


def test_both_palettes_have_16_valid_distinct_colours():
    for palette in (PEPTO_PAL, COLODORE):
        assert len(palette) == 16 == len(set(palette))
        assert all(len(rgb) == 3 and all(0 <= v <= 255 for v in rgb) for rgb in palette)
        assert palette[0] == (0, 0, 0) and palette[1] == (255, 255, 255)


def test_palette_samples_match_ref_section_7():
    assert PEPTO_PAL[6] == (0x35, 0x28, 0x79)
    assert COLODORE[6] == (0x27, 0x24, 0xC4)
    assert COLODORE[14] == (0x68, 0x64, 0xFF)


def test_lab_of_black_and_white_are_the_ends_of_the_lightness_axis():
    assert rgb_to_lab((0, 0, 0)) == pytest.approx((0, 0, 0), abs=1e-6)
    assert rgb_to_lab((255, 255, 255)) == pytest.approx((100, 0, 0), abs=1e-3)


def test_delta_e_is_zero_for_equal_colours_and_symmetric():
    assert delta_e((10, 20, 30), (10, 20, 30)) == 0
    assert delta_e((255, 0, 0), (0, 0, 255)) == pytest.approx(delta_e((0, 0, 255), (255, 0, 0)))
    assert delta_e((0, 0, 0), (255, 255, 255)) == pytest.approx(100, abs=1e-3)


def test_nearest_of_accepts_a_sequence_or_a_mapping():
    assert nearest_of((250, 10, 10), [(0, 0, 0), (255, 0, 0), (0, 0, 255)]) == 1
    assert nearest_of((20, 20, 200), {"red": (255, 0, 0), "blue": (0, 0, 255)}) == "blue"
    with pytest.raises(ValueError):
        nearest_of((0, 0, 0), [])


def test_nearest_xterm256_finds_exact_cube_and_grey_entries():
    assert nearest_xterm256((95, 135, 175)) == 16 + 36 * 1 + 6 * 2 + 3
    assert nearest_xterm256((128, 128, 128)) == 244
    assert nearest_xterm256((0, 0, 0)) == 16   # system colours 0-15 never chosen
    assert set(XTERM256_RGB) == set(range(16, 256))


def test_xterm256_for_colodore_reproduces_the_reference_column():
    # ref 7: "nearest to VICE colodore, Delta E CIELAB"
    expected = (16, 231, 88, 80, 127, 77, 19, 227, 130, 94, 167, 238, 243, 120, 63, 145)
    assert xterm256_table(COLODORE) == expected
    assert tuple(nearest_xterm256(rgb) for rgb in COLODORE) == expected


def test_xterm256_for_pepto_gives_light_red_its_second_choice():
    assert nearest_xterm256(PEPTO_PAL[10]) == nearest_xterm256(PEPTO_PAL[2]) == 95
    expected = (16, 231, 95, 109, 97, 107, 17, 186, 94, 58, 131, 238, 242, 150, 61, 246)
    assert xterm256_table(PEPTO_PAL) == expected


def test_color_for_depth_truecolor_gives_the_palette_rgb():
    for c in range(16):
        assert color_for_depth(c, "truecolor") == COLODORE[c]
        assert color_for_depth(c, "truecolor", palette="pepto") == PEPTO_PAL[c]


def test_color_for_depth_256_gives_distinct_xterm_indices():
    for palette in ("colodore", "pepto"):
        indices = [color_for_depth(c, 256, palette) for c in range(16)]
        assert len(set(indices)) == 16
        assert all(16 <= i <= 255 for i in indices)
    assert color_for_depth(6, 256) == 19


def test_color_for_depth_16_gives_ansi_index_and_bold_for_the_bright_half():
    assert color_for_depth(0, 16) == (0, False)
    assert color_for_depth(1, 16) == (15, True)
    assert color_for_depth(9, 16) == (3, False)
    for c in range(16):
        index, bold = color_for_depth(c, 16)
        assert index == ANSI16[c] and bold == (index >= 8)


def test_color_for_depth_8_gives_curses_colour_and_bold():
    assert color_for_depth(7, 8) == (3, True)     # yellow = YELLOW + bold
    assert color_for_depth(14, 8) == (4, True)    # light blue = BLUE + bold
    assert color_for_depth(6, 8) == (4, False)
    assert all(0 <= color_for_depth(c, 8)[0] <= 7 for c in range(16))
    assert [color_for_depth(c, 8) for c in range(16)] == list(CURSES8)


def test_color_for_depth_mono_gives_none():
    assert all(color_for_depth(c, "mono") is None for c in range(16))


@pytest.mark.parametrize("args", [(16, 256), (-1, 8), (3, 24), (3, "truecolor", "cga")])
def test_color_for_depth_refuses_bad_arguments(args):
    with pytest.raises(ValueError):
        color_for_depth(*args)


def test_petscii_colour_codes_follow_the_kernal_e8da_table():
    assert petscii_colour_codes[0x90] == 0
    assert petscii_colour_codes[0x05] == 1
    assert petscii_colour_codes[0x1C] == 2
    assert petscii_colour_codes[0x9E] == 7
    assert petscii_colour_codes[0x81] == 8
    assert petscii_colour_codes[0x9B] == 15
    assert sorted(petscii_colour_codes.values()) == list(range(16))


def test_petscii_colour_codes_can_be_called_and_answer_none_for_other_codes():
    assert petscii_colour_codes(0x9A) == 14
    assert petscii_colour_codes(0x41) is None
    assert 0x0D not in petscii_colour_codes
