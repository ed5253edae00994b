"""kernal.editor: CHROUT to the screen, PLOT, CINT/CLR and the cursor blink, on a plain bytearray.

Each test states one behaviour of the C64 KERNAL screen editor (docs/c64.md, "Screen editor").
Expected values are worked out from the KERNAL source, not read back from the implementation.
Screen RAM is $0400, colour RAM $D800, link table $D9-$F2.
"""

import pytest

from kernal.editor import ScreenEditor
from tests.kernal.editor_helpers import (SCREEN, COLOUR_RAM, LINK_TABLE, LIGHT_BLUE, new_editor,
                                        show, row, row_colours, row_text, poke_text, links,
                                        word, start_link, continuation_link, all_starts)


# -- CINT, CLR, HOME -----------------------------------------------------------------------


def test_cint_marks_every_row_as_the_start_of_a_line_with_its_screen_page():
    _, mem = new_editor()
    assert links(mem) == [0x84] * 7 + [0x85] * 6 + [0x86] * 7 + [0x87] * 5
    assert mem[0xF2] == 0x87        # the virtual row 25 CLR also fills


def test_cint_clears_the_screen_to_spaces_in_light_blue():
    _, mem = new_editor()
    assert bytes(mem[SCREEN:SCREEN + 1000]) == b" " * 1000
    assert set(mem[COLOUR_RAM:COLOUR_RAM + 1000]) == {LIGHT_BLUE}


def test_cint_homes_the_cursor_and_derives_the_line_pointers():
    editor, mem = new_editor()
    assert editor.get_cursor() == (0, 0)
    assert word(mem, 0xD1) == 0x0400
    assert word(mem, 0xF3) == 0xD800
    assert mem[0xD5] == 39


def test_cint_sets_the_editor_variables_as_the_kernal_does():
    _, mem = bytearray(0x10000), None
    mem = bytearray(0x10000)
    mem[0x0291] = 0x80
    mem[0xCF] = 1
    ScreenEditor(mem).cint()
    assert mem[0x0286] == 0x0E and mem[0x0288] == 0x04
    assert mem[0xCC] == 0x0C and mem[0xCD] == 0x0C        # cursor off, blink counter
    assert mem[0x0291] == 0 and mem[0xCF] == 0
    assert mem[0x0289] == 10 and mem[0x028C] == 10 and mem[0x028B] == 4
    assert word(mem, 0x028F) == 0xEB48
    assert mem[0x9A] == 3 and mem[0x99] == 0              # output screen, input keyboard


def test_cint_loads_the_vic_registers_for_screen_0400_and_the_upper_case_set():
    _, mem = new_editor()
    assert mem[0xD018] == 0x14
    assert mem[0xD011] == 0x9B and mem[0xD016] == 0x08
    assert mem[0xD020] == 14 and mem[0xD021] == 6


def test_cint_can_keep_a_screen_page_chosen_by_the_program():
    mem = bytearray(0x10000)
    mem[0x0288] = 0xC0
    editor = ScreenEditor(mem)
    editor.cint(reset_hibase=False)
    editor.chrout(ord("A"))
    assert editor.screen_base() == 0xC000
    assert mem[0xC000] == 0x01 and mem[SCREEN] == 0
    assert mem[COLOUR_RAM] == LIGHT_BLUE


def test_screen_base_follows_hibase_poked_by_a_program():
    editor, mem = new_editor()
    mem[0x0288] = 0x30
    assert editor.screen_base() == 0x3000


def test_a_new_hibase_is_used_from_the_next_line_on_without_a_clr():
    editor, mem = new_editor()
    mem[0x0288] = 0xC0
    show(editor, "A\rB")
    assert mem[SCREEN] == 0x01                    # the current line was still at $0400
    assert mem[0xC028] == 0x02 and mem[COLOUR_RAM + 40] == LIGHT_BLUE
    assert word(mem, 0xD1) == 0xC028


def test_clr_blanks_the_screen_in_the_current_colour_unlinks_rows_and_homes():
    editor, mem = new_editor()
    show(editor, "A" * 45, [0x1C])                # a two-row line, colour red
    editor.chrout(0x93)
    assert bytes(mem[SCREEN:SCREEN + 1000]) == b" " * 1000
    assert set(mem[COLOUR_RAM:COLOUR_RAM + 1000]) == {2}
    assert links(mem) == all_starts()
    assert editor.get_cursor() == (0, 0) and mem[0xD5] == 39


def test_clear_method_is_the_clr_code():
    editor, mem = new_editor()
    show(editor, "HELLO")
    editor.clear()
    assert row_text(mem, 0) == "" and editor.get_cursor() == (0, 0)


def test_home_moves_the_cursor_to_the_top_left_without_clearing():
    editor, mem = new_editor()
    show(editor, "HELLO\rWORLD", [0x13])
    assert editor.get_cursor() == (0, 0)
    assert row_text(mem, 0) == "HELLO" and row_text(mem, 1) == "WORLD"


# -- printable characters ------------------------------------------------------------------


def test_a_printed_letter_goes_to_the_cursor_in_the_text_colour_and_the_cursor_advances():
    editor, mem = new_editor()
    editor.chrout(0x41)
    assert mem[SCREEN] == 0x01 and mem[COLOUR_RAM] == LIGHT_BLUE
    assert editor.get_cursor() == (0, 1)
    assert mem[0xD7] == 0x41                     # $D7 holds the last character printed


@pytest.mark.parametrize("first, last, screen_first", [
    (0x20, 0x3F, 0x20), (0x40, 0x5F, 0x00), (0x60, 0x7F, 0x40),
    (0xA0, 0xBF, 0x60), (0xC0, 0xDF, 0x40), (0xE0, 0xFE, 0x60)])
def test_printable_petscii_ranges_become_their_screen_codes(first, last, screen_first):
    for code in range(first, last + 1):
        editor, mem = new_editor()
        editor.chrout(code)
        assert mem[SCREEN] == screen_first + code - first, hex(code)


def test_petscii_ff_prints_as_pi_screen_code_5e():
    editor, mem = new_editor()
    editor.chrout(0xFF)
    assert mem[SCREEN] == 0x5E


def test_the_editor_table_agrees_with_charset_petscii_for_every_printable_code():
    from charset.petscii import PETSCII_TO_SCREEN
    for code in range(256):
        editor, mem = new_editor()
        if PETSCII_TO_SCREEN[code] is None:
            continue
        editor.chrout(code)
        assert mem[SCREEN] == PETSCII_TO_SCREEN[code], hex(code)


def test_a_colour_poked_into_0286_is_used_for_the_next_character():
    editor, mem = new_editor()
    mem[0x0286] = 7
    editor.chrout(ord("X"))
    assert mem[COLOUR_RAM] == 7


def test_colour_ram_receives_only_the_low_nibble_of_0286():
    editor, mem = new_editor()
    mem[0x0286] = 0x72
    editor.chrout(ord("X"))
    assert mem[COLOUR_RAM] == 0x02


def test_a_column_poked_into_d3_is_where_the_next_character_goes():
    editor, mem = new_editor()
    mem[0xD3] = 10
    editor.chrout(ord("X"))
    assert mem[SCREEN + 10] == 0x18 and editor.get_cursor() == (0, 11)


def test_poking_only_the_row_d6_leaves_output_on_the_line_d1_points_at_as_in_the_rom():
    editor, mem = new_editor()
    mem[0xD6] = 5
    editor.chrout(ord("X"))
    assert mem[SCREEN] == 0x18
    assert row_text(mem, 5) == ""


# -- colours and the other control codes ---------------------------------------------------

COLOUR_CODES = [0x90, 0x05, 0x1C, 0x9F, 0x9C, 0x1E, 0x1F, 0x9E,
                0x81, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0x9B]


@pytest.mark.parametrize("colour", range(16))
def test_each_colour_code_sets_the_text_colour_and_prints_nothing(colour):
    editor, mem = new_editor()
    editor.chrout(COLOUR_CODES[colour])
    assert mem[0x0286] == colour
    assert editor.get_cursor() == (0, 0) and mem[SCREEN] == 0x20
    editor.chrout(ord("A"))
    assert mem[COLOUR_RAM] == colour


IGNORED_CODES = ([c for c in range(0x20) if c not in (0x05, 0x08, 0x09, 0x0D, 0x0E, 0x11, 0x12,
                                                    0x13, 0x14, 0x1C, 0x1D, 0x1E, 0x1F)]
                 + [0x80] + list(range(0x82, 0x8D)))


@pytest.mark.parametrize("code", IGNORED_CODES, ids=hex)
def test_unassigned_control_codes_change_nothing_but_the_last_character_byte(code):
    editor, mem = new_editor()
    show(editor, "AB", [0x13], "C")
    editor.set_cursor(5, 7)
    before = bytearray(mem)
    editor.chrout(code)
    before[0xD7] = code
    assert mem == before


def test_rvs_on_reverses_printed_characters_and_rvs_off_stops_it():
    editor, mem = new_editor()
    show(editor, [0x12], "A", [0x92], "A")
    assert mem[0xC7] == 0
    assert row(mem, 0, 0, 2) == bytes([0x81, 0x01])


def test_rvs_on_stores_12_in_c7():
    editor, mem = new_editor()
    editor.chrout(0x12)
    assert mem[0xC7] == 0x12


def test_a_program_poking_c7_turns_reverse_on():
    editor, mem = new_editor()
    mem[0xC7] = 1
    editor.chrout(ord("A"))
    assert mem[SCREEN] == 0x81


def test_chr14_selects_the_lower_case_set_and_chr142_the_upper_case_set():
    editor, mem = new_editor()
    editor.chrout(0x0E)
    assert mem[0xD018] == 0x16
    editor.chrout(0x8E)
    assert mem[0xD018] == 0x14
    assert editor.get_cursor() == (0, 0)


def test_case_switch_codes_work_even_when_the_case_is_locked():
    editor, mem = new_editor()
    show(editor, [0x08, 0x0E])
    assert mem[0x0291] & 0x80 and mem[0xD018] & 0x02


def test_chr8_locks_and_chr9_unlocks_the_case_switch_keeping_other_mode_bits():
    editor, mem = new_editor()
    mem[0x0291] = 0x01
    editor.chrout(0x08)
    assert mem[0x0291] == 0x81
    editor.chrout(0x09)
    assert mem[0x0291] == 0x01


# -- RETURN ----------------------------------------------------------------------------------


def test_return_moves_to_column_0_of_the_next_row():
    editor, mem = new_editor()
    show(editor, "HELLO\r")
    assert editor.get_cursor() == (1, 0)
    assert word(mem, 0xD1) == SCREEN + 40 and word(mem, 0xF3) == COLOUR_RAM + 40


def test_return_ends_quote_insert_and_reverse_mode():
    editor, mem = new_editor()
    show(editor, [0x12], '"')
    mem[0xD8] = 3                                 # pending inserts (INST would print in quotes)
    assert mem[0xC7] and mem[0xD4]
    editor.chrout(0x0D)
    assert (mem[0xC7], mem[0xD4], mem[0xD8]) == (0, 0, 0)


def test_shift_return_printed_is_the_same_as_return_even_in_quote_mode():
    editor, mem = new_editor()
    show(editor, '"AB', [0x8D])
    assert editor.get_cursor() == (1, 0) and mem[0xD4] == 0
    assert row_text(mem, 0) == '"AB'


def test_forty_characters_then_return_leave_an_empty_row():
    editor, mem = new_editor()
    show(editor, "A" * 40, "\rB")
    assert row_text(mem, 0) == "A" * 40
    assert row_text(mem, 1) == ""
    assert row_text(mem, 2) == "B"


def test_return_on_the_bottom_row_scrolls_the_screen_and_its_colours_up():
    editor, mem = new_editor()
    show(editor, "TOP\r", [0x1C], "RED", [0x1E])     # row 1 in red, then colour green
    editor.set_cursor(24, 0)
    editor.chrout(0x0D)
    assert row_text(mem, 0) == "RED" and row_colours(mem, 0, 0, 3) == bytes([2, 2, 2])
    assert row_text(mem, 24) == "" and row_colours(mem, 24) == bytes([5] * 40)
    assert editor.get_cursor() == (24, 0)
    assert links(mem) == all_starts()


def test_return_on_a_two_row_line_at_the_bottom_scrolls_once_and_lands_below_it():
    editor, mem = new_editor()
    editor.set_cursor(23, 0)
    show(editor, "A" * 41)
    editor.set_cursor(23, 0)
    editor.chrout(0x0D)
    assert editor.get_cursor() == (24, 0)
    assert row_text(mem, 22) == "A" * 40 and row_text(mem, 23) == "A"
    assert mem[LINK_TABLE + 23] == 0x07 and mem[LINK_TABLE + 24] == 0x87


def test_a_scroll_removes_a_whole_two_row_logical_line_from_the_top():
    editor, mem = new_editor()
    show(editor, "A" * 41, "\rNEXT")              # rows 0-1 one line, NEXT on row 2
    editor.set_cursor(24, 0)
    editor.chrout(0x0D)
    assert row_text(mem, 0) == "NEXT"
    assert editor.get_cursor() == (23, 0)
    assert links(mem) == all_starts()


def test_holding_ctrl_during_a_scroll_flushes_the_keyboard_buffer():
    editor, mem = new_editor()
    mem[0xC6] = 3
    mem[0xDC01] = 0xFB                            # CTRL down in the row selected by $DC00=$7F
    editor.set_cursor(24, 0)
    editor.chrout(0x0D)
    assert mem[0xC6] == 0 and mem[0xDC00] == 0x7F


# -- wrapping and the link table --------------------------------------------------------------


def test_the_fortieth_character_links_the_next_row_as_a_continuation():
    editor, mem = new_editor()
    show(editor, "A" * 40)
    expected = all_starts()
    expected[1] = continuation_link(1)
    assert links(mem) == expected
    assert mem[0xDA] == 0x04
    assert editor.get_cursor() == (1, 40)
    assert word(mem, 0xD1) == SCREEN and mem[0xD5] == 79 and word(mem, 0xF3) == COLOUR_RAM


def test_the_eightieth_character_starts_a_new_logical_line():
    editor, mem = new_editor()
    show(editor, "A" * 40, "B" * 40)
    assert editor.get_cursor() == (2, 0)
    assert mem[LINK_TABLE + 1] == continuation_link(1)
    assert mem[LINK_TABLE + 2] == start_link(2)
    assert mem[0xD5] == 39 and word(mem, 0xD1) == SCREEN + 80
    assert row_text(mem, 1) == "B" * 40


def test_program_output_wrapping_overwrites_the_next_row_in_place_when_autodn_is_off():
    editor, mem = new_editor()
    poke_text(mem, 1, "OLD")
    poke_text(mem, 2, "KEEP")
    mem[0x0292] = 0
    show(editor, "A" * 41)
    assert row_text(mem, 1) == "ALD"
    assert row_text(mem, 2) == "KEEP"


def test_wrapping_with_autodn_on_inserts_a_blank_row_and_moves_the_rows_below_down():
    editor, mem = new_editor()
    poke_text(mem, 1, "OLD")
    poke_text(mem, 24, "LAST")
    mem[0x0292] = 1
    show(editor, "A" * 41)
    assert row_text(mem, 1) == "A"
    assert row_text(mem, 2) == "OLD"
    assert "LAST" not in [row_text(mem, n) for n in range(25)]   # pushed off the bottom
    expected = all_starts()
    expected[1] = continuation_link(1)
    assert links(mem) == expected
    assert editor.get_cursor() == (1, 41)


def test_autodn_insertion_moves_colours_with_the_rows():
    editor, mem = new_editor()
    mem[COLOUR_RAM + 40:COLOUR_RAM + 80] = bytes([3] * 40)
    mem[0x0292] = 1
    show(editor, "A" * 40)
    assert row_colours(mem, 2) == bytes([3] * 40)
    assert row_colours(mem, 1) == bytes([LIGHT_BLUE] * 40)


def test_autodn_insertion_keeps_the_links_of_two_row_lines_below():
    editor, mem = new_editor()
    editor.set_cursor(3, 0)
    show(editor, "B" * 41)                        # rows 3-4 one line
    editor.chrout(0x13)
    mem[0x0292] = 1
    show(editor, "A" * 40)
    expected = all_starts()
    expected[1] = continuation_link(1)
    expected[5] = continuation_link(5)            # the B line moved down to rows 4-5
    assert links(mem) == expected
    assert row_text(mem, 4) == "B" * 40 and row_text(mem, 5) == "B"


def test_wrapping_on_the_bottom_row_scrolls_and_links_row_24_to_row_23():
    editor, mem = new_editor()
    show(editor, "TOP")
    editor.set_cursor(24, 0)
    show(editor, "A" * 40)
    assert row_text(mem, 0) == ""                 # TOP scrolled off
    assert row_text(mem, 23) == "A" * 40
    assert mem[LINK_TABLE + 23] == 0x87 and mem[LINK_TABLE + 24] == 0x07
    assert editor.get_cursor() == (24, 40)
    assert word(mem, 0xD1) == SCREEN + 23 * 40 and mem[0xD5] == 79


def test_wrapping_on_the_bottom_row_with_autodn_on_scrolls_too():
    editor, mem = new_editor()
    show(editor, "TOP")
    mem[0x0292] = 1
    editor.set_cursor(24, 0)
    show(editor, "A" * 41)
    assert row_text(mem, 23) == "A" * 40 and row_text(mem, 24) == "A"
    assert mem[LINK_TABLE + 24] == 0x07
    assert editor.get_cursor() == (24, 41)


def test_a_wrap_that_scrolls_leaves_the_colour_pointer_on_row_24_as_the_rom_does():
    editor, mem = new_editor()
    editor.set_cursor(24, 0)
    show(editor, "A" * 40)
    assert word(mem, 0xD1) == SCREEN + 23 * 40
    assert word(mem, 0xF3) == COLOUR_RAM + 24 * 40      # setpnt without scolor after the scroll
    editor.chrout(ord("B"))
    assert word(mem, 0xF3) == COLOUR_RAM + 23 * 40
    assert mem[COLOUR_RAM + 24 * 40] == LIGHT_BLUE and mem[SCREEN + 24 * 40] == 0x02


def test_printing_past_the_bottom_right_corner_of_an_80_column_line_scrolls():
    editor, mem = new_editor()
    editor.set_cursor(23, 0)
    show(editor, "A" * 80)
    assert row_text(mem, 22) == "A" * 40 and row_text(mem, 23) == "A" * 40
    assert editor.get_cursor() == (24, 0)
    assert mem[LINK_TABLE + 24] == 0x87


# -- PLOT ---------------------------------------------------------------------------------------


def test_plot_set_moves_the_cursor_and_recomputes_the_line_and_colour_pointers():
    editor, mem = new_editor()
    editor.set_cursor(10, 5)
    assert (mem[0xD6], mem[0xD3]) == (10, 5)
    assert word(mem, 0xD1) == SCREEN + 400
    assert word(mem, 0xF3) == COLOUR_RAM + 400
    assert mem[0xD5] == 39
    editor.chrout(ord("X"))
    assert row_text(mem, 10) == "     X"


def test_plot_onto_the_second_row_of_a_long_line_counts_the_column_from_its_first_row():
    editor, mem = new_editor()
    show(editor, "A" * 41)
    editor.set_cursor(1, 3)
    assert editor.get_cursor() == (1, 43)
    assert word(mem, 0xD1) == SCREEN and word(mem, 0xF3) == COLOUR_RAM and mem[0xD5] == 79


def test_plot_onto_the_first_row_of_a_long_line_sets_the_line_end_to_79():
    editor, mem = new_editor()
    show(editor, "A" * 41)
    editor.set_cursor(0, 3)
    assert mem[0xD5] == 79 and editor.get_cursor() == (0, 3)


def test_plot_read_reports_row_and_column_poked_by_a_program():
    editor, mem = new_editor()
    mem[0xD6], mem[0xD3] = 12, 30
    assert editor.get_cursor() == (12, 30)


def test_update_line_pointers_is_the_e56c_entry_used_after_poking_row_and_column():
    editor, mem = new_editor()
    mem[0xD6], mem[0xD3] = 2, 4
    editor.update_line_pointers()
    editor.chrout(ord("Y"))
    assert row_text(mem, 2) == "    Y"


def test_set_colour_pointer_makes_f3_follow_d1():
    editor, mem = new_editor()
    mem[0xD1], mem[0xD2] = 0x50, 0x05
    editor.set_colour_pointer()
    assert word(mem, 0xF3) == 0xD950


# -- cursor blink -------------------------------------------------------------------------------


def blink_setup():
    editor, mem = new_editor()
    editor.set_cursor(2, 3)
    mem[SCREEN + 83] = 0x01                      # 'A' under the cursor
    mem[COLOUR_RAM + 83] = 2                     # in red
    mem[0x0286] = 7                              # cursor drawn in yellow
    mem[0xCC] = 0                                # as CHRIN does while waiting
    return editor, mem


def test_blink_does_nothing_while_cc_is_nonzero():
    editor, mem = new_editor()
    before = bytearray(mem)
    for _ in range(100):
        editor.blink()
    assert mem == before
    assert not editor.cursor_visible()


def test_blink_first_counts_down_cd_then_shows_the_reversed_char_in_the_text_colour():
    editor, mem = blink_setup()
    assert editor.cursor_visible()
    for _ in range(11):                          # CINT left $CD = 12
        editor.blink()
    assert mem[SCREEN + 83] == 0x01 and mem[0xCD] == 1
    editor.blink()
    assert mem[SCREEN + 83] == 0x81 and mem[COLOUR_RAM + 83] == 7
    assert (mem[0xCE], mem[0x0287], mem[0xCF], mem[0xCD]) == (0x01, 2, 1, 20)


def test_blink_restores_the_char_and_its_colour_twenty_jiffies_later():
    editor, mem = blink_setup()
    for _ in range(12):
        editor.blink()
    for _ in range(19):
        editor.blink()
    assert mem[SCREEN + 83] == 0x81
    editor.blink()
    assert mem[SCREEN + 83] == 0x01 and mem[COLOUR_RAM + 83] == 2 and mem[0xCF] == 0
    for _ in range(20):
        editor.blink()
    assert mem[SCREEN + 83] == 0x81


def test_blink_follows_the_cursor_pointers_in_memory():
    editor, mem = blink_setup()
    mem[0xCD] = 1
    mem[0xD3] = 4                                # program moved the column behind our back
    editor.blink()
    assert mem[SCREEN + 84] == 0xA0 and mem[SCREEN + 83] == 0x01


def test_printing_restarts_the_blink_countdown_at_2():
    editor, mem = new_editor()
    editor.chrout(ord("A"))
    assert mem[0xCD] == 2


# -- speed (not timed: just make sure a long print run works and stays consistent) -------------


def test_a_long_run_of_output_keeps_the_link_table_consistent():
    editor, mem = new_editor()
    for n in range(300):
        show(editor, "LINE %d " % n * (n % 4 + 1), "\r")
    for number, link in enumerate(links(mem)):
        assert link & 0x7F == (SCREEN + number * 40) >> 8
    assert mem[LINK_TABLE] & 0x80
    assert editor.get_cursor()[0] <= 24


# -- robustness on a strict memory: random output keeps every invariant of the editor --------


class StrictMemory:
    """Memory that accepts only int addresses 0-65535 and byte values, and reads colour RAM
    with a random-looking upper nibble as the real 4-bit colour RAM does."""

    def __init__(self):
        self.data = bytearray(0x10000)

    def __getitem__(self, address):
        assert type(address) is int and 0 <= address <= 0xFFFF, address
        value = self.data[address]
        if 0xD800 <= address < 0xDC00:
            value |= 0xA0
        return value

    def __setitem__(self, address, value):
        assert type(address) is int and 0 <= address <= 0xFFFF, address
        assert type(value) is int and 0 <= value <= 0xFF, (hex(address), value)
        if 0xD800 <= address < 0xDC00:
            assert value <= 0x0F, "colour RAM written with %#x" % value
        self.data[address] = value


def check_editor_invariants(mem):
    table = [mem[LINK_TABLE + n] for n in range(25)]
    for number, link in enumerate(table):
        assert link & 0x7F == (SCREEN + number * 40) >> 8
    assert table[0] & 0x80
    for number in range(1, 25):
        if not table[number] & 0x80:
            assert table[number - 1] & 0x80, "three-row logical line at row %d" % number
    cursor_row, column, end = mem[0xD6], mem[0xD3], mem[0xD5]
    assert cursor_row <= 24 and end in (39, 79) and column <= end
    start = cursor_row if column < 40 else cursor_row - 1
    assert table[start] & 0x80
    assert (end == 79) == (start < 24 and not table[start + 1] & 0x80)
    assert word(mem, 0xD1) == SCREEN + start * 40
    # $F3/$F4 may lag behind $D1 after a wrap that scrolled or inserted a row (as in the ROM),
    # but always points at the start of a row of colour RAM.
    colour_offset = word(mem, 0xF3) - COLOUR_RAM
    assert 0 <= colour_offset < 1000 and colour_offset % 40 == 0


@pytest.mark.parametrize("autodn", [0, 1])
def test_random_output_keeps_link_table_pointers_and_colour_ram_consistent(autodn):
    import random
    rng = random.Random(64 + autodn)
    mem = StrictMemory()
    editor = ScreenEditor(mem)
    editor.cint()
    mem[0x0292] = autodn
    choices = ([0x0D] * 3 + [0x11, 0x91, 0x1D, 0x9D] * 4 + [0x14, 0x94] * 4 + [0x22, 0x12, 0x92]
               + [0x05, 0x1C, 0x9A, 0x8D, 0x13, 0x0E, 0x8E])
    for step in range(2500):
        if rng.random() < 0.6:
            code = rng.choice([rng.randrange(0x20, 0x80), rng.randrange(0xA0, 0x100)])
        elif rng.random() < 0.002:
            code = 0x93
        else:
            code = rng.choice(choices)
        editor.chrout(code)
        check_editor_invariants(mem)
