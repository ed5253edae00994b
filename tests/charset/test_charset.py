"""charset.petscii and charset.glyphs: PETSCII <-> screen codes, and glyphs."""

import unicodedata

import pytest

from charset.glyphs import (
    ASCII_LOWER, ASCII_UPPER, LEGACY_FALLBACK, REVERSE_LOWER, REVERSE_UPPER,
    SC_LOWER, SC_UPPER, glyph, screen_to_text,
)
from charset.petscii import (
    PETSCII_TO_SCREEN, SCREEN_TO_PETSCII, is_control, petscii_to_screen,
    quote_mode_screen, screen_to_petscii, screen_to_petscii_canonical,
)

CONTROL = [c for c in range(256) if (c & 0x7F) < 0x20]
PRINTABLE = [c for c in range(256) if (c & 0x7F) >= 0x20]


# --- petscii_to_screen (ref 2.3) ---------------------------------------------

@pytest.mark.parametrize("first, last, sc_first", [
    (0x20, 0x3F, 0x20), (0x40, 0x5F, 0x00), (0x60, 0x7F, 0x40),
    (0xA0, 0xBF, 0x60), (0xC0, 0xDF, 0x40), (0xE0, 0xFE, 0x60),
])
def test_printable_petscii_ranges_map_to_the_screen_codes_of_ref_2_3(first, last, sc_first):
    for offset, code in enumerate(range(first, last + 1)):
        assert petscii_to_screen(code) == sc_first + offset, hex(code)


def test_petscii_ff_prints_as_pi_screen_code_5e():
    assert petscii_to_screen(0xFF) == 0x5E
    assert petscii_to_screen(0xDE) == 0x5E


def test_control_codes_have_no_screen_code():
    assert len(CONTROL) == 64
    for code in CONTROL:
        assert is_control(code)
        assert petscii_to_screen(code) is None, hex(code)


def test_every_printable_code_gives_a_screen_code_below_80():
    for code in PRINTABLE:
        assert 0 <= petscii_to_screen(code) < 0x80
    assert len(PETSCII_TO_SCREEN) == 256


def test_letters_print_as_screen_codes_1_to_26():
    assert [petscii_to_screen(ord(c)) for c in "RATON"] == [0x12, 0x01, 0x14, 0x0F, 0x0E]


# --- screen_to_petscii (ref 2.6) -----------------------------------------------

@pytest.mark.parametrize("sc, expected", [
    (0x00, 0x40), (0x01, 0x41), (0x1F, 0x5F), (0x20, 0x20), (0x3F, 0x3F),
    (0x40, 0xC0), (0x41, 0xC1), (0x5D, 0xDD), (0x5E, 0xFF), (0x5F, 0xDF),
    (0x60, 0xA0), (0x7F, 0xBF),
])
def test_chrin_reads_back_the_petscii_of_ref_2_6(sc, expected):
    assert screen_to_petscii(sc) == expected
    assert screen_to_petscii(sc | 0x80) == expected   # reverse ignored outside quotes


def test_chrin_returns_pi_as_ff_never_de():
    assert 0xDE not in SCREEN_TO_PETSCII
    assert screen_to_petscii(0xDE) == 0xFF


def test_screen_code_survives_a_chrin_then_chrout_round_trip_for_all_256():
    for sc in range(256):
        assert petscii_to_screen(screen_to_petscii(sc)) == sc & 0x7F, hex(sc)


def test_printable_petscii_survives_chrout_chrin_chrout_for_all_printables():
    for code in PRINTABLE:
        sc = petscii_to_screen(code)
        assert petscii_to_screen(screen_to_petscii(sc)) == sc, hex(code)


def test_chrin_gives_the_keyboard_code_for_typed_keys():
    # keys give $41-$5A / $C1-$DA / $20-$3F; CHRIN must return those exact codes
    for code in list(range(0x20, 0x60)) + list(range(0xC1, 0xDB)):
        assert screen_to_petscii(petscii_to_screen(code)) == code, hex(code)


def test_canonical_inverse_picks_the_prg_appendix_codes():
    assert screen_to_petscii_canonical(0x00) == 0x40
    assert screen_to_petscii_canonical(0x20) == 0x20
    assert screen_to_petscii_canonical(0x41) == 0x61
    assert screen_to_petscii_canonical(0x5E) == 0x7E
    assert screen_to_petscii_canonical(0x60) == 0xA0
    assert screen_to_petscii_canonical(0x7F) == 0xBF
    assert screen_to_petscii_canonical(0xC1) == 0x61


def test_canonical_inverse_round_trips_every_screen_code():
    for sc in range(256):
        code = screen_to_petscii_canonical(sc)
        assert not is_control(code)
        assert petscii_to_screen(code) == sc & 0x7F, hex(sc)


# --- quote mode (ref 2.2) ----------------------------------------------------------

@pytest.mark.parametrize("code, sc", [
    (0x05, 0x85),   # white -> reverse E
    (0x93, 0xD3),   # CLR -> reverse heart
    (0x11, 0x91),   # cursor down -> reverse Q
    (0x14, 0x94),   # DEL (insert mode)
    (0x94, 0xD4),   # INST
    (0x9E, 0xDE),   # yellow -> reverse pi
    (0x00, 0x80),
    (0x9F, 0xDF),
])
def test_control_code_in_quote_mode_shows_its_reverse_glyph(code, sc):
    assert quote_mode_screen(code) == sc


def test_quote_mode_glyphs_read_back_as_the_control_codes_inside_quotes():
    for code in CONTROL:
        sc = quote_mode_screen(code)
        assert sc >= 0x80
        assert screen_to_petscii(sc, in_quotes=True) == code, hex(code)


def test_quote_mode_screen_is_none_for_printable_codes():
    assert all(quote_mode_screen(code) is None for code in PRINTABLE)


def test_outside_quotes_reversed_letters_read_back_as_letters():
    assert screen_to_petscii(0x85) == 0x45
    assert screen_to_petscii(0x85, in_quotes=True) == 0x05


# --- glyph tables (ref 6.2-6.4) ------------------------------------------------------

def _is_single_width(ch):
    return (unicodedata.east_asian_width(ch) not in ("W", "F")
            and not unicodedata.combining(ch)
            and unicodedata.category(ch) not in ("Cc", "Cf", "Mn", "Me", "Cn"))


def test_both_unicode_sets_have_128_single_width_assigned_glyphs():
    for table in (SC_UPPER, SC_LOWER):
        assert len(table) == 128
        for ch in table:
            assert unicodedata.name(ch, None) is not None, hex(ord(ch))
            assert _is_single_width(ch), hex(ord(ch))


def test_sets_differ_only_where_ref_6_2_says():
    differ = {i for i in range(128) if SC_UPPER[i] != SC_LOWER[i]}
    expected = set(range(0x01, 0x1B)) | set(range(0x41, 0x5B)) | {0x5E, 0x5F, 0x69, 0x7A}
    assert differ == expected


@pytest.mark.parametrize("sc, lower, char", [
    (0x41, False, "\u2660"),      # spade
    (0x5E, False, "\u03c0"),      # pi
    (0x01, False, "A"),
    (0x01, True, "a"),
    (0x41, True, "A"),
    (0x53, False, "\u2665"),      # heart
    (0x5E, True, "\U0001fb96"),   # inverse checker board in set 2
    (0x7A, True, "\u2713"),       # check mark
    (0x20, False, " "),
    (0x2E, True, "."),
])
def test_known_glyph_samples(sc, lower, char):
    assert glyph(sc, lower) == (char, False)


def test_every_screen_code_in_every_mode_gives_one_single_width_char():
    for mode in ("unicode", "legacy", "ascii"):
        for lower in (False, True):
            for sc in range(256):
                ch, reverse = glyph(sc, lower, mode)
                assert len(ch) == 1 and _is_single_width(ch), (mode, lower, hex(sc))
                assert isinstance(reverse, bool)


def test_codes_80_to_ff_are_drawn_reversed_unless_a_ready_glyph_exists():
    for lower, ready in ((False, REVERSE_UPPER), (True, REVERSE_LOWER)):
        table = SC_LOWER if lower else SC_UPPER
        for sc in range(0x80, 0x100):
            if sc in ready:
                assert glyph(sc, lower) == (ready[sc], False)
            else:
                assert glyph(sc, lower) == (table[sc & 0x7F], True)
        for sc in range(0x80):
            assert glyph(sc, lower)[1] is False


def test_reverse_shifted_space_is_a_full_block_in_unicode_and_reverse_space_in_ascii():
    assert glyph(0xE0) == ("\u2588", False)
    assert glyph(0xE0, mode="ascii") == (" ", True)
    assert glyph(0xA0) == (" ", True)   # reverse plain space: no ready glyph in ref 6.3


def test_ready_reverse_glyphs_follow_ref_6_3_set_differences():
    assert glyph(0xD1, False) == ("\u25d8", False)   # inverse bullet, set 1 only
    assert glyph(0xD1, True) == ("Q", True)          # set 2: reversed Q
    assert glyph(0xFA, True) == ("\U0001fbb1", False)
    assert glyph(0xFA, False)[1] is True


def test_legacy_fallback_contains_only_bmp_chars_and_covers_every_astral_glyph():
    assert all(ord(v) < 0x10000 for v in LEGACY_FALLBACK.values())
    astral = {ch for ch in SC_UPPER + SC_LOWER if ord(ch) >= 0x10000}
    assert astral == set(LEGACY_FALLBACK)


def test_legacy_mode_never_draws_outside_the_bmp():
    for lower in (False, True):
        for sc in range(256):
            ch, _ = glyph(sc, lower, "legacy")
            assert ord(ch) < 0x10000, hex(sc)
    assert glyph(0x42, mode="legacy") == ("\u2502", False)   # U+1FB72 -> light vertical
    assert glyph(0xE0, mode="legacy") == ("\u2588", False)   # BMP ready glyph kept
    assert glyph(0xE4, mode="legacy") == ("\u2581", True)    # astral ready glyph: base + reverse


def test_ascii_tables_are_printable_ascii_for_both_sets():
    for table in (ASCII_UPPER, ASCII_LOWER):
        assert len(table) == 128
        assert all(" " <= ch <= "~" for ch in table)


def test_ascii_tables_keep_letters_digits_and_punctuation_as_themselves():
    for sc in range(0x20, 0x40):
        assert ASCII_UPPER[sc] == ASCII_LOWER[sc] == chr(sc)
    assert ASCII_UPPER[0x01:0x1B] == "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    assert ASCII_LOWER[0x01:0x1B] == "abcdefghijklmnopqrstuvwxyz"
    assert ASCII_LOWER[0x41:0x5B] == "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    assert ASCII_UPPER[0x40] == "-" and ASCII_UPPER[0x5D] == "|" and ASCII_UPPER[0x5B] == "+"


def test_unknown_glyph_mode_is_refused():
    with pytest.raises(ValueError, match="mode"):
        glyph(0x01, mode="braille")


# --- screen_to_text ------------------------------------------------------------------

def _printed(text):
    return [petscii_to_screen(ord(c)) for c in text]


def test_printed_text_reads_back_as_the_same_text():
    assert screen_to_text(_printed("RATON Y GATOS. 1-0?")) == "RATON Y GATOS. 1-0?"


def test_screen_to_text_ignores_reverse_video():
    assert screen_to_text([sc | 0x80 for sc in _printed("RVS")]) == "RVS"


def test_screen_to_text_in_lower_set_shows_lower_case():
    assert screen_to_text(_printed("HELLO"), lower_set=True) == "hello"
    assert screen_to_text([0x48, 0x09], lower_set=True) == "Hi"


def test_screen_to_text_of_graphics_uses_the_ascii_fallbacks():
    assert screen_to_text([0x70, 0x40, 0x6E, 0x5D, 0x20, 0x5D, 0x6D, 0x40, 0x7D]) == "+-+| |+-+"
    assert screen_to_text([0x41, 0x5E]) == "*#"
