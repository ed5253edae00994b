"""CTRL held down slows the screen's scrolling, as on a C64 (kernal.editor scroll_up).

The C64 Programmer's Reference Guide (ch. 2, LIST) says the scrolling of a listing "can
be slowed by holding down the ConTRoL <CTRL> key" and that RUN/STOP aborts a LIST.  The
KERNAL's scroll routine (scrol) does it: after moving the screen up it selects keyboard
row 7 ($DC00 = $7F); when $DC01 reads $FB (CTRL alone down) it runs a delay loop and
empties the keyboard buffer (NDX $C6).  Interrupts keep running during the delay, so TI
goes on counting.  A terminal cannot report a held modifier: the front end's Ctrl-S and a
key script's {ctrl} hold CTRL down for a while (c64.machine.C64.hold_ctrl).
"""

from c64.machine import C64, CTRL_HOLD_JIFFIES, StopReason
from kernal.basic import crunch
from kernal.dispatch import ENTRY_CYCLES, EXIT_CYCLES, INTERRUPT_CYCLES, IRQ_BODY
from kernal.keyboard import Keyboard
from tests.kernal.editor_helpers import new_editor

NDX, SHFLAG, SFDX = 0xC6, 0x028D, 0xCB
NO_KEY = 64
# The delay loop: LDY #0 (2); 256 passes of NOP/DEX/BNE (7 cycles, 6 for the last) --
# X is 24 the first time, then 0 = 256 -- each followed by DEY/BNE (5, 4 for the last);
# STY NDX (3).
DELAY = 2 + (23 * 7 + 6) + 255 * (255 * 7 + 6) + 255 * 5 + 4 + 3
JIFFY = 16421                      # PAL cycles per jiffy (CIA1 timer A latch + 1)
# SCNKEY with CTRL alone down, beyond its 59 cycles with no key: the whole matrix read (measured on
# the genuine ROMs KERNAL 901227-03 / BASIC 901226-01).
CTRL_DOWN_SCAN = 1403
# With the screen on, the VIC's bad lines take 25 x 43 of a PAL frame's 312 x 63 cycles
# from the CPU (docs/c64.md, "The VIC's bad lines"): the C64 time the loop takes.
FRAME = 312 * 63
STRETCH = FRAME / (FRAME - 25 * 43)
DELAY_SEEN = DELAY * STRETCH
# One pass of SCROL on the usual screen ($0400, no linked rows), JSR to RTS, as measured on the
# genuine ROMs KERNAL 901227-03 / BASIC 901226-01; with CTRL down its BNE MLP42 is not taken (-1).
SCROLL_PASS_CYCLES = 31455


# -- the editor and the keyboard ----------------------------------------------------------------


def delay_recorder(delays, afterwards):
    def delay(cycles, then=None):
        delays.append(cycles)
        if then is not None:
            afterwards.append(then)
    return delay


def test_a_scroll_with_ctrl_down_spends_the_rom_delay_loop_and_empties_the_buffer():
    editor, mem = new_editor()
    delays, afterwards = [], []
    editor.delay = delay_recorder(delays, afterwards)
    mem[NDX] = 3
    mem[0xDC01] = 0xFB                        # CTRL down in the row $DC00 = $7F selects
    editor.set_cursor(24, 0)
    editor.chrout(0x0D)                       # RETURN on the bottom row: one scroll
    assert delays == [SCROLL_PASS_CYCLES - 1 + DELAY] and DELAY == 458156     # about 0.47 s at 985,248 Hz
    assert mem[NDX] == 3                      # the ROM empties the buffer after its loop,
    for then in afterwards:                   # so keys typed during the delay go too
        then()
    assert mem[NDX] == 0


def test_a_scroll_without_ctrl_charges_only_its_pass_and_keeps_the_buffer():
    editor, mem = new_editor()
    delays, afterwards = [], []
    editor.delay = delay_recorder(delays, afterwards)
    mem[NDX] = 3
    mem[0xDC01] = 0xFF
    editor.set_cursor(24, 0)
    editor.chrout(0x0D)
    assert delays == [SCROLL_PASS_CYCLES] and mem[NDX] == 3 and afterwards == []


def test_ctrl_alone_with_another_key_in_its_row_is_not_the_slow_scroll():
    editor, mem = new_editor()
    delays, afterwards = [], []
    editor.delay = delay_recorder(delays, afterwards)
    mem[0xDC01] = 0x7B                        # CTRL and RUN/STOP: the ROM compares with $FB
    editor.set_cursor(24, 0)
    editor.chrout(0x0D)
    assert delays == [SCROLL_PASS_CYCLES]


def test_ctrl_held_reads_fb_in_row_7_sets_shflag_bit_2_and_types_nothing():
    mem = bytearray(0x10000)
    keyboard = Keyboard(mem)
    keyboard.reset()
    keyboard.hold_ctrl(3)
    assert keyboard.matrix(0x7F) == 0xFB
    assert keyboard.matrix(0xFE) == 0xFF      # another row: nothing down
    assert mem[SHFLAG] == 0x04 and mem[SFDX] == NO_KEY and mem[NDX] == 0
    for _ in range(3):
        keyboard.scan()
    assert keyboard.matrix(0x7F) == 0xFF and mem[SHFLAG] == 0


def test_a_typed_key_leaves_ctrl_down_but_run_stop_releases_it():
    mem = bytearray(0x10000)
    keyboard = Keyboard(mem)
    keyboard.reset()
    keyboard.hold_ctrl(100)
    keyboard.put(0x41)
    assert keyboard.matrix(0x7F) == 0xFB and mem[SHFLAG] == 0x04
    keyboard.put(0x03)                        # RUN/STOP: now seen alone in row 7, as STOP needs
    assert keyboard.matrix(0x7F) == 0x7F and mem[SHFLAG] == 0


# -- on the machine: BASIC printing past the bottom of the screen ---------------------------------


def basic_run(program, keys="", presses=()):
    """RUN `program` in warp; returns (cycles, jiffies) from RUN to READY. and the machine.
    `presses` are keys pressed after the first 60,000 cycles of the run."""
    machine = C64(sid_seed=1)
    machine.run(2_000_000)
    for number, text in program:
        machine.basic.store_line(number, crunch(text))
    machine.type("RUN{return}" + keys)
    start, jiffies = machine.cycles, machine.kernal.clock.read()
    if presses:
        assert machine.run(60_000) is StopReason.CYCLES
        for key in presses:
            machine.press(key)
    for _ in range(100):
        if machine.run(20_000_000) is StopReason.IDLE:
            return machine.cycles - start, machine.kernal.clock.read() - jiffies, machine
    raise AssertionError("the program did not end")


SIXTY_LINES = [(10, b"FOR I=1 TO 60:PRINT I:NEXT")]


def test_holding_ctrl_makes_a_printing_program_half_a_second_slower_per_scroll():
    plain, plain_jiffies, _ = basic_run(SIXTY_LINES)
    slow, jiffies, machine = basic_run(SIXTY_LINES, "{4000 ctrl}")      # held all along
    # The slow run's time is the delay loops, plus the interrupts of its longer run (219 cycles
    # each, the genuine ROM's), plus, CTRL being down all along, SCNKEY's scan of the whole
    # matrix in each of its interrupts -- CPU cycles, stretched by the bad lines in C64 time.
    irq = INTERRUPT_CYCLES + ENTRY_CYCLES + IRQ_BODY + EXIT_CYCLES
    delayed = slow - plain - (jiffies * CTRL_DOWN_SCAN + (jiffies - plain_jiffies) * irq) * STRETCH
    scrolls = round(delayed / DELAY_SEEN)
    assert 35 <= scrolls <= 62                # 60 lines from the READY. prompt's row
    assert abs(delayed - scrolls * DELAY_SEEN) < DELAY / 10
    assert slow > 10 * plain
    # The interrupts ran all along: TI counted the delay too.
    assert abs(jiffies - slow / JIFFY) < 3
    assert machine.screen_lines()[-2].rstrip() == "READY."


def test_keys_typed_while_ctrl_slows_the_scroll_are_thrown_away():
    _, _, fast = basic_run(SIXTY_LINES, presses=(0x41, 0x42))
    assert fast.screen_lines()[-1].rstrip() == "AB"       # typed ahead, shown after READY.
    _, _, slow = basic_run(SIXTY_LINES, "{4000 ctrl}", presses=(0x41, 0x42))
    assert slow.screen_lines()[-2].rstrip() == "READY."
    assert slow.screen_lines()[-1].strip() == "" and slow.kernal.keyboard.count() == 0


def hundred_line_program(machine):
    for number in range(1, 101):
        machine.basic.store_line(number, b"\x8f LINE %d" % number)            # REM LINE n


def list_cycles(keys):
    """Cycles from LIST{return} to READY. with `keys` typed after it, in warp."""
    machine = C64(sid_seed=1)
    machine.run(2_000_000)
    hundred_line_program(machine)
    machine.type("LIST{return}" + keys)
    start = machine.cycles
    for _ in range(100):
        if machine.run(20_000_000) is StopReason.IDLE:
            return machine.cycles - start
    raise AssertionError("LIST did not end")


def test_one_ctrl_of_a_key_script_holds_ctrl_for_half_a_second():
    assert CTRL_HOLD_JIFFIES == 30
    plain = list_cycles("")
    once = list_cycles("{ctrl}")
    # LIST fills the screen in a few jiffies, then each slowed scroll takes 29.5 jiffies of
    # delay and 1.7 of the pass itself: one in 30 jiffies, ten in 300.
    assert round((once - plain) / DELAY_SEEN) == 1
    assert round((list_cycles("{10 ctrl}") - plain) / DELAY_SEEN) == 10      # 300 jiffies


def test_run_stop_ends_a_list_slowed_by_ctrl_with_break():
    machine = C64(sid_seed=1)
    machine.run(2_000_000)
    hundred_line_program(machine)
    machine.type("LIST{return}{4000 ctrl}")
    machine.run(10_000_000)                  # the screen is full: each line now takes 0.47 s
    listed = sum(row.startswith("LINE", 6) or " REM " in row for row in machine.screen_lines())
    machine.press(0x03)                      # RUN/STOP (a typed key releases CTRL)
    for _ in range(20):
        if machine.run(20_000_000) is StopReason.IDLE:
            break
    rows = [row.rstrip() for row in machine.screen_lines()]
    while rows and not rows[-1]:
        rows.pop()
    assert rows[-2:] == ["BREAK", "READY."]
    assert "100 REM LINE 100" not in rows and listed > 0


def test_the_statement_after_a_slowed_scroll_runs_after_the_delay():
    # Each PRINT scrolls and spends the delay loop (about 28 jiffies); TI read by the next
    # statement must have counted it, line after line.
    program = [(10, b"DIM T(60):FOR I=1 TO 60:PRINT I:T(I)=TI:NEXT"),
               (20, b"M=1E9:FOR I=40 TO 59:D=T(I+1)-T(I):IF D<M THEN M=D"),
               (30, b"NEXT:PRINT \"MIN\";M")]
    _, _, machine = basic_run(program, "{4000 ctrl}")
    rows = [row.strip() for row in machine.screen_lines()]
    minimum = next(row for row in rows if row.startswith("MIN"))
    assert int(minimum[3:]) >= DELAY // JIFFY


def test_what_follows_a_stall_happens_once_its_time_has_passed():
    machine = C64(sid_seed=1)
    machine.run(2_000_000)
    done = []
    machine.cpu.p &= ~0x04                    # interrupts on, as when CHROUT scrolls
    machine.stall(100_000, lambda: done.append(machine.cycles))
    start = machine.cycles
    machine.run(50_000)
    assert done == []
    machine.run(100_000)
    assert len(done) == 1 and done[0] - start >= 100_000
