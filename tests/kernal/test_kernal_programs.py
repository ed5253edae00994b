"""Small .prg programs of our own (tests/programs/kernal_*.oph, assembled with Ophis at test
time) that use the KERNAL only through the real jump table, run on the machine with their
screens checked, as they would look on a C64."""

import pytest

from c64.machine import C64, StopReason
from tests.conftest import assemble_program

SECOND = 985248
JIFFY = 16422


def run(name, keys="", max_cycles=10 * SECOND):
    """Load and start tests/programs/<name>.oph; type keys as it waits; returns (machine, reason)."""
    m = C64(sid_seed=1)
    program = m.load_prg(assemble_program(name))
    m.start(program.start)
    if keys:
        m.type(keys)
    return m, m.run(max_cycles=max_cycles)


def screen(m, rows):
    return [line.rstrip() for line in m.screen_lines()[:rows]]


def test_kernal_screen_prints_colours_reverse_and_plot_positions():
    m, reason = run("kernal_screen")
    assert reason is StopReason.BASIC
    lines = screen(m, 12)
    assert lines[0] == "KERNAL SCREEN TEST"
    assert lines[1] == "RED NORMAL"
    assert lines[10] == "     PLACED0A,0B"          # PLOT set row 10 col 5; read back $0A,$0B
    assert lines[11] == "28X19"                      # SCREEN: 40 x 25
    assert m.screen_codes()[1][:3] == bytes([0x92, 0x85, 0x84])   # RVS ON: reversed
    assert m.colour_codes()[0][0] == 1 and m.colour_codes()[1][0] == 2
    assert m.colour_codes()[10][5] == 7              # {yel}


def test_kernal_input_reads_a_typed_line_back_from_the_screen():
    m, reason = run("kernal_input", "BOB{return}")
    assert reason is StopReason.BASIC
    assert screen(m, 3) == ["NAME? BOB", "HELLO, BOB!", ""]


def test_kernal_input_sees_the_line_as_edited_with_del_and_cursor_keys():
    # "BIB" at columns 6-8; two lefts -> column 7; DEL removes the "B" at 6 -> "IB";
    # "BO" overwrites it; right; RETURN reads the line from the start column: "BO".
    m, reason = run("kernal_input", "BIB{left}{left}{del}BO{right}{return}")
    assert reason is StopReason.BASIC
    assert screen(m, 2) == ["NAME? BO", "HELLO, BO!"]


def test_kernal_input_waits_idle_with_a_blinking_cursor_until_keys_come():
    m, reason = run("kernal_input")
    assert reason is StopReason.IDLE
    assert m.peek(0xCC) == 0                          # cursor enabled while CHRIN waits
    m.type("AL{return}")
    assert m.run(max_cycles=SECOND) is StopReason.BASIC
    assert screen(m, 2) == ["NAME? AL", "HELLO, AL!"]


def test_kernal_files_writes_through_a_logical_file_and_reports_kernal_errors():
    m, reason = run("kernal_files")
    assert reason is StopReason.BASIC
    assert screen(m, 3) == ["VIA FILE 1", "E02 E03 E07 S00", ""]


def test_kernal_irqhook_counts_jiffy_interrupts_through_0314():
    m, reason = run("kernal_irqhook")
    assert reason is StopReason.BASIC
    assert screen(m, 1) == ["1E 1E"]                  # 30 hooked IRQs, clock advanced 30
    # 30 jiffies of emulated time after the CLR it prints first (37,684 cycles: CHROUT of $93
    # on the genuine ROMs KERNAL 901227-03 / BASIC 901226-01)
    assert 29 * JIFFY <= m.cycles - 37_684 <= 31 * JIFFY
    assert m.peek(0x0314) | (m.peek(0x0315) << 8) == 0xEA31


def test_kernal_chrouthook_sees_every_chrout_call_through_0326():
    m, reason = run("kernal_chrouthook")
    assert reason is StopReason.BASIC
    assert screen(m, 3) == ["BBBB", "ABBA", "05"]


@pytest.mark.parametrize("keys, registers", [("X", "58 01 58"), ("1", "31 01 31")])
def test_kernal_getin_gets_the_key_in_a_and_y_and_the_old_count_in_x(keys, registers):
    m, reason = run("kernal_getin", keys)
    assert reason is StopReason.BASIC
    assert screen(m, 3) == ["PRESS A KEY", "GOT " + registers, "RUN"]


def test_kernal_getin_sees_run_stop_down_through_stop_after_getting_it():
    m, reason = run("kernal_getin", "{stop}")
    assert reason is StopReason.BASIC
    assert screen(m, 3) == ["PRESS A KEY", "GOT 03 01 03", "STOP"]


def test_kernal_keyecho_gets_each_typed_key_once_in_order():
    m, reason = run("kernal_keyecho", "HELLO{return}{clr}Q")
    assert reason is StopReason.BASIC
    assert screen(m, 1) == ["48 45 4C 4C 4F 0D 93"]
