"""kernal.editor: CHRIN from the keyboard (line input with the full-screen editor) and from the screen.

Keys come from a take_key callable; CHRIN returns None when it needs a key that is not there
and must carry on from memory state when called again (the KERNAL's CHRIN, routines loop5/lp2; docs/c64.md, "Screen editor").
"""

from kernal.editor import ScreenEditor
from tests.kernal.editor_helpers import (
    COLOUR_RAM, SCREEN, codes, new_editor, poke_text, row_text, show, word)


def key_source(*parts):
    """A take_key callable handing out the given keys, then None; `.pending` can be extended."""
    pending = []
    for part in parts:
        pending.extend(codes(part))

    def take_key():
        return pending.pop(0) if pending else None

    take_key.pending = pending
    return take_key


def read_line(editor, take_key, limit=300):
    """Call chrin_keyboard until it returns $0D; all bytes it returned."""
    out = []
    for _ in range(limit):
        value = editor.chrin_keyboard(take_key)
        assert value is not None, "CHRIN wanted another key after %r" % bytes(out)
        out.append(value)
        if value == 0x0D:
            return bytes(out)
    raise AssertionError("no RETURN after %d bytes" % limit)


def type_line(editor, *parts):
    return read_line(editor, key_source(*parts))


# -- the basic line -------------------------------------------------------------------------


def test_typed_line_comes_back_byte_by_byte_then_return():
    editor, mem = new_editor()
    assert type_line(editor, "HELLO\r") == b"HELLO\r"


def test_typed_keys_are_echoed_on_the_screen():
    editor, mem = new_editor()
    type_line(editor, "HELLO\r")
    assert row_text(mem, 0) == "HELLO"


def test_the_return_key_is_not_printed_when_output_is_the_screen():
    editor, mem = new_editor()
    type_line(editor, "HI\r")
    assert editor.get_cursor()[0] == 0
    assert row_text(mem, 1) == ""


def test_the_return_is_printed_when_output_goes_elsewhere():
    editor, mem = new_editor()
    mem[0x9A] = 4                                 # CMD to a printer: the screen still gets the RETURN
    type_line(editor, "HI\r")
    assert editor.get_cursor() == (1, 0)


def test_after_the_return_byte_the_column_is_just_past_the_line_end_until_the_caller_prints():
    editor, mem = new_editor()
    type_line(editor, "HELLO\r")
    assert editor.get_cursor() == (0, 6)
    editor.chrout(0x0D)
    assert editor.get_cursor() == (1, 0)


def test_a_line_read_after_return_continues_from_memory_on_each_call():
    editor, mem = new_editor()
    keys = key_source("AB\r")
    assert editor.chrin_keyboard(keys) == ord("A")
    assert mem[0xD0] != 0                         # $D0: a line is being handed out
    assert editor.chrin_keyboard(keys) == ord("B")
    assert editor.chrin_keyboard(keys) == 0x0D
    assert mem[0xD0] == 0


def test_trailing_spaces_are_not_returned():
    editor, mem = new_editor()
    assert type_line(editor, "AB  \r") == b"AB\r"


def test_an_empty_line_reads_as_one_space_then_return_as_on_the_c64():
    editor, mem = new_editor()
    editor.set_cursor(5, 0)
    assert type_line(editor, "\r") == b" \r"


def test_chrin_prints_nothing_between_the_bytes_it_returns():
    editor, mem = new_editor()
    keys = key_source("XY\r")
    editor.chrin_keyboard(keys)
    before = bytes(mem[SCREEN:SCREEN + 1000])
    editor.chrin_keyboard(keys)
    assert bytes(mem[SCREEN:SCREEN + 1000]) == before


# -- waiting for keys ------------------------------------------------------------------------------


def test_chrin_returns_none_without_keys_and_resumes_when_keys_arrive():
    editor, mem = new_editor()
    keys = key_source("HE")
    assert editor.chrin_keyboard(keys) is None
    assert row_text(mem, 0) == "HE"
    keys.pending.extend(codes("LLO"))
    assert editor.chrin_keyboard(keys) is None
    keys.pending.append(0x0D)
    assert read_line(editor, keys) == b"HELLO\r"


def test_the_cursor_blinks_while_waiting_and_stops_when_the_line_is_entered():
    editor, mem = new_editor()
    keys = key_source()
    assert editor.chrin_keyboard(keys) is None
    assert mem[0xCC] == 0 and editor.cursor_visible()
    keys.pending.extend(codes("A\r"))
    editor.chrin_keyboard(keys)
    assert mem[0xCC] != 0 and not editor.cursor_visible()


def test_autodn_is_off_while_waiting_and_after_the_line_is_entered():
    editor, mem = new_editor()
    keys = key_source("A")
    editor.chrin_keyboard(keys)
    assert mem[0x0292] == 0
    keys.pending.append(0x0D)
    read_line(editor, keys)
    assert mem[0x0292] == 0


def test_the_char_under_a_shown_cursor_is_restored_before_a_key_is_echoed():
    editor, mem = new_editor()
    poke_text(mem, 0, "Z")
    mem[COLOUR_RAM] = 2
    keys = key_source()
    assert editor.chrin_keyboard(keys) is None
    for _ in range(12):
        editor.blink()
    assert mem[SCREEN] == 0x9A and mem[COLOUR_RAM] == 14      # cursor shown
    keys.pending.append(0x1D)                                   # cursor right
    assert editor.chrin_keyboard(keys) is None
    assert mem[SCREEN] == 0x1A and mem[COLOUR_RAM] == 2
    assert mem[0xCF] == 0 and mem[0xCD] == 2 and editor.get_cursor() == (0, 1)


def test_the_key_count_in_c6_is_what_cc_and_autodn_get_while_keys_are_handled():
    editor, mem = new_editor()
    mem[0xC6] = 3                                 # the machine's buffer count before the take

    def take_key():
        if mem[0xC6] == 0:
            return None
        mem[0xC6] -= 1
        return ord("A")

    editor.chrin_keyboard(take_key)
    assert row_text(mem, 0) == "AAA"
    assert mem[0xCC] == 0                         # buffer empty again: cursor on


def test_shift_run_stop_is_not_echoed_and_offers_the_load_run_text_to_a_hook():
    editor, mem = new_editor()
    stuffed = []
    editor.stuff_keys = stuffed.append
    assert type_line(editor, [0x83], "A\r") == b"A\r"
    assert stuffed == [b"LOAD\rRUN\r"]


def test_shift_run_stop_can_fill_the_kernal_keyboard_buffer_with_load_and_run():
    editor, mem = new_editor()
    editor.stuff_keys = editor.stuff_keyboard_buffer

    def take_key():                               # the machine's queue: $0277, count $C6
        count = mem[0xC6]
        if not count:
            return None
        key = mem[0x0277]
        mem[0x0277:0x0277 + count - 1] = mem[0x0278:0x0278 + count - 1]
        mem[0xC6] = count - 1
        return key

    mem[0x0277], mem[0xC6] = 0x83, 1
    assert read_line(editor, take_key) == b"LOAD\r"
    assert mem[0xC6] == 4 and bytes(mem[0x0277:0x027B]) == b"RUN\r"


def test_shift_run_stop_without_a_hook_is_ignored():
    editor, mem = new_editor()
    assert type_line(editor, [0x83], "A\r") == b"A\r"


def test_cint_abandons_a_line_being_typed():
    editor, mem = new_editor()
    keys = key_source("AB")
    editor.chrin_keyboard(keys)
    editor.cint()
    editor.set_cursor(3, 2)
    keys.pending.extend(codes("C\r"))
    assert read_line(editor, keys) == b"C\r"      # start column 2 on row 3 is the new prompt end


def test_cancel_input_makes_the_next_call_start_a_new_line_at_the_cursor():
    editor, mem = new_editor()
    keys = key_source("AB")
    editor.chrin_keyboard(keys)
    editor.cancel_input()
    show(editor, "\r? ")
    keys.pending.extend(codes("C\r"))
    assert read_line(editor, keys) == b"C\r"


def test_without_cancel_a_resumed_call_keeps_the_original_input_start():
    editor, mem = new_editor()
    keys = key_source("AB")
    editor.chrin_keyboard(keys)
    keys.pending.extend(codes("C\r"))
    assert read_line(editor, keys) == b"ABC\r"        # a fresh start would have skipped "AB"


# -- editing while typing ---------------------------------------------------------------------------


def test_del_while_typing_edits_the_line():
    editor, mem = new_editor()
    assert type_line(editor, "HELLX", [0x14], "O\r") == b"HELLO\r"


def test_cursor_left_and_overtyping_edit_the_line():
    editor, mem = new_editor()
    assert type_line(editor, "HELLO", [0x9D, 0x9D], "X\r") == b"HELXO\r"


def test_inst_while_typing_opens_a_gap():
    editor, mem = new_editor()
    assert type_line(editor, "HLLO", [0x9D] * 3, [0x94], "E\r") == b"HELLO\r"


def test_return_anywhere_on_the_line_enters_the_whole_line():
    editor, mem = new_editor()
    assert type_line(editor, "HELLO", [0x9D] * 4, "\r") == b"HELLO\r"


def test_cursor_up_and_return_enter_a_line_already_on_the_screen():
    editor, mem = new_editor()
    show(editor, "LIST\r")
    assert type_line(editor, [0x91], "\r") == b"LIST\r"


def test_typing_past_column_39_inserts_a_row_and_the_whole_line_is_returned():
    editor, mem = new_editor()
    poke_text(mem, 1, "BELOW")
    line = "A" * 40 + "B" * 39
    assert type_line(editor, line, "\r") == line.encode() + b"\r"
    assert row_text(mem, 2) == "BELOW"
    assert mem[0xDA] == 0x04                      # row 1 continues row 0


def test_typing_an_80th_character_moves_to_the_next_line_whose_text_return_then_enters():
    editor, mem = new_editor()
    poke_text(mem, 1, "BELOW")
    assert type_line(editor, "A" * 80, "\r") == b"BELOW\r"


def test_colour_keys_while_typing_change_the_echo_colour_and_are_not_returned():
    editor, mem = new_editor()
    assert type_line(editor, "A", [0x1C], "B\r") == b"AB\r"
    assert mem[COLOUR_RAM] == 14 and mem[COLOUR_RAM + 1] == 2


def test_clr_while_typing_clears_the_screen_and_input_starts_at_the_top():
    editor, mem = new_editor()
    editor.set_cursor(5, 0)
    assert type_line(editor, "OLD", [0x93], "NEW\r") == b"NEW\r"
    assert row_text(mem, 5) == ""


# -- prompts ------------------------------------------------------------------------------------


def test_a_prompt_printed_on_the_input_row_is_skipped():
    editor, mem = new_editor()
    editor.set_cursor(3, 0)
    show(editor, "? ")
    keys = key_source("42\r")
    assert editor.chrin_keyboard(keys) == ord("4")
    assert (mem[0xC9], mem[0xCA]) == (3, 2)       # where input started
    assert read_line(editor, keys) == b"2\r"


def test_every_chrin_call_records_the_cursor_as_the_input_start_as_the_rom_does():
    editor, mem = new_editor()
    keys = key_source("42\r")
    editor.chrin_keyboard(keys)
    editor.chrin_keyboard(keys)
    assert (mem[0xC9], mem[0xCA]) == (0, 1)       # the cursor column after reading the "4"


def test_return_right_after_a_prompt_gives_just_return():
    editor, mem = new_editor()
    show(editor, "NAME? ")
    assert type_line(editor, "\r") == b"\r"


def test_a_prompt_is_still_skipped_when_the_answer_wraps_onto_the_next_row():
    editor, mem = new_editor()
    editor.set_cursor(3, 0)
    show(editor, "? ")
    answer = "X" * 45
    assert type_line(editor, answer, "\r") == answer.encode() + b"\r"


def test_a_prompt_is_still_skipped_after_the_screen_scrolled_under_the_input():
    editor, mem = new_editor()
    editor.set_cursor(24, 0)
    show(editor, "? ")
    answer = "A" * 40
    keys = key_source(answer, "\r")
    assert editor.chrin_keyboard(keys) == ord("A")
    assert mem[0xC9] == 23                        # the start row moved up with the scroll
    assert read_line(editor, keys) == answer[1:].encode() + b"\r"


def test_leaving_the_prompt_row_with_cursor_down_forgets_the_prompt_as_the_rom_does():
    editor, mem = new_editor()
    editor.set_cursor(10, 0)
    show(editor, "? ")
    # Cursor down halves $C9 (10 -> 5), so back on row 10 the prompt is read too.
    assert type_line(editor, [0x11, 0x91], "7\r") == b"? 7\r"


def test_input_on_another_line_than_the_prompt_reads_from_column_0():
    editor, mem = new_editor()
    show(editor, "LINE ONE\r? ")
    assert type_line(editor, [0x91], "\r") == b"LINE ONE\r"


# -- screen codes back to PETSCII ---------------------------------------------------------------


def test_shifted_letters_read_back_as_c1_to_da():
    editor, mem = new_editor()
    keys = [0xC1 + n for n in range(26)]
    assert type_line(editor, keys, "\r") == bytes(keys) + b"\r"


def test_unshifted_letters_digits_and_punctuation_read_back_unchanged():
    editor, mem = new_editor()
    text = "AZ09 !#$%&'()*+,-./:;<=>?@[]"
    assert type_line(editor, text, "\r") == text.encode() + b"\r"


def test_pi_reads_back_as_ff():
    editor, mem = new_editor()
    assert type_line(editor, [0xDE, 0xFF, 0x7E], "\r") == b"\xff\xff\xff\r"


def test_graphics_read_back_in_the_a0_to_bf_range():
    editor, mem = new_editor()
    assert type_line(editor, [0xA0, 0xA6, 0xE6, 0xBF], "\r") == b"\xa0\xa6\xa6\xbf\r"


def test_lower_case_petscii_60_to_7f_reads_back_as_c0_to_df():
    editor, mem = new_editor()
    assert type_line(editor, [0x61, 0x7D], "\r") == b"\xc1\xdd\r"


def test_reversed_characters_outside_quotes_read_back_as_plain_characters():
    editor, mem = new_editor()
    assert type_line(editor, [0x12], "A1", [0x92], "\r") == b"A1\r"


def test_reverse_glyphs_inside_quotes_read_back_as_control_codes():
    editor, mem = new_editor()
    typed = [0x22, 0x93, 0x05, 0x11, 0x1C, 0x22]
    assert type_line(editor, typed, "\r") == bytes(typed) + b"\r"


def test_del_typed_in_insert_mode_inside_quotes_reads_back_as_14():
    editor, mem = new_editor()
    keys = [0x22, ord("A"), 0x22, 0x9D, 0x9D, 0x94, 0x14]     # "A", back, INST, DEL
    assert type_line(editor, keys, "\r") == b'"\x14A"\r'


# -- CHRIN from the screen (device 3) ------------------------------------------------------------


def screen_reader():
    editor, mem = new_editor()
    mem[0x99] = 3                                 # CHKIN on a file opened to the screen
    return editor, mem


def test_chrin_from_the_screen_reads_from_the_cursor_to_the_line_end_then_return():
    editor, mem = screen_reader()
    poke_text(mem, 4, "READ ME")
    editor.set_cursor(4, 5)
    out = bytes(editor.chrin_screen() for _ in range(35))
    assert out == b"ME" + b" " * 32 + b"\r"


def test_chrin_from_the_screen_never_returns_the_last_column_as_in_the_rom():
    editor, mem = screen_reader()
    poke_text(mem, 4, "Z", 39)
    editor.set_cursor(4, 38)
    assert editor.chrin_screen() == 0x20
    assert editor.chrin_screen() == 0x0D


def test_chrin_from_the_screen_prints_the_return_so_the_next_read_is_the_next_line():
    editor, mem = screen_reader()
    poke_text(mem, 0, "ONE")
    poke_text(mem, 1, "TWO")
    for _ in range(40):
        editor.chrin_screen()
    assert editor.get_cursor() == (1, 0)
    assert bytes(editor.chrin_screen() for _ in range(3)) == b"TWO"


def test_chrin_from_the_screen_reads_both_rows_of_a_long_line():
    editor, mem = screen_reader()
    show(editor, "A" * 40, "BC", [0x13])
    out = bytes(editor.chrin_screen() for _ in range(80))
    assert out == b"A" * 40 + b"BC" + b" " * 37 + b"\r"


def test_chrin_from_the_screen_does_not_wait_for_keys_or_touch_the_cursor_blink():
    editor, mem = screen_reader()
    assert editor.chrin_screen() == 0x20
    assert mem[0xCC] == 0x0C


def test_chrin_from_the_screen_converts_shifted_letters_and_pi():
    editor, mem = screen_reader()
    mem[SCREEN] = 0x41
    mem[SCREEN + 1] = 0x5E
    assert editor.chrin_screen() == 0xC1 and editor.chrin_screen() == 0xFF


def test_an_editor_on_fresh_memory_reads_what_a_program_printed_directly():
    mem = bytearray(0x10000)
    editor = ScreenEditor(mem)
    editor.cint()
    mem[0x99] = 3
    poke_text(mem, 0, "POKED")
    assert bytes(editor.chrin_screen() for _ in range(5)) == b"POKED"
    assert word(mem, 0xD1) == SCREEN


def test_random_typing_keeps_the_editor_consistent_and_lines_at_most_80_bytes():
    # Invariants are checked while waiting for keys and after the caller prints RETURN;
    # while a line is handed out $D3 runs one past the line's end, as in the ROM.
    import random
    from tests.kernal.test_editor import StrictMemory, check_editor_invariants
    rng = random.Random(1982)
    mem = StrictMemory()
    editor = ScreenEditor(mem)
    editor.cint()
    editing = [0x11, 0x91, 0x1D, 0x9D, 0x14, 0x94, 0x22, 0x12, 0x92, 0x1C, 0x8D]
    keys = key_source()
    line = []
    lines = 0
    for step in range(1500):
        roll = rng.random()
        if roll < 0.03:
            keys.pending.append(0x0D)
        elif roll < 0.3:
            keys.pending.append(rng.choice(editing))
        else:
            keys.pending.append(rng.randrange(0x20, 0x60))
        while True:
            value = editor.chrin_keyboard(keys)
            if value is None:
                check_editor_invariants(mem)
                break
            line.append(value)
            if value == 0x0D:
                assert 1 <= len(line) <= 81
                lines += 1
                line = []
                editor.chrout(0x0D)            # as BASIC's INPUT does after the line
                check_editor_invariants(mem)
    assert lines > 25
