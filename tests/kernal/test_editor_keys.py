"""kernal.editor: the editing keys printed through CHROUT - cursor keys, DEL, INST and insert
mode, quote mode - on a plain bytearray (docs/c64.md, "Screen editor"; expected values from
the KERNAL source).  Screen RAM is $0400, colour RAM $D800, link table $D9-$F2.
"""

import pytest

from tests.kernal.editor_helpers import (SCREEN, COLOUR_RAM, LINK_TABLE, LIGHT_BLUE, new_editor,
                                        show, screen_codes, row, row_colours, row_text, poke_text,
                                        links, word, start_link, continuation_link, all_starts)


# -- cursor keys -------------------------------------------------------------------------------


def test_cursor_down_keeps_the_column_on_the_next_row():
    editor, mem = new_editor()
    editor.set_cursor(3, 7)
    editor.chrout(0x11)
    assert editor.get_cursor() == (4, 7) and word(mem, 0xD1) == SCREEN + 160


def test_cursor_down_from_the_first_row_of_a_long_line_enters_its_second_row():
    editor, mem = new_editor()
    show(editor, "A" * 41, [0x13, 0x11])
    assert editor.get_cursor() == (1, 40) and word(mem, 0xD1) == SCREEN


def test_cursor_down_from_the_second_row_of_a_long_line_goes_to_the_next_line_same_column():
    editor, mem = new_editor()
    show(editor, "A" * 45, [0x11])
    assert editor.get_cursor() == (2, 5) and word(mem, 0xD1) == SCREEN + 80


def test_cursor_down_on_the_bottom_row_scrolls():
    editor, mem = new_editor()
    show(editor, "TOP")
    editor.set_cursor(24, 5)
    editor.chrout(0x11)
    assert editor.get_cursor() == (24, 5)
    assert row_text(mem, 0) == ""


def test_cursor_up_on_row_0_does_nothing():
    editor, mem = new_editor()
    editor.set_cursor(0, 5)
    editor.chrout(0x91)
    assert editor.get_cursor() == (0, 5)


def test_cursor_up_moves_one_row_up_in_the_same_column():
    editor, mem = new_editor()
    editor.set_cursor(5, 9)
    editor.chrout(0x91)
    assert editor.get_cursor() == (4, 9) and word(mem, 0xD1) == SCREEN + 160


def test_cursor_up_from_the_second_row_of_a_long_line_goes_to_its_first_row():
    editor, mem = new_editor()
    show(editor, "A" * 45, [0x91])
    assert editor.get_cursor() == (0, 5)


def test_cursor_up_into_the_second_row_of_a_long_line_counts_columns_from_its_start():
    editor, mem = new_editor()
    show(editor, "A" * 41, "\rBBBBB", [0x91])
    assert editor.get_cursor() == (1, 45)
    assert word(mem, 0xD1) == SCREEN and mem[0xD5] == 79


def test_cursor_right_moves_one_column():
    editor, mem = new_editor()
    editor.chrout(0x1D)
    assert editor.get_cursor() == (0, 1)


def test_cursor_right_at_the_end_of_a_single_row_line_goes_to_the_next_line():
    editor, mem = new_editor()
    editor.set_cursor(0, 39)
    editor.chrout(0x1D)
    assert editor.get_cursor() == (1, 0)
    assert links(mem) == all_starts()              # moving never links rows


def test_cursor_right_crosses_from_the_first_to_the_second_row_of_a_long_line():
    editor, mem = new_editor()
    show(editor, "A" * 41)
    editor.set_cursor(0, 39)
    editor.chrout(0x1D)
    assert editor.get_cursor() == (1, 40)


def test_cursor_right_at_column_79_goes_to_the_next_logical_line():
    editor, mem = new_editor()
    show(editor, "A" * 41)
    editor.set_cursor(1, 39)
    assert editor.get_cursor() == (1, 79)
    editor.chrout(0x1D)
    assert editor.get_cursor() == (2, 0)


def test_cursor_right_at_the_bottom_right_corner_scrolls():
    editor, mem = new_editor()
    show(editor, "TOP")
    editor.set_cursor(24, 39)
    editor.chrout(0x1D)
    assert editor.get_cursor() == (24, 0)
    assert row_text(mem, 0) == ""


def test_cursor_left_at_the_top_left_corner_does_nothing():
    editor, mem = new_editor()
    editor.chrout(0x9D)
    assert editor.get_cursor() == (0, 0)


def test_cursor_left_moves_one_column():
    editor, mem = new_editor()
    editor.set_cursor(3, 5)
    editor.chrout(0x9D)
    assert editor.get_cursor() == (3, 4)


def test_cursor_left_at_column_0_goes_to_the_last_column_of_the_previous_line():
    editor, mem = new_editor()
    editor.set_cursor(3, 0)
    editor.chrout(0x9D)
    assert editor.get_cursor() == (2, 39)


def test_cursor_left_at_column_0_below_a_long_line_goes_to_its_column_79():
    editor, mem = new_editor()
    show(editor, "A" * 41, "\r", [0x9D])
    assert editor.get_cursor() == (1, 79)
    assert word(mem, 0xD1) == SCREEN


def test_cursor_left_crosses_the_link_inside_a_long_line():
    editor, mem = new_editor()
    show(editor, "A" * 40, [0x9D])
    assert editor.get_cursor() == (0, 39)


# -- DEL -------------------------------------------------------------------------------------


def test_del_removes_the_character_left_of_the_cursor_and_closes_the_gap():
    editor, mem = new_editor()
    show(editor, "HELXLO", [0x9D, 0x9D, 0x14])
    assert row_text(mem, 0) == "HELLO"
    assert editor.get_cursor() == (0, 3)


def test_del_leaves_a_space_in_the_text_colour_at_the_end_of_the_line():
    editor, mem = new_editor()
    poke_text(mem, 0, "X", 39)
    mem[COLOUR_RAM + 39] = 7
    mem[0x0286] = 2
    editor.set_cursor(0, 5)
    editor.chrout(0x14)
    assert mem[SCREEN + 38] == 0x18 and mem[COLOUR_RAM + 38] == 7
    assert mem[SCREEN + 39] == 0x20 and mem[COLOUR_RAM + 39] == 2


def test_del_pulls_the_second_row_of_a_long_line_across_the_link():
    editor, mem = new_editor()
    show(editor, "A" * 40, "BCDEF", [0x9D] * 5)
    assert editor.get_cursor() == (1, 40)
    editor.chrout(0x14)
    assert row_text(mem, 0) == "A" * 39 + "B"
    assert row_text(mem, 1) == "CDEF"
    assert editor.get_cursor() == (0, 39)


def test_del_at_column_0_blanks_the_last_column_of_the_previous_line_and_goes_there():
    editor, mem = new_editor()
    poke_text(mem, 0, "Z", 39)
    poke_text(mem, 1, "WORLD")
    editor.set_cursor(1, 0)
    editor.chrout(0x14)
    assert editor.get_cursor() == (0, 39)
    assert mem[SCREEN + 39] == 0x20
    assert row_text(mem, 1) == "WORLD"


def test_del_at_column_0_below_a_long_line_blanks_its_column_79():
    editor, mem = new_editor()
    show(editor, "A" * 80)
    assert editor.get_cursor() == (2, 0)
    editor.chrout(0x14)
    assert editor.get_cursor() == (1, 79)
    assert row_text(mem, 1) == "A" * 39


def test_del_at_the_top_left_corner_does_nothing():
    editor, mem = new_editor()
    poke_text(mem, 0, "AB")
    before = bytearray(mem)
    editor.chrout(0x14)
    before[0xD7] = 0x14
    assert mem == before


def test_del_with_a_poked_colour_above_127_runs_on_into_the_colour_codes_as_the_rom_does():
    editor, mem = new_editor()
    show(editor, "AB")
    mem[0x0286] = 0x9A                            # the CHR$ code of light blue, poked as a colour
    editor.chrout(0x14)
    assert row_text(mem, 0) == "A" and mem[COLOUR_RAM + 39] == 0x0A
    assert mem[0x0286] == 14


def test_del_still_deletes_in_quote_mode():
    editor, mem = new_editor()
    show(editor, '"AB', [0x14])
    assert row_text(mem, 0) == '"A'
    assert mem[0xD4] == 1


# -- INST and insert mode ---------------------------------------------------------------------


def test_inst_opens_a_space_at_the_cursor_and_counts_a_pending_insert():
    editor, mem = new_editor()
    show(editor, "HELLO")
    editor.set_cursor(0, 1)
    editor.chrout(0x94)
    assert row_text(mem, 0) == "H ELLO"
    assert mem[0xD8] == 1 and editor.get_cursor() == (0, 1)


def test_inst_moves_colours_with_the_characters_and_colours_the_space_with_0286():
    editor, mem = new_editor()
    show(editor, [0x05], "H", [0x1C], "E", [0x13, 0x1E, 0x94])
    assert row(mem, 0, 0, 3) == screen_codes(" HE")
    assert row_colours(mem, 0, 0, 3) == bytes([5, 1, 2])


def test_printing_after_inst_fills_the_space_and_uses_up_the_insert():
    editor, mem = new_editor()
    show(editor, "HLLO", [0x9D] * 3, [0x94], "E")
    assert row_text(mem, 0) == "HELLO"
    assert mem[0xD8] == 0


def test_inst_on_a_full_single_row_line_links_a_new_row_and_pushes_rows_down():
    editor, mem = new_editor()
    poke_text(mem, 0, "A" * 40)
    poke_text(mem, 1, "NEXT")
    editor.set_cursor(0, 5)
    editor.chrout(0x94)
    assert row_text(mem, 0) == "A" * 5 + " " + "A" * 34
    assert row_text(mem, 1) == "A"
    assert row_text(mem, 2) == "NEXT"
    assert mem[LINK_TABLE + 1] == continuation_link(1) and mem[LINK_TABLE + 2] == start_link(2)
    assert mem[0xD5] == 79 and mem[0xD8] == 1 and editor.get_cursor() == (0, 5)


def test_inst_with_the_cursor_on_the_last_column_also_links_a_new_row():
    editor, mem = new_editor()
    editor.set_cursor(0, 39)
    editor.chrout(0x94)
    assert mem[LINK_TABLE + 1] == continuation_link(1) and mem[0xD5] == 79


def test_inst_in_the_second_row_of_a_long_line_shifts_only_that_line():
    editor, mem = new_editor()
    show(editor, "A" * 40, "BCD", [0x9D] * 2, [0x94])
    assert row_text(mem, 1) == "B CD"
    assert row_text(mem, 0) == "A" * 40


def test_inst_on_a_full_bottom_row_scrolls_the_screen_up_to_make_room():
    editor, mem = new_editor()
    poke_text(mem, 0, "TOP")
    poke_text(mem, 24, "A" * 40)
    editor.set_cursor(24, 5)
    editor.chrout(0x94)
    assert row_text(mem, 0) == ""
    assert row_text(mem, 23) == "A" * 5 + " " + "A" * 34 and row_text(mem, 24) == "A"
    assert mem[LINK_TABLE + 23] == 0x87 and mem[LINK_TABLE + 24] == 0x07
    assert editor.get_cursor() == (23, 5) and mem[0xD5] == 79


def test_inst_on_a_full_80_character_line_does_nothing():
    editor, mem = new_editor()
    show(editor, "A" * 79)
    poke_text(mem, 1, "Z", 39)
    editor.set_cursor(0, 3)
    before = bytearray(mem)
    editor.chrout(0x94)
    before[0xD7] = 0x94
    assert mem == before


def test_control_codes_print_as_reverse_glyphs_in_insert_mode():
    editor, mem = new_editor()
    show(editor, [0x94] * 4, [0x93, 0x14, 0x05, 0x91])
    assert row(mem, 0, 0, 4) == bytes([0xD3, 0x94, 0x85, 0xD1])
    assert mem[0xD8] == 0 and editor.get_cursor() == (0, 4)


def test_inst_still_inserts_in_insert_mode():
    editor, mem = new_editor()
    show(editor, "AB", [0x9D, 0x94, 0x94])
    assert mem[0xD8] == 2
    assert row_text(mem, 0) == "A  B"


def test_return_in_insert_mode_is_still_a_return():
    editor, mem = new_editor()
    show(editor, [0x94, 0x0D])
    assert editor.get_cursor() == (1, 0) and mem[0xD8] == 0


def test_pending_inserts_switch_quote_mode_off_after_each_character():
    editor, mem = new_editor()
    show(editor, [0x94, 0x94], '"')
    assert mem[0xD8] == 1 and mem[0xD4] == 0


def test_a_quote_that_uses_up_the_last_insert_does_start_quote_mode():
    editor, mem = new_editor()
    show(editor, [0x94], '"')
    assert mem[0xD8] == 0 and mem[0xD4] == 1


# -- quote mode ---------------------------------------------------------------------------------


def test_each_quote_toggles_quote_mode():
    editor, mem = new_editor()
    editor.chrout(0x22)
    assert mem[0xD4] == 1
    editor.chrout(0x22)
    assert mem[0xD4] == 0


@pytest.mark.parametrize("code, glyph", [
    (0x93, 0xD3), (0x05, 0x85), (0x11, 0x91), (0x12, 0x92), (0x13, 0x93), (0x1D, 0x9D),
    (0x0E, 0x8E), (0x08, 0x88), (0x90, 0xD0), (0x9D, 0xDD), (0x91, 0xD1), (0x92, 0xD2),
    (0x8E, 0xCE), (0x94, 0xD4), (0x85, 0xC5), (0x00, 0x80), (0x03, 0x83)], ids=hex)
def test_control_codes_print_as_reverse_glyphs_in_quote_mode(code, glyph):
    editor, mem = new_editor()
    show(editor, '"', [code])
    assert mem[SCREEN + 1] == glyph
    assert editor.get_cursor() == (0, 2)


def test_quote_mode_leaves_colour_and_reverse_state_alone():
    editor, mem = new_editor()
    show(editor, '"', [0x1C, 0x12])
    assert mem[0x0286] == LIGHT_BLUE and mem[0xC7] == 0
    assert mem[0xD8] == 0            # INST glyph does not start insert mode either
    show(editor, [0x94])
    assert mem[0xD8] == 0


def test_shifted_letters_and_graphics_print_the_same_with_rvs():
    editor, mem = new_editor()
    show(editor, [0x12, 0xC1, 0xA6])
    assert row(mem, 0, 0, 2) == bytes([0xC1, 0xE6])
