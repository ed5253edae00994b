"""The machine API the front ends and tests drive: load, start, type, run (and why it
stopped), call, reading the screen and memory, idle detection (c64/machine.py)."""

import pytest

from c64.cpu import CPU
from c64.fastcpu import FastCPU
from c64.machine import C64, StopReason
from tests.conftest import assemble

SECOND = 985248
JIFFY = 16422


def load(m, source, at=0xC000):
    code = assemble(".org $%04X\n" % at + source)
    for i, byte in enumerate(code):
        m.poke(at + i, byte)
    m.start(at)


def count_steps(m):
    """Make the CPU count the instructions it executes; returns the counter (a one-item list)."""
    counter = [0]
    cpu = m.cpu
    original_step = cpu.step

    def step():
        counter[0] += 1
        original_step()
    cpu.step = step
    return counter


GETIN_ECHO = """
wait:   jsr $FFE4               ; GETIN until a key comes
        beq wait
        cmp #$0D
        beq done
        jsr $FFD2               ; echo it
        jmp wait
done:   rts
"""


# -- why run() stops -----------------------------------------------------------------------------

def test_run_stops_idle_when_the_program_waits_for_a_key_and_none_is_queued():
    m = C64()
    load(m, GETIN_ECHO)
    start = m.cycles
    assert m.run(max_cycles=10 * SECOND) is StopReason.IDLE
    assert m.cycles - start < 50_000                  # noticed within a few polls


def test_run_stops_at_the_cycle_budget():
    m = C64()
    load(m, "loop:   jmp loop\n")
    start = m.cycles
    assert m.run(max_cycles=100_000) is StopReason.CYCLES
    assert 100_000 <= m.cycles - start < 100_000 + 400


def test_run_stops_when_the_program_returns_to_basic():
    m = C64()
    load(m, "lda #1\n ldx #2\n ldy #3\n rts\n")
    assert m.run(max_cycles=100_000) is StopReason.BASIC
    assert (m.peek(0x030C), m.peek(0x030D), m.peek(0x030E)) == (1, 2, 3)   # what SYS stores back


def test_run_stops_with_an_error_and_a_message_when_the_cpu_jams():
    m = C64()
    load(m, "nop\n .byte $02\n")
    assert m.run(max_cycles=100_000) is StopReason.ERROR
    assert "$C001" in m.error
    assert m.run(max_cycles=100_000) is StopReason.ERROR        # the machine stays stopped


def test_start_passes_the_registers_basic_would_from_030c():
    m = C64()
    m.poke(0x030C, 0x11), m.poke(0x030D, 0x22), m.poke(0x030E, 0x33)
    load(m, "sta $C100\n stx $C101\n sty $C102\n rts\n")
    m.run(max_cycles=10_000)
    assert [m.peek(0xC100 + i) for i in range(3)] == [0x11, 0x22, 0x33]


# -- keys ---------------------------------------------------------------------------------------------

def test_typed_keys_reach_a_program_polling_getin():
    m = C64()
    load(m, GETIN_ECHO)
    m.type("HI{return}")
    assert m.run(max_cycles=SECOND) is StopReason.BASIC
    assert m.screen_lines()[0].startswith("HI ")


def test_typed_keys_are_fed_one_at_a_time_only_when_the_program_waits():
    m = C64()
    load(m, """
        lda #0
        sta $FB                 ; index (GETIN changes X and Y when it takes a key)
next:   jsr $FFE4
        beq next
        ldx $FB
        sta $C100,x             ; the key...
        lda $C6
        sta $C110,x             ; ...and how many more were already in the buffer
        inc $FB
        lda $FB
        cmp #3
        bne next
        rts
""")
    m.type("ABC")
    assert m.run(max_cycles=SECOND) is StopReason.BASIC
    assert [m.peek(0xC100 + i) for i in range(3)] == [0x41, 0x42, 0x43]
    assert [m.peek(0xC110 + i) for i in range(3)] == [0, 0, 0]


def test_keys_typed_after_an_idle_stop_continue_the_program():
    m = C64()
    load(m, GETIN_ECHO)
    assert m.run(max_cycles=SECOND) is StopReason.IDLE
    m.type("A")
    assert m.run(max_cycles=SECOND) is StopReason.IDLE    # echoed, waiting again
    assert m.screen_lines()[0].startswith("A ")
    m.type("{return}")
    assert m.run(max_cycles=SECOND) is StopReason.BASIC


def test_a_line_typed_into_chrin_is_read_back_from_the_screen():
    m = C64()
    load(m, """
        ldx #0
next:   jsr $FFCF               ; CHRIN: line input
        sta $C100,x
        inx
        cmp #$0D
        bne next
        rts
""")
    assert m.run(max_cycles=SECOND) is StopReason.IDLE
    m.type("RUN 42{return}")
    assert m.run(max_cycles=SECOND) is StopReason.BASIC
    assert bytes(m.peek(0xC100 + i) for i in range(7)) == b"RUN 42\r"


def test_chrin_waiting_for_a_line_is_idle_at_once():
    m = C64()
    load(m, "jsr $FFCF\n rts\n")
    start = m.cycles
    assert m.run(max_cycles=10 * SECOND) is StopReason.IDLE
    assert m.cycles - start < 10_000


def test_a_program_polling_getin_between_long_computations_is_not_idle():
    m = C64()
    load(m, """
poll:   jsr $FFE4
        bne done
        ldx #0                  ; about 6,400 cycles of work between polls
work:   nop
        nop
        nop
        dex
        bne work
        ldx #0
work2:  nop
        nop
        nop
        dex
        bne work2
        jmp poll
done:   rts
""")
    assert m.run(max_cycles=500_000) is StopReason.CYCLES


def test_a_key_press_wakes_a_waiting_program():
    m = C64()
    load(m, GETIN_ECHO)
    assert m.run(max_cycles=SECOND) is StopReason.IDLE
    assert m.press(0x0D)
    assert m.run(max_cycles=SECOND) is StopReason.BASIC


def test_the_keyboard_buffer_takes_at_most_ten_keys():
    m = C64()
    assert all(m.press(0x41) for _ in range(10))
    assert not m.press(0x41)
    assert m.peek(0xC6) == 0                # down in the matrix: the next scan puts them
    m.call(0xFF9F)                          # SCNKEY
    assert m.peek(0xC6) == 10
    assert not m.press(0x41)


# -- idle costs no host CPU -------------------------------------------------------------------------

def test_a_getin_loop_waiting_100_emulated_seconds_executes_only_the_interrupts():
    m = C64()
    load(m, GETIN_ECHO)
    steps = count_steps(m)
    start = m.cycles
    assert m.run(max_cycles=100 * SECOND, stop_when_idle=False) is StopReason.CYCLES
    assert m.cycles - start >= 100 * SECOND
    jiffies = 100 * SECOND // JIFFY
    # Spinning through the wait loop would be millions of instructions; skipping to the next
    # interrupt leaves the IRQ handler and a couple of polls per jiffy.
    assert steps[0] < 50 * jiffies


def test_a_chrin_wait_of_100_emulated_seconds_executes_only_the_interrupts():
    m = C64()
    load(m, "jsr $FFCF\n rts\n")
    steps = count_steps(m)
    assert m.run(max_cycles=100 * SECOND, stop_when_idle=False) is StopReason.CYCLES
    assert steps[0] < 50 * (100 * SECOND // JIFFY)


def test_emulated_time_and_the_clock_still_advance_while_idle_time_is_skipped():
    m = C64()
    load(m, GETIN_ECHO)
    m.run(max_cycles=10 * SECOND, stop_when_idle=False)
    assert abs(((m.peek(0xA1) << 8) | m.peek(0xA2)) - 600) <= 1


# -- call() -------------------------------------------------------------------------------------------

def test_call_runs_a_routine_to_its_rts_and_returns_the_registers():
    m = C64()
    code = assemble(".org $C000\n txa\n clc\n adc #1\n tay\n ldx #$80\n sec\n rts\n")
    for i, byte in enumerate(code):
        m.poke(0xC000 + i, byte)
    a, x, y, p = m.call(0xC000, a=0, x=0x41)
    assert (a, x, y) == (0x42, 0x80, 0x42)
    assert p & 0x01


def test_call_leaves_the_program_counter_where_it_was():
    m = C64()
    m.poke(0xC000, 0x60)
    pc = m.cpu.pc
    m.call(0xC000)
    assert m.cpu.pc == pc


def test_call_raises_with_the_reason_when_the_routine_jams():
    m = C64()
    m.poke(0xC000, 0x02)
    with pytest.raises(RuntimeError, match=r"\$C000"):
        m.call(0xC000)


def test_call_raises_when_the_routine_runs_out_of_cycles():
    m = C64()
    m.poke(0xC000, 0x4C), m.poke(0xC001, 0x00), m.poke(0xC002, 0xC0)    # JMP $C000
    with pytest.raises(RuntimeError, match="cycles"):
        m.call(0xC000, max_cycles=10_000)


def test_call_can_call_a_routine_that_uses_the_kernal():
    m = C64()
    code = assemble(".org $C000\n lda #$58\n jsr $FFD2\n lda #$59\n jmp $FFD2\n")
    for i, byte in enumerate(code):
        m.poke(0xC000 + i, byte)
    m.call(0xC000)
    assert m.screen_lines()[0].startswith("XY")


# -- loading and reading --------------------------------------------------------------------------------

STUB_PROGRAM = """
.word $0801
.org $0801
        .word next, 10
        .byte $9E, "2064", 0
next:   .word 0
        .advance $0810, 0
        lda #$93                ; CLR
        jsr $FFD2
        ldx #0
print:  lda text,x
        beq done
        jsr $FFD2
        inx
        bne print
done:   rts
text:   .byte "LOADED AND RUN", 0
"""


def test_load_prg_puts_the_bytes_at_the_load_address_and_finds_the_sys_start():
    m = C64()
    raw = assemble(STUB_PROGRAM)
    program = m.load_prg(raw)
    assert program.load_address == 0x0801 and program.start == 0x0810
    assert program.end == 0x0801 + len(raw) - 2
    assert bytes(m.peek(0x0801 + i) for i in range(len(raw) - 2)) == raw[2:]
    assert m.peek(0x2D) | (m.peek(0x2E) << 8) == program.end      # VARTAB after a BASIC load


def test_load_prg_reads_a_file(tmp_path):
    path = tmp_path / "demo.prg"
    path.write_bytes(assemble(STUB_PROGRAM))
    m = C64()
    program = m.load_prg(path)
    m.start(program.start)
    assert m.run(max_cycles=SECOND) is StopReason.BASIC
    assert m.screen_lines()[0].rstrip() == "LOADED AND RUN"


def test_the_transcript_records_every_byte_sent_through_chrout():
    m = C64(transcript=[])
    program = m.load_prg(assemble(STUB_PROGRAM))
    m.start(program.start)
    m.run(max_cycles=SECOND)
    assert bytes(m.transcript) == b"\x93LOADED AND RUN"


PRINT_51200 = """
        .org $C000
        ldy #200
outer:  ldx #0
inner:  lda #$41
        jsr $FFD2               ; CHROUT "A", 256 x 200 times
        dex
        bne inner
        dey
        bne outer
        rts
"""


@pytest.mark.parametrize("core", [CPU, FastCPU], ids=["py65", "fast"])
def test_a_machine_without_a_transcript_keeps_nothing_of_what_it_prints(core):
    import tracemalloc
    m = C64(cpu_class=core)
    code = assemble(PRINT_51200)
    for i, byte in enumerate(code):
        m.poke(0xC000 + i, byte)
    m.start(0xC000)
    assert m.run(max_cycles=200_000_000) is StopReason.BASIC      # translated, screen scrolled
    tracemalloc.start()
    try:
        m.start(0xC000)
        assert m.run(max_cycles=200_000_000) is StopReason.BASIC
        grown = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert grown < 50_000, "%d bytes kept after printing 51,200 characters" % grown


def test_basic_direct_mode_output_goes_to_the_transcript():
    m = C64(transcript=[])
    m.type("10 REM HI{return}LIST{return}")
    m.run(max_cycles=5_000_000)
    text = bytes(m.transcript).decode("latin-1")
    assert text.count("READY.") == 2                  # at power-on and after LIST
    assert "\r10 REM HI" in text


def test_screen_lines_are_25_lines_of_40_characters():
    m = C64()
    lines = m.screen_lines()
    assert len(lines) == 25 and all(len(line) == 40 for line in lines)
    assert len(m.screen_codes()) == 25 and len(m.colour_codes()[0]) == 40


def test_the_sid_seed_makes_runs_reproducible():
    def noise(seed):
        m = C64(sid_seed=seed)
        m.poke(0xD412, 0x80)
        return [m.peek(0xD41B) for _ in range(8)]
    assert noise(5) == noise(5)


def test_reset_brings_back_the_power_on_state():
    m = C64()
    load(m, "lda #$41\n jsr $FFD2\n loop: jmp loop\n")
    m.run(max_cycles=10_000)
    m.poke(0x0314, 0)
    m.reset()
    assert all(line.strip() == "" for line in m.screen_lines())
    assert m.peek(0x0314) | (m.peek(0x0315) << 8) == 0xEA31


# -- programs that spin on the key count or the matrix (cc65's cgetc) ---------------------------------

CC65_CGETC = """
wait:   lda $C6                 ; KEY_COUNT, as cc65's cgetc polls it
        beq wait
        jsr $E5B4               ; KBDREAD: take the key
        sta $C100
        rts
"""


def test_a_program_spinning_on_c6_is_idle_and_gets_the_typed_key():
    m = C64()
    load(m, CC65_CGETC)
    start = m.cycles
    assert m.run(max_cycles=10 * SECOND) is StopReason.IDLE
    assert m.cycles - start < 3 * JIFFY                 # recognised at the first interrupt
    m.type("Z")
    assert m.run(max_cycles=SECOND) is StopReason.BASIC
    assert m.peek(0xC100) == 0x5A


def test_a_program_spinning_on_the_keyboard_matrix_gets_the_typed_key():
    m = C64()
    load(m, """
        lda #$00                ; all matrix rows
        sta $DC00
wait:   lda $DC01
        cmp #$FF
        beq wait
        sta $C100
        rts
""")
    m.type("A")
    assert m.run(max_cycles=SECOND) is StopReason.BASIC
    assert m.peek(0xC100) == 0xFF & ~0x04              # A: column bit 2


def test_a_c6_spin_of_100_emulated_seconds_executes_only_the_interrupts():
    m = C64()
    load(m, CC65_CGETC)
    steps = count_steps(m)
    assert m.run(max_cycles=100 * SECOND, stop_when_idle=False) is StopReason.CYCLES
    assert steps[0] < 50 * (100 * SECOND // JIFFY)


def test_a_loop_that_works_while_it_checks_c6_is_not_taken_for_a_wait():
    m = C64()
    load(m, """
loop:   inc $C200               ; work: a store inside the loop
        lda $C6
        beq loop
        rts
""")
    assert m.run(max_cycles=10 * JIFFY) is StopReason.CYCLES


def test_the_transcript_records_what_goes_to_the_screen_and_not_to_files(tmp_path):
    m = C64(disk_folder=str(tmp_path), transcript=[])
    code = assemble("""
        .org $C000
        lda #1
        ldx #8
        ldy #2
        jsr $FFBA               ; SETLFS 1,8,2
        lda #7
        ldx #<name
        ldy #>name
        jsr $FFBD               ; SETNAM "LOG,S,W"
        jsr $FFC0               ; OPEN
        ldx #1
        jsr $FFC9               ; CHKOUT 1
        lda #$41
        jsr $FFD2               ; "A" goes to the file
        jsr $FFCC               ; CLRCHN
        lda #1
        jsr $FFC3               ; CLOSE 1
        lda #$42
        jsr $FFD2               ; "B" goes to the screen
        rts
name:   .byte "LOG,S,W"
""")
    for i, byte in enumerate(code):
        m.poke(0xC000 + i, byte)
    m.start(0xC000)
    assert m.run(max_cycles=1_000_000) is StopReason.BASIC
    assert m.transcript == [0x42]
    assert (tmp_path / "log.seq").read_bytes() == b"A"


def test_a_python_error_inside_the_emulator_stops_the_machine_with_a_message():
    m = C64()

    def broken(cpu):
        raise ValueError("deliberate")
    addr = 0xFFD2
    target = 0xF1CA                                    # CHROUT's ROM routine
    m.kernal.replace_routine(target, broken)
    for i, byte in enumerate((0xA9, 0x41, 0x20, addr & 0xFF, addr >> 8, 0x60)):
        m.poke(0xC000 + i, byte)
    m.start(0xC000)
    assert m.run(max_cycles=1_000_000) is StopReason.ERROR
    assert "internal emulator error" in m.error and "deliberate" in m.error
