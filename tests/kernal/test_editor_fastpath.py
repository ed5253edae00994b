"""The editor's one-step path for plain characters must do exactly what its general path does."""

import random

from c64.machine import C64


def _machine(general_only):
    m = C64()
    if general_only:
        m.kernal.editor.print_in_line = lambda code: False
    return m


def test_plain_characters_leave_memory_exactly_as_the_general_path_does():
    rng = random.Random(64)
    fast, slow = _machine(False), _machine(True)
    codes = [rng.choice((0x41, 0x20, 0x2E, 0x31, 0xC1, 0xA0, 0x22, 0x0D, 0x12, 0x92, 0x1D, 0x9D,
                         0x11, 0x91, 0x14, 0x94, 0x05, 0x1C, 0x13, 0x93)) for _ in range(4000)]
    for step, code in enumerate(codes):
        fast.kernal.editor.chrout(code)
        slow.kernal.editor.chrout(code)
        if step % 50 == 0 or code not in (0x41, 0x20, 0x2E, 0x31, 0xC1, 0xA0):
            assert fast.mem.ram == slow.mem.ram, "RAM differs after %d codes" % (step + 1)
            assert fast.mem.io.colour_ram == slow.mem.io.colour_ram
    assert fast.mem.ram == slow.mem.ram


def test_the_one_step_path_is_taken_for_a_plain_letter_in_the_middle_of_a_row():
    m = C64()
    editor = m.kernal.editor
    editor.set_cursor(5, 10)
    assert editor.print_in_line(0x41)
    assert m.screen_lines()[5][10] == "A"
    assert editor.get_cursor() == (5, 11)


def test_cursor_left_inside_a_row_takes_the_one_step_path_and_at_column_0_the_general_one():
    m = C64()
    editor = m.kernal.editor
    editor.set_cursor(5, 10)
    assert editor.print_in_line(0x9D)
    assert editor.get_cursor() == (5, 9)
    editor.set_cursor(5, 0)
    assert not editor.print_in_line(0x9D)


def test_scrolling_copies_rows_and_colours_like_the_general_path():
    fast, slow = C64(), C64()
    slow.kernal.editor.copy_rows_as_slices = False
    for m in (fast, slow):
        for row in range(30):
            m.kernal.editor.chrout((0x1C, 0x1E, 0x1F)[row % 3])      # red, green, blue lines
            for ch in b"LINE %02d" % row:
                m.kernal.editor.chrout(ch)
            m.kernal.editor.chrout(0x0D)
    assert fast.screen_lines()[0].startswith("LINE 06")
    assert fast.mem.ram == slow.mem.ram
    assert fast.mem.io.colour_ram == slow.mem.io.colour_ram


def test_the_last_column_of_a_row_takes_the_general_path():
    m = C64()
    editor = m.kernal.editor
    editor.set_cursor(5, 39)
    assert not editor.print_in_line(0x41)
