"""charset.keys: petcat-style key text and host (curses) key mapping."""

import curses
import types

import pytest

from charset.keys import (
    CTRL, HOST_KEYS, KEY_NAMES, KEYBOARD, RESTORE, KeyParseError, build_host_keymap,
    format_keys, host_key_to_c64, key_name, parse_keys,
)
from charset.petscii import petscii_to_screen


# --- parse_keys: plain characters --------------------------------------------

def test_lower_and_upper_case_letters_both_give_unshifted_letter_codes():
    assert parse_keys("n{return}") == [0x4E, 0x0D]
    assert parse_keys("N{return}") == [0x4E, 0x0D]
    assert parse_keys("azAZ") == [0x41, 0x5A, 0x41, 0x5A]


def test_digits_space_and_punctuation_are_themselves():
    text = " !\"#$%&'()*+,-./0123456789:;<=>?@[]"
    assert parse_keys(text) == [ord(c) for c in text]


def test_c64_specific_characters_map_to_their_keys():
    assert parse_keys("\u00a3\\^~\u2191\u2190\u03c0") == [0x5C, 0x5C, 0x5E, 0x5F, 0x5E, 0x5F, 0xDE]


def test_newlines_are_return_and_crlf_counts_once():
    assert parse_keys("1\n2\r\n3\r") == [0x31, 0x0D, 0x32, 0x0D, 0x33, 0x0D]


def test_empty_text_gives_no_keys():
    assert parse_keys("") == []


# --- parse_keys: brace names -----------------------------------------------------

@pytest.mark.parametrize("name, code", [
    ("return", 0x0D), ("shift-return", 0x8D), ("down", 0x11), ("up", 0x91),
    ("left", 0x9D), ("right", 0x1D), ("home", 0x13), ("clr", 0x93),
    ("del", 0x14), ("inst", 0x94), ("stop", 0x03), ("run", 0x83),
    ("f1", 0x85), ("f2", 0x89), ("f3", 0x86), ("f4", 0x8A),
    ("f5", 0x87), ("f6", 0x8B), ("f7", 0x88), ("f8", 0x8C),
    ("blk", 0x90), ("wht", 0x05), ("red", 0x1C), ("cyn", 0x9F),
    ("pur", 0x9C), ("grn", 0x1E), ("blu", 0x1F), ("yel", 0x9E),
    ("orng", 0x81), ("brn", 0x95), ("lred", 0x96), ("gry1", 0x97),
    ("gry2", 0x98), ("lgrn", 0x99), ("lblu", 0x9A), ("gry3", 0x9B),
    ("rvs on", 0x12), ("rvon", 0x12), ("rvs off", 0x92), ("rvof", 0x92),
    ("space", 0x20), ("pi", 0xDE), ("lower", 0x0E), ("upper", 0x8E),
])
def test_brace_name_gives_its_petscii_code(name, code):
    assert parse_keys("{" + name + "}") == [code]


def test_restore_is_an_event_string_not_a_byte():
    assert parse_keys("{restore}") == ["restore"] == [RESTORE]


def test_ctrl_alone_is_a_held_key_not_a_byte_and_ctrl_x_is_still_the_ctrl_column():
    assert parse_keys("{ctrl}{2 ctrl}") == ["ctrl"] * 3 == [CTRL] * 3
    assert parse_keys("{ctrl-s}") == [0x13]      # CTRL+S types HOME on a C64
    assert format_keys([CTRL, 0x41]) == "{ctrl}A"


def test_brace_names_are_case_and_space_insensitive():
    assert parse_keys("{RETURN}{Return}{RVS  ON}{ rvs off }") == [0x0D, 0x0D, 0x12, 0x92]


def test_numeric_codes_in_decimal_and_hex():
    assert parse_keys("{13}{$0d}{$0D}{0x93}{255}{0}") == [13, 13, 13, 0x93, 255, 0]


def test_repeat_count_prefix_repeats_the_key():
    assert parse_keys("{3 down}") == [0x11] * 3
    assert parse_keys("{2 $41}x") == [0x41, 0x41, 0x58]
    assert parse_keys("{10 rvs on}") == [0x12] * 10


def test_shift_cbm_and_ctrl_prefixes_use_the_kernal_keyboard_tables():
    assert parse_keys("{shift-a}{SHIFT-N}{shift a}") == [0xC1, 0xCE, 0xC1]
    assert parse_keys("{cbm-a}{c=-1}{cbm-+}") == [0xB0, 0x81, 0xA6]
    assert parse_keys("{ctrl-9}{ctrl-0}{ctrl-3}{ctrl-n}") == [0x12, 0x92, 0x1C, 0x0E]
    assert parse_keys("{shift-home}{shift-stop}{shift-del}{shift-f1}{shift-space}") == [
        0x93, 0x83, 0x94, 0x89, 0xA0]
    assert parse_keys("{shift--}{shift-\u2191}{shift-@}") == [0xDD, 0xDE, 0xBA]


def test_game_script_example_parses_as_expected():
    assert parse_keys("01{return}n{return}{f1}") == [0x30, 0x31, 0x0D, 0x4E, 0x0D, 0x85]


# --- parse_keys: errors --------------------------------------------------------------

@pytest.mark.parametrize("text, fragment", [
    ("ab{foo}", "{foo} at position 2"),
    ("{return}{dwn}", "{dwn} at position 8"),
    ("xy{3 down", "unterminated '{' at position 2"),
    ("a}", "stray '}' at position 1"),
    ("a\tb", "'\\t' at position 1"),
    ("`", "'`' at position 0"),
    ("{ctrl-del}", "{ctrl-del} at position 0 gives no character"),
    ("{shift-qq}", "unknown key 'qq' in {shift-qq} at position 0"),
    ("{256}", "{256} at position 0 is not a byte"),
    ("{$100}", "{$100} at position 0 is not a byte"),
    ("{}", "{} at position 0"),
])
def test_bad_key_text_raises_with_the_token_and_its_position(text, fragment):
    with pytest.raises(KeyParseError) as info:
        parse_keys(text)
    assert fragment in str(info.value)


@pytest.mark.parametrize("text", ["{10000000 down}", "{99999999999 down}", "{%s down}" % ("9" * 5000),
                                  "{600000 down}{600000 up}", "{999999 down}xy", "{%s}" % ("9" * 5000)],
                         ids=["10M", "1e11", "5000-digit count", "two halves", "plain keys past 1M", "5000-digit code"])
def test_key_text_of_more_than_a_million_keys_or_huge_numbers_is_refused_at_once(text):
    import tracemalloc
    tracemalloc.start()
    try:
        with pytest.raises(KeyParseError) as caught:
            parse_keys(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "1,000,000" in str(caught.value) or "not a byte" in str(caught.value)
    assert peak < 20_000_000 + 4 * len(text)       # nothing the size of the expansion was built


def test_a_repeat_count_up_to_the_limit_is_typed_in_full():
    assert parse_keys("{1000000 down}") == [0x11] * 1_000_000


def test_key_parse_error_is_a_value_error():
    assert issubclass(KeyParseError, ValueError)


# --- names ------------------------------------------------------------------------

def test_key_names_give_the_preferred_petcat_name():
    assert KEY_NAMES[0x0D] == "return"
    assert KEY_NAMES[0x12] == "rvs on"
    assert KEY_NAMES[0x9E] == "yel"
    assert KEY_NAMES[0x85] == "f1"
    assert KEY_NAMES[RESTORE] == "restore"


def test_every_key_name_parses_back_to_its_code():
    for code, name in KEY_NAMES.items():
        assert parse_keys("{" + name + "}") == [code]


def test_key_name_shows_printables_plainly_and_others_in_braces():
    assert key_name(0x41) == "A"
    assert key_name(0x0D) == "{return}"
    assert key_name(0x07) == "{$07}"
    assert key_name(0xC1) == "{$c1}"


def test_format_keys_round_trips_every_byte_through_parse_keys():
    codes = list(range(256)) + [RESTORE]
    assert parse_keys(format_keys(codes)) == codes


# --- the keyboard table (ref 8.1) ---------------------------------------------------

def test_keyboard_table_has_the_64_minus_4_modifier_keys():
    assert len(KEYBOARD) == 60
    plain = [row[1] for row in KEYBOARD]
    assert len(set(plain)) == 60


def test_letter_keys_give_letters_plain_and_shifted_letters_with_bit_7():
    rows = {row[0][0]: row for row in KEYBOARD}
    for letter in "abcdefghijklmnopqrstuvwxyz":
        _, plain, shifted, _cbm, _ctrl = rows[letter]
        assert plain == ord(letter.upper())
        assert shifted == plain | 0x80


# --- host keys -----------------------------------------------------------------------

def test_host_letters_give_plain_and_shifted_codes():
    assert host_key_to_c64("a") == 0x41
    assert host_key_to_c64("z") == 0x5A
    assert host_key_to_c64("A") == 0xC1
    assert host_key_to_c64("Z") == 0xDA


def test_host_digits_and_punctuation_are_themselves():
    for ch in "0123456789 !\"#$%&'()*+,-./:;<=>?@[]":
        assert host_key_to_c64(ch) == ord(ch), ch


@pytest.mark.parametrize("key, code", [
    ("\\", 0x5C), ("\u00a3", 0x5C), ("^", 0x5E), ("~", 0x5F), ("_", 0x5F), ("|", 0xDD),
    ("\n", 0x0D), ("\r", 0x0D), ("\x7f", 0x14), ("\x08", 0x14), ("\x1b", 0x03),
    ("\u03c0", 0xDE),
])
def test_host_special_characters(key, code):
    assert host_key_to_c64(key) == code


@pytest.mark.parametrize("key", ["`", "{", "}", "\t", "\x17", "\x01", "\u00e9", "\u20ac", "ab", ""])
def test_host_keys_the_c64_lacks_give_none(key):
    assert host_key_to_c64(key) is None


def test_host_int_character_codes_are_treated_as_characters():
    assert host_key_to_c64(ord("a")) == 0x41
    assert host_key_to_c64(10) == 0x0D
    assert host_key_to_c64(-1) is None


FAKE_CURSES = types.SimpleNamespace(
    KEY_ENTER=343, KEY_BACKSPACE=263, KEY_DC=330, KEY_IC=331, KEY_HOME=262,
    KEY_SHOME=391, KEY_UP=259, KEY_DOWN=258, KEY_LEFT=260, KEY_RIGHT=261,
    KEY_F0=264, KEY_PPAGE=339, KEY_NPAGE=338, KEY_END=360,
)


def test_build_host_keymap_uses_the_modules_numbers_and_skips_missing_names():
    keymap = build_host_keymap(FAKE_CURSES)
    assert keymap[262] == 0x13
    assert keymap[264 + 1] == 0x85 and keymap[264 + 8] == 0x8C
    assert keymap[339] == RESTORE
    assert len(keymap) == len(HOST_KEYS) - 8     # fake lacks KEY_SDC, KEY_SNEXT and PDCurses' six PAD* keys


@pytest.mark.parametrize("name, code", [
    ("KEY_ENTER", 0x0D), ("KEY_BACKSPACE", 0x14), ("KEY_DC", 0x14), ("KEY_IC", 0x94),
    ("KEY_HOME", 0x13), ("KEY_SHOME", 0x93), ("KEY_UP", 0x91), ("KEY_DOWN", 0x11),
    ("KEY_LEFT", 0x9D), ("KEY_RIGHT", 0x1D), ("KEY_PPAGE", "restore"),
    ("KEY_NPAGE", 0x5E), ("KEY_END", 0x5F),
])
def test_host_curses_keys_map_per_ref_8_2(name, code):
    number = getattr(curses, name)
    assert host_key_to_c64(number) == code
    assert host_key_to_c64(getattr(FAKE_CURSES, name), build_host_keymap(FAKE_CURSES)) == code


def test_host_function_keys_f1_to_f8_map_and_f9_to_f12_are_left_to_the_emulator():
    expected = [0x85, 0x89, 0x86, 0x8A, 0x87, 0x8B, 0x88, 0x8C]
    assert [host_key_to_c64(curses.KEY_F0 + n) for n in range(1, 9)] == expected
    assert [host_key_to_c64(curses.KEY_F0 + n) for n in range(9, 13)] == [None] * 4


def test_host_unknown_curses_key_gives_none():
    assert host_key_to_c64(curses.KEY_RESIZE) is None
    assert host_key_to_c64(999, keymap={}) is None


def test_host_characters_copied_from_set_2_screen_text_type_back_the_same_screen_codes():
    # ASCII fallback of set 2 letters/punctuation + host keymap agree
    from charset.glyphs import ASCII_LOWER
    for sc in list(range(0x00, 0x40)) + list(range(0x41, 0x5B)):
        code = host_key_to_c64(ASCII_LOWER[sc])
        assert code is not None and petscii_to_screen(code) == sc, hex(sc)
