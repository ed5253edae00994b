"""The chips a text program touches: VIC-II registers and raster, SID voice 3 noise,
CIA1 keyboard matrix, timer A, interrupt control and time of day, CIA2 VIC bank
(VIC-II, SID and CIA register maps; docs/c64.md, "Interrupts" and "Keyboard")."""

import pytest

from c64.cia import CIA1
from c64.machine import C64, StopReason
from c64.sid import SID
from c64.vic import VIC, PAL
from tests.conftest import assemble

CYCLES_PER_LINE, LINES = 63, 312


class Clock:
    """A settable cycle counter standing in for the CPU's."""

    def __init__(self):
        self.now = 0

    def __call__(self):
        return self.now


def run_code(m, code, at=0xC000, max_cycles=1_000_000):
    for offset, byte in enumerate(code):
        m.poke(at + offset, byte)
    m.start(at)
    return m.run(max_cycles=max_cycles)


# -- VIC-II ------------------------------------------------------------------------------

def test_the_raster_line_advances_one_line_every_63_cycles():
    clock = Clock()
    vic = VIC(clock, PAL)
    assert vic.read(0x12) == 0
    clock.now = 62
    assert vic.read(0x12) == 0
    clock.now = 63
    assert vic.read(0x12) == 1
    clock.now = 63 * 100 + 5
    assert vic.read(0x12) == 100


def test_raster_lines_above_255_show_in_d011_bit_7_and_the_frame_wraps_after_312_lines():
    clock = Clock()
    vic = VIC(clock, PAL)
    clock.now = 63 * 255
    assert vic.read(0x12) == 255 and not vic.read(0x11) & 0x80
    clock.now = 63 * 256
    assert vic.read(0x12) == 0 and vic.read(0x11) & 0x80
    clock.now = 63 * 311
    assert vic.read(0x12) == 311 - 256 and vic.read(0x11) & 0x80
    clock.now = 63 * 312
    assert vic.read(0x12) == 0 and not vic.read(0x11) & 0x80


def test_writing_d011_bit_7_sets_the_compare_line_and_does_not_show_on_read():
    clock = Clock()
    vic = VIC(clock, PAL)
    vic.write(0x11, 0x9B)                   # what the KERNAL writes
    assert vic.read(0x11) == 0x1B           # line 0: bit 7 clear, the other bits as written


def test_unconnected_vic_register_bits_read_as_one():
    m = C64()
    assert m.peek(0xD020) == 0xFE           # border 14: PEEK(53280) = 254
    assert m.peek(0xD021) == 0xF6
    assert m.peek(0xD016) == 0xC8
    assert m.peek(0xD018) == 0x15           # KERNAL writes $14
    m.poke(0xD016, 0x08)
    assert m.peek(0xD016) == 0xC8
    m.poke(0xD019, 0x00)
    assert m.peek(0xD019) & 0x70 == 0x70
    m.poke(0xD01A, 0x00)
    assert m.peek(0xD01A) & 0xF0 == 0xF0
    for reg in range(0xD020, 0xD02F):
        m.poke(reg, 0x00)
        assert m.peek(reg) == 0xF0
    for reg in range(0xD02F, 0xD040):
        assert m.peek(reg) == 0xFF


def test_a_program_busy_waiting_on_d012_gets_past_its_loop():
    m = C64()
    # SEI / wait: LDA $D012 / CMP #$80 / BNE wait / CLI / RTS
    reason = run_code(m, [0x78, 0xAD, 0x12, 0xD0, 0xC9, 0x80, 0xD0, 0xF9, 0x58, 0x60],
                      max_cycles=CYCLES_PER_LINE * LINES * 2)
    assert reason is StopReason.BASIC


def test_a_program_sees_the_raster_move_by_the_cycles_it_spends():
    m = C64()
    # SEI / LDA $D012 / STA $FB / (60 x NOP = 120 cycles) ... / LDA $D012 / STA $FC / CLI / RTS
    code = [0x78, 0xAD, 0x12, 0xD0, 0x85, 0xFB] + [0xEA] * 60 + [0xAD, 0x12, 0xD0, 0x85, 0xFC, 0x58, 0x60]
    assert run_code(m, code) is StopReason.BASIC
    lines = (m.peek(0xFC) - m.peek(0xFB)) & 0xFF
    assert lines in (1, 2, 3)               # 120 + 7 cycles between the reads: about two lines


# -- SID ----------------------------------------------------------------------------------

def noise_bytes(seed, count=16):
    m = C64(sid_seed=seed)
    m.poke(0xD40E, 0xFF)
    m.poke(0xD40F, 0xFF)
    m.poke(0xD412, 0x80)                    # voice 3: noise, gate off
    return [m.peek(0xD41B) for _ in range(count)]


def test_sid_noise_at_d41b_is_reproducible_for_a_seed():
    assert noise_bytes(1234) == noise_bytes(1234)


def test_sid_noise_depends_on_the_seed_and_varies_from_read_to_read():
    first, second = noise_bytes(1), noise_bytes(2)
    assert first != second
    assert len(set(first)) > 4


def test_d41b_reads_no_noise_while_voice_3_is_not_set_to_noise():
    m = C64(sid_seed=7)
    m.poke(0xD412, 0x10)                    # triangle
    assert m.peek(0xD41B) == 0


def test_a_program_seeding_from_d41b_gets_the_same_bytes_under_the_same_seed():
    # LDA #$FF / STA $D40E / STA $D40F / LDA #$80 / STA $D412 / LDX #7
    # loop: LDA $D41B / STA $C100,X / DEX / BPL loop / RTS
    code = [0xA9, 0xFF, 0x8D, 0x0E, 0xD4, 0x8D, 0x0F, 0xD4, 0xA9, 0x80, 0x8D, 0x12, 0xD4, 0xA2, 0x07,
            0xAD, 0x1B, 0xD4, 0x9D, 0x00, 0xC1, 0xCA, 0x10, 0xF7, 0x60]
    results = []
    for seed in (99, 99, 100):
        m = C64(sid_seed=seed)
        assert run_code(m, code) is StopReason.BASIC
        results.append(bytes(m.peek(0xC100 + i) for i in range(8)))
    assert results[0] == results[1] != results[2]


def test_paddle_registers_read_ff_with_nothing_connected():
    sid = SID(seed=0)
    assert sid.read(0x19) == 0xFF and sid.read(0x1A) == 0xFF


# -- CIA1 keyboard matrix -----------------------------------------------------------------

def matrix_read(m, row_mask):
    m.poke(0xDC00, row_mask)
    return m.peek(0xDC01)


def test_a_pressed_key_shows_in_the_matrix_row_and_column_of_the_c64_keyboard():
    m = C64()
    assert matrix_read(m, 0x00) == 0xFF     # nothing down
    m.press(0x41)                           # A: $DC00 bit 1, $DC01 bit 2
    assert matrix_read(m, 0xFD) == 0xFF & ~0x04
    assert matrix_read(m, 0xFE) == 0xFF
    assert matrix_read(m, 0x00) == 0xFF & ~0x04
    m.call(0xFF9F)                          # $CB is SCNKEY's: the next scan sets it
    assert m.peek(0xCB) == 10               # matrix code row*8 + column


def test_a_shifted_key_also_holds_left_shift_down():
    m = C64()
    m.press(0xC1)                           # shifted A
    assert matrix_read(m, 0xFD) == 0xFF & ~0x04 & ~0x80    # A and L-SHIFT share row 1
    m.call(0xFF9F)                          # $028D is SCNKEY's: the next scan sets it
    assert m.peek(0x028D) & 0x01


def test_return_and_run_stop_are_where_the_matrix_table_puts_them():
    m = C64()
    m.press(0x0D)
    assert matrix_read(m, 0xFE) == 0xFF & ~0x02
    m = C64()
    m.press(0x03)
    assert matrix_read(m, 0x7F) == 0xFF & ~0x80


def test_a_typed_key_is_released_after_a_few_jiffies():
    m = C64()
    m.press(0x41)
    # SEI-free idle loop: CLI / JMP * ; the 60 Hz IRQ ages the key.
    run_code(m, [0x58, 0x4C, 0x01, 0xC0], max_cycles=16421 * 10)
    assert matrix_read(m, 0xFD) == 0xFF
    assert m.peek(0xCB) == 64


def test_a_program_reading_the_matrix_sees_the_key_typed_while_it_waits():
    m = C64()
    # CLI / wait: JSR GETIN / BEQ wait / LDA #$FD / STA $DC00 / LDA $DC01 / STA $FB / RTS
    code = [0x58, 0x20, 0xE4, 0xFF, 0xF0, 0xFB, 0xA9, 0xFD, 0x8D, 0x00, 0xDC, 0xAD, 0x01, 0xDC,
            0x85, 0xFB, 0x60]
    for offset, byte in enumerate(code):
        m.poke(0xC000 + offset, byte)
    m.start(0xC000)
    assert m.run(max_cycles=1_000_000) is StopReason.IDLE
    m.type("W")                             # W: $DC00 bit 1, $DC01 bit 1
    assert m.run(max_cycles=1_000_000) is StopReason.BASIC
    assert m.peek(0xFB) == 0xFF & ~0x02


# -- CIA1 timer A and the interrupt control register ----------------------------------------

def make_cia():
    clock = Clock()
    return clock, CIA1(clock, lambda columns: 0xFF)


def start_timer_a(cia, latch, control=0x11):
    cia.write(0x04, latch & 0xFF)
    cia.write(0x05, latch >> 8)
    cia.write(0x0E, control)                # start, force load, continuous


def timer_a(cia):
    return cia.read(0x04) | (cia.read(0x05) << 8)


def test_timer_a_counts_down_one_per_cycle_from_its_latch():
    # All writes in cycle 0: the counter loads one cycle later (seen from cycle 2), the
    # cycle after a load does not count, so the first decrement is seen in cycle 4.
    clock, cia = make_cia()
    start_timer_a(cia, 1000)
    clock.now = 1
    assert timer_a(cia) == 0xFFFF           # (not loaded yet: the power-on value)
    clock.now = 2
    assert timer_a(cia) == 1000
    clock.now = 3
    assert timer_a(cia) == 1000
    clock.now = 4
    assert timer_a(cia) == 999
    clock.now = 1002
    assert timer_a(cia) == 1


def test_timer_a_reloads_its_latch_when_it_underflows():
    # It reaches 0 in cycle 1002 and loads the latch in that same cycle; one period is
    # latch + 1 cycles.
    clock, cia = make_cia()
    start_timer_a(cia, 1000)
    clock.now = 1003
    assert timer_a(cia) == 1000
    clock.now = 1003 + 1001
    assert timer_a(cia) == 1000
    clock.now = 1003 + 1001 + 501
    assert timer_a(cia) == 500


def test_a_stopped_timer_holds_its_value():
    clock, cia = make_cia()
    start_timer_a(cia, 1000)
    clock.now = 302
    assert timer_a(cia) == 701
    cia.write(0x0E, 0x00)                   # stop: the two decrements on their way still come
    clock.now = 900
    assert timer_a(cia) == 699
    assert not cia.read(0x0E) & 0x01


def test_the_underflow_flag_rises_at_the_underflow_cycle_and_reading_the_icr_clears_it():
    clock, cia = make_cia()
    cia.write(0x0D, 0x81)                   # enable timer A interrupts
    start_timer_a(cia, 1000)                # underflows in cycle 1002
    clock.now = 1003
    assert not cia.poll()
    assert cia.peek(0x0D) == 0x01           # the flag is up the cycle after,
    clock.now = 1004
    assert cia.poll()                       # the IRQ line and bit 7 one cycle later
    assert cia.read(0x0D) == 0x81           # TA + "interrupt occurred"
    clock.now = 1006
    assert cia.read(0x0D) == 0x00           # the read cleared it
    assert not cia.poll()
    clock.now = 1004 + 1001
    assert cia.poll()


def test_peeking_the_icr_shows_the_flags_without_clearing_them():
    clock, cia = make_cia()
    cia.write(0x0D, 0x81)
    start_timer_a(cia, 1000)
    clock.now = 1004
    assert cia.peek(0x0D) == 0x00           # the underflow is not brought up to date by a peek
    assert cia.poll()
    assert cia.peek(0x0D) == 0x81
    assert cia.peek(0x0D) == 0x81           # a peek acknowledges nothing
    assert cia.read(0x0D) == 0x81 and cia.peek(0x0D) == 0x80     # (bit 7 clears a cycle later)
    assert cia.poll() is False
    clock.now = 1006
    assert cia.read(0x0D) == 0x00


def test_peeking_the_time_of_day_neither_latches_nor_releases_it():
    clock, cia = make_cia()
    set_tod(cia, 0x03, 0x00, 0x00, 0x00)
    assert cia.peek(0x0B) == 0x03
    clock.now = 15 * TENTH
    assert cia.peek(0x09) == 0x01           # no latch from the peek of the hours: 1.5 s later
    assert cia.read(0x0B) == 0x03
    clock.now = 25 * TENTH
    assert cia.peek(0x09) == 0x02           # the peek shows the clock; the latch holds for reads
    assert cia.read(0x09) == 0x01


def test_an_underflow_with_its_interrupt_disabled_sets_only_the_flag():
    clock, cia = make_cia()
    cia.write(0x0D, 0x7F)                   # all sources off
    start_timer_a(cia, 100)
    clock.now = 110
    assert not cia.poll()
    assert cia.read(0x0D) == 0x01


def test_a_one_shot_timer_stops_after_its_underflow():
    clock, cia = make_cia()
    cia.write(0x0D, 0x81)
    start_timer_a(cia, 100, control=0x19)   # start, one-shot, force load
    clock.now = 104
    assert cia.poll()
    cia.read(0x0D)
    assert not cia.read(0x0E) & 0x01
    clock.now = 500
    assert not cia.poll()
    assert timer_a(cia) == 100


def test_the_kernal_timer_interrupts_the_cpu_at_each_underflow():
    m = C64()
    m.plain_irq_in_one_go = False       # (the CPU's irq() is where this looks)
    period = 16421 + 1
    first = m.cia1.next_irq_cycle()
    seen = []
    original_irq = m.cpu.irq

    def recording_irq(force=False):
        seen.append(m.cycles)                 # C64 time (the bus's), as the CIA counts
        original_irq(force)
    m.cpu.irq = recording_irq
    run_code(m, [0x58, 0x4C, 0x01, 0xC0], max_cycles=period * 5 + 100)   # CLI / JMP *
    assert len(seen) == 5
    for number, cycle in enumerate(seen):
        due = first + number * period
        assert 0 <= cycle - due < 8, "IRQ %d at %d, due %d" % (number, cycle, due)


def test_the_kernal_programs_timer_a_for_60_hz():
    m = C64()
    assert m.cia1.timer_a.latch == 16421
    assert C64(ntsc=True).cia1.timer_a.latch == 17045


# -- CIA1 time of day -----------------------------------------------------------------------

def set_tod(cia, hours, minutes, seconds, tenths):
    cia.write(0x0B, hours)                  # writing hours stops the clock...
    cia.write(0x0A, minutes)
    cia.write(0x09, seconds)
    cia.write(0x08, tenths)                 # ...writing tenths starts it


def read_tod(cia):
    hours = cia.read(0x0B)                  # latches until tenths is read
    return hours, cia.read(0x0A), cia.read(0x09), cia.read(0x08)


TENTH = 98525                               # cycles in a tenth of a second (985248 Hz)


def test_time_of_day_counts_in_bcd():
    clock, cia = make_cia()
    set_tod(cia, 0x01, 0x59, 0x59, 0x08)
    assert read_tod(cia) == (0x01, 0x59, 0x59, 0x08)
    clock.now = TENTH
    assert read_tod(cia) == (0x01, 0x59, 0x59, 0x09)
    clock.now = 2 * TENTH
    assert read_tod(cia) == (0x02, 0x00, 0x00, 0x00)
    clock.now = 2 * TENTH + 135 * 10 * TENTH       # 2 minutes 15 seconds later
    assert read_tod(cia) == (0x02, 0x02, 0x15, 0x00)


def test_time_of_day_hours_are_1_to_12_with_a_pm_flag():
    clock, cia = make_cia()
    set_tod(cia, 0x11, 0x59, 0x59, 0x09)    # 11:59:59.9 AM
    clock.now = TENTH
    assert read_tod(cia) == (0x92, 0x00, 0x00, 0x00)   # 12:00:00.0 PM


def test_reading_the_hours_latches_the_time_until_the_tenths_are_read():
    clock, cia = make_cia()
    set_tod(cia, 0x03, 0x00, 0x00, 0x00)
    assert cia.read(0x0B) == 0x03
    clock.now = 15 * TENTH
    assert cia.read(0x09) == 0x00           # still the latched 3:00:00.0
    assert cia.read(0x08) == 0x00
    assert cia.read(0x09) == 0x01           # latch released: 1.5 s later


def test_writing_the_hours_stops_the_clock_until_the_tenths_are_written():
    clock, cia = make_cia()
    cia.write(0x0B, 0x05)
    clock.now = 50 * TENTH
    assert read_tod(cia)[0] == 0x05 and read_tod(cia)[2] == 0x00
    cia.write(0x08, 0x00)
    clock.now = 60 * TENTH
    assert read_tod(cia)[2] == 0x01


# -- CIA2 --------------------------------------------------------------------------------------

def test_cia2_port_a_selects_the_vic_bank_the_screen_is_read_from():
    m = C64()
    assert m.screen_address() == 0x0400
    m.poke(0xDD00, 0x02)                    # bank 1: $4000-$7FFF
    assert m.screen_address() == 0x4400
    m.mem.ram[0x4400] = 0x01                # screen code 1 = A
    assert m.screen_lines()[0][0] == "A"


def test_timer_b_underflows_raise_its_own_interrupt_flag():
    clock, cia = make_cia()
    cia.write(0x0D, 0x82)                   # enable timer B interrupts only
    cia.write(0x06, 200 & 0xFF)
    cia.write(0x07, 0)
    cia.write(0x0F, 0x11)                   # start, force load
    assert cia.next_irq_cycle() == 204      # underflow in cycle 202, the line seen from 204
    clock.now = 203
    assert not cia.poll()
    clock.now = 204
    assert cia.poll()
    assert cia.read(0x0D) == 0x82
    clock.now = 206                         # (bit 7 clears in the cycle after the read)
    assert cia.read(0x0D) == 0x00


def test_both_timers_flag_independently():
    clock, cia = make_cia()
    cia.write(0x0D, 0x83)
    start_timer_a(cia, 100)
    cia.write(0x06, 250)
    cia.write(0x07, 0)
    cia.write(0x0F, 0x11)
    assert cia.next_irq_cycle() == 104      # timer A's underflow in cycle 102
    clock.now = 104
    assert cia.read(0x0D) == 0x81
    clock.now = 190
    assert cia.read(0x0D) == 0x00
    clock.now = 254                         # timer A again in 203, timer B in 252
    assert cia.read(0x0D) == 0x83


TIMER_B_IRQ = """
        .org $C000
        sei
        lda #<hook              ; CINV -> hook
        sta $0314
        lda #>hook
        sta $0315
        lda #$7F                ; all CIA1 interrupts off, pending ones cleared
        sta $DC0D
        lda $DC0D
        lda #<5000              ; timer B: 5001-cycle period
        sta $DC06
        lda #>5000
        sta $DC07
        lda #$82                ; timer B interrupts only
        sta $DC0D
        lda #$11                ; start, force load
        sta $DC0F
        cli
wait:   lda $C100
        cmp #10
        bne wait
        rts
hook:   inc $C100
        lda $DC0D               ; acknowledge
        jmp $EA81
"""


def test_a_program_can_run_its_interrupts_from_timer_b():
    m = C64()
    for i, byte in enumerate(assemble(TIMER_B_IRQ)):
        m.poke(0xC000 + i, byte)
    m.poke(0xC100, 0)
    m.start(0xC000)
    start = m.cycles
    assert m.run(max_cycles=1_000_000) is StopReason.BASIC
    # The first interrupt comes one period after the program started the timer, not when
    # the machine next happens to look at the CIA.
    assert 10 * 5001 <= m.cycles - start < 10 * 5001 + 1000


def test_a_program_that_speeds_up_timer_a_gets_its_first_interrupt_on_time():
    m = C64()
    source = TIMER_B_IRQ.replace("$DC06", "$DC04").replace("$DC07", "$DC05") \
        .replace("#$82", "#$81").replace("$DC0F", "$DC0E")
    for i, byte in enumerate(assemble(source)):
        m.poke(0xC000 + i, byte)
    m.poke(0xC100, 0)
    m.start(0xC000)
    start = m.cycles
    assert m.run(max_cycles=1_000_000) is StopReason.BASIC
    assert 10 * 5001 <= m.cycles - start < 10 * 5001 + 1000


# -- VIC-II raster interrupt latch -------------------------------------------------------------------

def test_the_raster_compare_latches_d019_bit_0_when_the_line_starts():
    clock = Clock()
    vic = VIC(clock, PAL)
    vic.write(0x12, 100)                    # compare line 100
    clock.now = 100 * 63 - 1
    assert vic.read(0x19) & 0x01 == 0
    clock.now = 100 * 63
    assert vic.read(0x19) & 0x01 == 1
    assert vic.read(0x19) & 0x80 == 0       # not enabled in $D01A: no IRQ


def test_writing_one_to_d019_acknowledges_and_the_latch_sets_again_next_frame():
    clock = Clock()
    vic = VIC(clock, PAL)
    vic.write(0x12, 10)
    clock.now = 10 * 63
    assert vic.read(0x19) & 0x01
    vic.write(0x19, 0x01)
    assert vic.read(0x19) & 0x0F == 0
    clock.now = 312 * 63 + 10 * 63
    assert vic.read(0x19) & 0x01


def test_peeking_d019_does_not_bring_the_latch_up_to_date_as_a_read_does():
    clock = Clock()
    vic = VIC(clock, PAL)
    vic.write(0x12, 100)
    clock.now = 100 * 63
    assert vic.peek(0x19) == 0x70           # the compare is not latched by a peek
    assert vic.read(0x19) == 0x71
    assert vic.peek(0x19) == 0x71 and vic.peek(0x12) == vic.read(0x12) == 100


def test_an_enabled_raster_compare_pulls_the_irq_line_at_its_line():
    clock = Clock()
    vic = VIC(clock, PAL)
    vic.write(0x11, 0x9B)                   # compare bit 8 set: line 256 + 44 = 300
    vic.write(0x12, 44)
    vic.write(0x1A, 0x01)
    assert vic.compare_line() == 300
    assert vic.next_irq_cycle() == 300 * 63
    assert not vic.poll()
    clock.now = 300 * 63 + 5
    assert vic.poll()
    assert vic.read(0x19) == 0xF1           # raster latch + IRQ bit + unused bits
    vic.write(0x19, 0x0F)
    assert not vic.poll()
    assert vic.next_irq_cycle() == 312 * 63 + 300 * 63


def test_a_compare_line_past_the_last_line_never_matches():
    clock = Clock()
    vic = VIC(clock, PAL)
    vic.write(0x11, 0x9B)
    vic.write(0x12, 0xFF)                   # line 511
    vic.write(0x1A, 0x01)
    assert vic.next_irq_cycle() is None
    clock.now = 5 * 312 * 63
    assert not vic.poll()


def test_a_program_can_wait_for_a_raster_line_by_polling_d019():
    m = C64()
    # SEI / LDA #0 / STA $D012 / LDA #$1B / STA $D011 / LDA #$0F / STA $D019
    # wait: LDA $D019 / AND #1 / BEQ wait / STA $D019 / LDA $D012 / STA $C100 / CLI / RTS
    code = [0x78, 0xA9, 0x00, 0x8D, 0x12, 0xD0, 0xA9, 0x1B, 0x8D, 0x11, 0xD0, 0xA9, 0x0F, 0x8D, 0x19,
            0xD0, 0xAD, 0x19, 0xD0, 0x29, 0x01, 0xF0, 0xF9, 0x8D, 0x19, 0xD0, 0xAD, 0x12, 0xD0,
            0x8D, 0x00, 0xC1, 0x58, 0x60]
    assert run_code(m, code, max_cycles=2 * CYCLES_PER_LINE * LINES) is StopReason.BASIC
    assert m.mem.ram[0xC100] < 2             # it left the loop at the top of a frame
    # The 60 Hz IRQ that came while I was set is taken after CLI and the RTS, as a 6502
    # takes a held IRQ one instruction after CLI: its handler ran before the return.
    assert m.vic.raster() > m.mem.ram[0xC100] + 3


@pytest.mark.parametrize("key, row, column, shifted", [
    (0x14, 0, 0, False),    # DEL
    (0x85, 0, 4, False),    # F1
    (0x89, 0, 4, True),     # F2 = SHIFT+F1
    (0x11, 0, 7, False),    # CRSR down
    (0x91, 0, 7, True),     # CRSR up = SHIFT+CRSR down
    (0x5A, 1, 4, False),    # Z
    (0x58, 2, 7, False),    # X
    (0x4E, 4, 7, False),    # N
    (0x2C, 5, 7, False),    # ,
    (0x13, 6, 3, False),    # HOME
    (0x93, 6, 3, True),     # CLR = SHIFT+HOME
    (0x2F, 6, 7, False),    # /
    (0x31, 7, 0, False),    # 1
    (0x21, 7, 0, True),     # ! = SHIFT+1
    (0x20, 7, 4, False),    # SPACE
    (0x51, 7, 6, False),    # Q
])
def test_typed_keys_press_the_matrix_position_of_the_c64_key(key, row, column, shifted):
    m = C64()
    m.press(key)
    expected = {row: 1 << column}
    if shifted:
        expected[1] = expected.get(1, 0) | 0x80          # L-SHIFT: $DC00 bit 1, $DC01 bit 7
    for line in range(8):
        assert matrix_read(m, 0xFF & ~(1 << line)) == 0xFF & ~expected.get(line, 0), "row %d" % line
    m.call(0xFF9F)                          # SCNKEY sets $CB
    assert m.peek(0xCB) == row * 8 + column


# -- timer B counting timer A, CNT modes, the TOD alarm, CIA2's NMI -------------------------

def timer_b(cia):
    return cia.read(0x06) | (cia.read(0x07) << 8)


def test_timer_b_counts_timer_a_underflows_and_flags_when_it_passes_0():
    clock, cia = make_cia()
    cia.write(0x0D, 0x82)                   # timer B's interrupt only
    cia.write(0x06, 3)
    cia.write(0x07, 0)
    cia.write(0x0F, 0x51)                   # start, force load, count timer A underflows (%10)
    start_timer_a(cia, 99)                  # A underflows every 100 cycles, first in 101
    clock.now = 2
    assert timer_b(cia) == 3
    clock.now = 103
    assert timer_b(cia) == 3                # A's underflow reaches B two cycles later
    clock.now = 104
    assert timer_b(cia) == 2                # one count for each of A's underflows
    clock.now = 350
    assert timer_b(cia) == 0
    assert cia.next_irq_cycle() == 404      # A's 4th underflow (401) takes B past 0 (402)
    assert not cia.poll()
    clock.now = 404
    assert cia.poll() and cia.read(0x0D) == 0x83    # (A's flag is set too, masked or not)
    assert timer_b(cia) == 3                # reloaded from its latch
    assert cia.next_irq_cycle() == 804


def test_timer_b_counting_a_follows_a_reprogrammed_timer_a():
    clock, cia = make_cia()
    cia.write(0x06, 10)
    cia.write(0x07, 0)
    cia.write(0x0F, 0x51)
    start_timer_a(cia, 99)
    clock.now = 250                         # two of A's underflows: B at 8
    assert timer_b(cia) == 8
    start_timer_a(cia, 9)                   # A now underflows every 10 cycles, from 261
    clock.now = 304                         # 261, 271, 281, 291, 301 (B counts 2 cycles later)
    assert timer_b(cia) == 3
    cia.write(0x0E, 0x00)                   # A stopped: B stays
    clock.now = 1000
    assert timer_b(cia) == 3


def test_timers_set_to_count_the_cnt_pin_do_not_count():
    clock, cia = make_cia()
    start_timer_a(cia, 1000, control=0x31)  # start, force load, count CNT
    cia.write(0x06, 50)
    cia.write(0x07, 0)
    cia.write(0x0F, 0x31)                   # timer B: count CNT (%01)
    clock.now = 5000
    assert timer_a(cia) == 1000 and timer_b(cia) == 50
    assert cia.next_irq_cycle() is None and cia.read(0x0E) & 0x01


def set_tod(cia, hours, minutes, seconds, tenths, alarm=False):
    cia.write(0x0F, 0x80 if alarm else 0x00)
    cia.write(0x0B, hours)
    cia.write(0x0A, minutes)
    cia.write(0x09, seconds)
    cia.write(0x08, tenths)
    cia.write(0x0F, 0x00)


def test_the_tod_alarm_sets_its_flag_when_the_clock_reaches_it():
    clock, cia = make_cia()
    set_tod(cia, 0x01, 0x00, 0x00, 0x00)                  # 1:00:00.0 AM
    set_tod(cia, 0x01, 0x00, 0x02, 0x05, alarm=True)      # alarm at 1:00:02.5
    assert read_tod(cia) == (0x01, 0x00, 0x00, 0x00)      # (the alarm writes left the time alone)
    cia.write(0x0D, 0x84)
    due = cia.next_irq_cycle()
    assert due == 2_463_120 + 2               # 2.5 s at 985,248 Hz; the line seen 2 cycles later
    clock.now = due - 1
    assert not cia.poll()
    clock.now = due
    assert cia.poll()
    assert read_tod(cia) == (0x01, 0x00, 0x02, 0x05)
    assert cia.read(0x0D) == 0x84
    clock.now = due + 2
    assert cia.read(0x0D) == 0x00


def test_the_alarm_flag_is_set_even_when_masked_and_pulls_no_line():
    clock, cia = make_cia()
    set_tod(cia, 0x01, 0x00, 0x00, 0x00)
    set_tod(cia, 0x01, 0x00, 0x00, 0x03, alarm=True)
    clock.now = 4 * TENTH
    assert not cia.poll()
    assert cia.read(0x0D) == 0x04


# A CIA2 timer A NMI handler at $C100 counting its NMIs at $C0F0 (reading $DD0D or not).
NMI_SETUP = [0x78,                              # SEI (the IRQ is not what is counted)
             0xA9, 0x00, 0x8D, 0x18, 0x03,      # LDA #<$C100 / STA $0318
             0xA9, 0xC1, 0x8D, 0x19, 0x03,      # LDA #>$C100 / STA $0319
             0xA9, 0xE7, 0x8D, 0x04, 0xDD,      # timer A latch $03E7 (1000 cycles a period)
             0xA9, 0x03, 0x8D, 0x05, 0xDD,
             0xA9, 0x81, 0x8D, 0x0D, 0xDD,      # enable timer A's interrupt: NMI
             0xA9, 0x11, 0x8D, 0x0E, 0xDD,      # start, force load, continuous
             0x4C, 0x1F, 0xC0]                  # $C01F: JMP $C01F


def run_nmi_program(core, acknowledge):
    m = C64(cpu_class=core)
    handler = [0xEE, 0xF0, 0xC0]                # INC $C0F0
    if acknowledge:
        handler += [0xAD, 0x0D, 0xDD]           # LDA $DD0D: the line goes inactive
    handler += [0x40]                           # RTI
    for offset, byte in enumerate(NMI_SETUP):
        m.poke(0xC000 + offset, byte)
    for offset, byte in enumerate(handler):
        m.poke(0xC100 + offset, byte)
    m.poke(0xC0F0, 0)
    m.start(0xC000)
    m.run(max_cycles=100_500)
    return m.peek(0xC0F0)


@pytest.mark.parametrize("core", ("CPU", "FastCPU"))
def test_cia2_timer_interrupts_reach_the_cpu_as_nmis(core):
    from c64.cpu import CPU
    from c64.fastcpu import FastCPU
    cpu_class = {"CPU": CPU, "FastCPU": FastCPU}[core]
    assert run_nmi_program(cpu_class, acknowledge=True) in (99, 100)    # one a 1000 cycles
    assert run_nmi_program(cpu_class, acknowledge=False) == 1            # NMI is an edge: once
