"""charset.bitmaps: the project's 8x8 pictures of every screen code of both character sets."""

import pytest

from charset.bitmaps import PICTURES, bitmap, parse_drawn
from charset.glyphs import SC_LOWER, SC_UPPER

SETS = (False, True)          # set 1 (upper case and graphics), set 2 (lower and upper case)


def picture(sc, lower=False):
    """Rows of '#' and '.', for messages and readable expectations."""
    return ["".join("#" if row & (0x80 >> x) else "." for x in range(8)) for row in bitmap(sc, lower)]


@pytest.mark.parametrize("lower", SETS)
def test_every_screen_code_has_eight_rows_of_eight_pixels(lower):
    for sc in range(256):
        rows = bitmap(sc, lower)
        assert len(rows) == 8 and all(0 <= row <= 0xFF for row in rows), hex(sc)


@pytest.mark.parametrize("lower", SETS)
def test_codes_80_to_ff_are_the_inverted_pictures(lower):
    for sc in range(128):
        assert bitmap(sc | 0x80, lower) == tuple(row ^ 0xFF for row in bitmap(sc, lower))
    assert bitmap(0xA0, lower) == (0xFF,) * 8          # reversed space: a solid block


@pytest.mark.parametrize("lower", SETS)
def test_within_a_set_every_code_looks_different_but_the_two_spaces(lower):
    seen = {}
    for sc in range(128):
        seen.setdefault(bitmap(sc, lower), []).append(sc)
    assert [codes for codes in seen.values() if len(codes) > 1] == [[0x20, 0x60]]
    assert bitmap(0x20, lower) == (0,) * 8


def test_the_sets_share_what_they_share():
    for sc in range(128):
        same_character = SC_UPPER[sc] == SC_LOWER[sc]
        assert (bitmap(sc) == bitmap(sc, True)) == same_character, hex(sc)
    for letter in range(26):                   # set 2's capitals are set 1's letters
        assert bitmap(0x41 + letter, True) == bitmap(0x01 + letter)
    assert bitmap(0x01, True) != bitmap(0x01)  # a, A


def test_capitals_digits_and_signs_stand_on_rows_0_to_6_in_the_c64_manner():
    descenders = set(",;")
    for sc in list(range(0x01, 0x1B)) + list(range(0x21, 0x40)):
        if SC_UPPER[sc] not in descenders:
            assert bitmap(sc)[7] == 0, SC_UPPER[sc]
    assert bitmap(0x2C)[7] != 0                # the comma's tail


def test_the_letters_are_drawn_as_they_read():
    assert picture(0x08) == [".##..##.", ".##..##.", ".##..##.", ".######.",
                             ".##..##.", ".##..##.", ".##..##.", "........"]          # H
    assert picture(0x07, lower=True)[7] != "........"                                # g descends


def test_box_drawing_lines_reach_the_edges_they_point_to_and_join():
    horizontal, vertical, cross = bitmap(0x40), bitmap(0x5D), bitmap(0x5B)
    assert horizontal[3] == horizontal[4] == 0xFF and horizontal[0] == 0
    assert all(row == 0x18 for row in vertical)
    assert cross == tuple(h | v for h, v in zip(horizontal, vertical))
    # a horizontal line's ends meet the next cell's: same rows set in columns 0 and 7
    assert [row >> 7 for row in horizontal] == [row & 1 for row in horizontal]


def test_block_graphics_are_where_their_names_say():
    assert bitmap(0x61) == (0xF0,) * 8                     # left half block
    assert bitmap(0x62) == (0,) * 4 + (0xFF,) * 4          # lower half block
    assert bitmap(0x63) == (0xFF,) + (0,) * 7              # upper one eighth
    assert bitmap(0x64) == (0,) * 7 + (0xFF,)              # lower one eighth
    assert bitmap(0x7E) == (0xF0,) * 4 + (0,) * 4          # upper left quadrant
    assert bitmap(0x66) == (0xAA, 0x55) * 4                # medium shade: a checkerboard


def test_every_character_the_glyph_tables_use_has_a_picture():
    assert set(SC_UPPER) | set(SC_LOWER) <= set(PICTURES)


def test_a_badly_drawn_picture_is_refused():
    good = "X\n" + "\n".join(["........"] * 8)
    assert parse_drawn(good)["X"] == (0,) * 8
    for bad in ("X\n" + "\n".join(["......."] * 8), "X\n" + "\n".join(["...o...."] * 8), good + "\n" + good):
        with pytest.raises(ValueError, match="not 8 rows of 8 pixels"):
            parse_drawn(bad)
