"""The CIAs cycle by cycle (c64/cia_timers.py; docs/c64.md, "Interrupts"): the chip on its
own at explicit cycles, and 6502 programs on both cores that see a timer's underflow,
its ICR flag and its interrupt to the cycle."""

import random

import pytest

from c64.cia import CIA1
from c64.cpu import CPU
from c64.fastcpu import FastCPU
from c64.machine import C64, StopReason
from tests.conftest import assemble

CORES = {"CPU": CPU, "FastCPU": FastCPU}


def make_cia():
    cia = CIA1(lambda: 0, lambda columns: 0xFF)
    return cia


def start_one_shot(cia, latch, at, imr=0x81):
    """Latch, mask, then CRA = $19 (start, one-shot, force load) written in cycle `at`:
    the counter loads in at + 1, first counts in at + 3, underflows in at + latch + 2."""
    cia.write(0x0D, imr, at - 10)
    cia.write(0x04, latch & 0xFF, at - 9)
    cia.write(0x05, latch >> 8, at - 8)
    cia.write(0x0E, 0x19, at)


# -- the chip at explicit cycles ------------------------------------------------------------------

@pytest.mark.parametrize("after, first, later", [
    (-1, 0x00, 0x81),   # before the underflow: nothing yet
    (0, 0x00, 0x81),    # in its cycle: the flag rises after the read, the interrupt follows
    (1, 0x01, 0x00),    # the flag, not bit 7: the read drops the interrupt about to come
    (2, 0x81, 0x00),    # flag and bit 7
])
def test_an_icr_read_around_the_underflow_sees_the_flag_a_cycle_after_and_bit_7_two(after, first, later):
    cia = make_cia()
    start_one_shot(cia, 20, at=100)          # underflow in cycle 122
    assert cia.read(0x0D, 122 + after) == first
    assert cia.read(0x0D, 130) == later


def test_the_interrupt_output_goes_active_the_cycle_after_the_flag():
    cia = make_cia()
    start_one_shot(cia, 20, at=100)
    assert cia.next_irq_cycle() == 124       # the CPU sees the line from cycle 124
    assert cia.poll(123) is False
    assert cia.poll(124) is True and cia.line_seen_at(123) is False and cia.line_seen_at(124) is True


def test_bit_7_clears_the_cycle_after_the_read_and_the_line_at_once():
    cia = make_cia()
    start_one_shot(cia, 20, at=100)
    assert cia.read(0x0D, 200) == 0x81
    assert cia.poll(201) is False
    assert cia.read(0x0D, 201) == 0x80       # flags gone, bit 7 still up for one cycle
    assert cia.read(0x0D, 203) == 0x00


def test_enabling_a_flag_already_up_signals_it_one_cycle_later():
    cia = make_cia()
    start_one_shot(cia, 20, at=100, imr=0x00)
    assert cia.peek(0x0D) == 0x00
    cia.sync(150)
    assert cia.peek(0x0D) == 0x01            # masked: the flag only
    cia.write(0x0D, 0x81, 150)
    assert cia.poll(151) is False
    assert cia.poll(152) is True and cia.read(0x0D, 152) == 0x81


def test_timer_b_flag_rising_in_the_cycle_of_an_icr_read_is_lost():
    cia = make_cia()
    cia.write(0x06, 20, 90)
    cia.write(0x07, 0, 91)
    cia.write(0x0F, 0x19, 100)              # timer B one-shot: underflow in cycle 122
    assert cia.read(0x0D, 122) == 0x00
    assert cia.read(0x0D, 130) == 0x00      # (the old 6526's timer B bug)
    cia.write(0x0F, 0x19, 200)
    assert cia.read(0x0D, 230) == 0x02


def test_a_one_shot_timer_clears_its_start_bit_at_the_underflow_and_holds_the_latch():
    cia = make_cia()
    start_one_shot(cia, 20, at=100)
    assert cia.read(0x0E, 122) == 0x09       # still running in the underflow's cycle
    assert cia.read(0x0E, 123) == 0x08
    assert cia.read(0x04, 123) == 20 and cia.read(0x04, 500) == 20


def test_writing_the_high_latch_byte_of_a_running_timer_does_not_load_it():
    cia = make_cia()
    cia.write(0x04, 100, 0)
    cia.write(0x05, 0, 1)
    cia.write(0x0E, 0x11, 2)                 # running, continuous
    cia.write(0x05, 0x10, 50)
    assert cia.read(0x04, 60) == 100 - (60 - 5) and cia.read(0x05, 60) == 0
    assert cia.read(0x05, 200) == 0x10       # loaded at the next underflow only


def test_a_latch_byte_written_the_cycle_after_a_load_reaches_the_counter_too():
    cia = make_cia()
    cia.write(0x04, 50, 0)
    cia.write(0x05, 0, 1)                    # stopped: loads in cycle 2
    cia.write(0x04, 77, 3)                   # the cycle after the load
    assert cia.read(0x04, 10) == 77
    cia.write(0x04, 99, 20)                  # any later write changes only the latch
    assert cia.read(0x04, 21) == 77


def test_pb6_shows_a_one_cycle_pulse_or_a_toggle_set_high_at_start():
    cia = make_cia()
    cia.write(0x03, 0xFF, 0)                 # port B all outputs, written 0
    cia.write(0x01, 0x00, 1)
    cia.write(0x04, 9, 2)
    cia.write(0x05, 0, 3)
    cia.write(0x0E, 0x13, 10)                # start, force load, PB6 on, pulse: underflows 21, 31...
    assert [cia.read(0x01, t) & 0x40 for t in (21, 22, 23, 32)] == [0, 0x40, 0, 0x40]
    cia = make_cia()
    cia.write(0x03, 0xFF, 0)
    cia.write(0x01, 0x00, 1)
    cia.write(0x04, 9, 2)
    cia.write(0x05, 0, 3)
    cia.write(0x0E, 0x17, 50)                # toggle: high from the start, flips at each underflow
    assert [cia.read(0x01, t) & 0x40 for t in (51, 61, 62, 71, 72)] == [0x40, 0x40, 0, 0, 0x40]


def test_port_b_bits_without_a_timer_output_read_what_prb_drives():
    cia = make_cia()
    cia.write(0x03, 0x40, 0)
    cia.write(0x01, 0x00, 0)
    assert cia.read(0x01, 1) & 0x40 == 0
    cia.write(0x01, 0x40, 2)
    assert cia.read(0x01, 3) & 0x40 == 0x40


def _random_program(seed):
    rnd = random.Random(seed)
    at, program = 0, []
    for _ in range(rnd.randrange(1, 14)):
        at += rnd.randrange(1, 300)
        reg = rnd.choice((0x04, 0x05, 0x06, 0x07, 0x0D, 0x0D, 0x0E, 0x0F))
        value = rnd.randrange(256)
        if reg in (0x04, 0x06):
            value &= 0x0F                        # small latches: many underflows
        elif reg in (0x05, 0x07):
            value = rnd.choice((0, 0, 1))
        elif reg in (0x0E, 0x0F):
            value &= 0x5F
        program.append((at, reg, value, rnd.random() < 0.3))
    return program, at + rnd.randrange(1, 2000)


@pytest.mark.parametrize("seed", range(120))
def test_the_chip_brought_up_to_date_in_one_go_is_the_chip_stepped_every_cycle(seed):
    """What skips over steady counting and the underflows in one go gives is what
    stepping every cycle gives: registers read back, ICR, line, predicted interrupt."""
    program, end = _random_program(seed)
    seen = []
    for every_cycle in (False, True):
        cia, log = make_cia(), []
        for at, reg, value, read in program:
            if every_cycle:
                for cycle in range(cia.chip.cycle + 1, at):
                    cia.sync(cycle)
            cia.sync(at)
            log.append(cia.next_irq_cycle())
            if read:
                log.append(cia.read(reg, at))
            else:
                cia.write(reg, value, at)
        if every_cycle:
            for cycle in range(cia.chip.cycle + 1, end):
                cia.sync(cycle)
        log += [cia.read(reg, end) for reg in (0x04, 0x05, 0x06, 0x07, 0x0E, 0x0F)]
        log += [cia.poll(end), cia.line_edges, cia.read(0x0D, end)]
        seen.append(log)
    assert seen[0] == seen[1]


@pytest.mark.parametrize("seed", range(60))
def test_a_free_running_timer_leapt_over_is_the_timer_stepped_every_cycle(seed):
    """The KERNAL's kind of timer (A continuous, B stopped, maybe in one-shot mode) looked
    at now and then, its ICR read now and then: brought up to date in leaps over many
    underflows, it reads back what the chip stepped cycle by cycle does."""
    rnd = random.Random(seed)
    imr = rnd.choice((0x81, 0x81, 0x01, 0x83))
    latch = rnd.choice((2, 3, rnd.randrange(4, 40), rnd.randrange(40, 2000)))
    crb = rnd.choice((0x00, 0x08))
    events, at = [], 20
    for _ in range(rnd.randrange(5, 60)):
        at += rnd.choice((1, 2, 3, rnd.randrange(1, latch + 3), rnd.randrange(1, 5 * latch + 10)))
        events.append((at, rnd.choice(("sync", "sync", "icr", "counter", "due"))))
    logs = []
    for leaps in (True, False):
        cia = make_cia()
        if not leaps:
            cia.chip.advance = cia.chip.step_to
        cia.write(0x0F, crb, 1)
        cia.write(0x0D, imr, 2)
        cia.write(0x04, latch & 0xFF, 3)
        cia.write(0x05, latch >> 8, 4)
        cia.write(0x0E, 0x11, 5)                 # start, continuous, force load
        log = []
        for at, what in events:
            if what == "sync":
                log.append((cia.poll(at), cia.line_seen_at(at), cia.line_edges))
            elif what == "icr":
                log.append(cia.read(0x0D, at))
            elif what == "counter":
                log.append((cia.read(0x04, at), cia.read(0x05, at)))
            else:
                cia.sync(at)
                log.append(cia.next_irq_cycle())
        log.append((cia.chip.icr, cia.timer_a.toggle, cia.timer_a.pulse_at, cia.timer_b.pipe))
        logs.append(log)
    assert logs[0] == logs[1]


@pytest.mark.parametrize("seed", range(200))
def test_the_predicted_interrupt_is_never_late_and_is_where_stepping_finds_it(seed):
    """next_irq_cycle, as the machine uses it (look at the cycle it gives, ask again if
    the line is not seen active there), against a copy of the chip stepped every cycle;
    and timers that cannot reach the output (masked, underflowing every few cycles) do
    not make it look again and again."""
    program, end = _random_program(seed)
    cia = make_cia()
    for at, reg, value, read in program:
        cia.sync(at)
        if read:
            cia.read(reg, at)
        else:
            cia.write(reg, value, at)
    cia.read(0x0D, end)                      # the output released
    horizon = end + 20_000
    truth, actual = cia.chip.copy(), None
    for cycle in range(end + 1, horizon):
        truth.advance(cycle)
        if truth.line_seen_at(cycle):
            actual = cycle
            break
    looks = 0
    while True:
        due = cia.next_irq_cycle()
        if due is None:
            assert actual is None
            break
        assert actual is None or due <= actual, "late: %d, seen from %d" % (due, actual)
        if due >= horizon:
            assert actual is None
            break
        cia.sync(due)
        if cia.line_seen_at(due):
            assert due == actual
            break
        looks += 1
        assert looks <= 5, "looked again %d times" % looks


def test_a_masked_timer_underflowing_every_other_cycle_does_not_blur_the_prediction():
    # Timer B (masked) reloads 1 and underflows every other cycle; timer A (enabled)
    # underflows 30,000 cycles on: the prediction is that cycle at the first asking.
    cia = make_cia()
    cia.write(0x0D, 0x81, 1)
    cia.write(0x06, 1, 2)
    cia.write(0x07, 0, 3)
    cia.write(0x0F, 0x11, 4)
    cia.write(0x04, 30_000 & 0xFF, 5)
    cia.write(0x05, 30_000 >> 8, 6)
    cia.write(0x0E, 0x11, 10)                # W = 10: underflow in 30,012, seen from 30,014
    assert cia.next_irq_cycle() == 30_014
    assert cia.poll(30_013) is False and cia.poll(30_014) is True
    assert cia.read(0x0D, 30_020) == 0x83    # B's flag was up all along


@pytest.mark.parametrize("seed", range(80))
def test_a_timer_reloading_0_or_1_brought_up_to_date_in_one_go_is_the_timer_stepped(seed):
    """A timer whose latch is 0 or 1 (the KERNAL's colour stores reach $DC04 with the
    screen at $0200) underflows every cycle or two: the chip's state comes back every few
    cycles, and what skips whole periods must read back what stepping every cycle does
    (registers, ICR, the line, its edges and last changes, PB6/PB7)."""
    rnd = random.Random(seed)
    imr = rnd.choice((0x81, 0x82, 0x83, 0x01, 0x00))
    latches = (rnd.choice((0, 1)), rnd.choice((0, 1, 2, 5, 300)))
    crb = rnd.choice((0x00, 0x11, 0x19, 0x51, 0x13, 0x17))
    cra = rnd.choice((0x11, 0x13, 0x17))
    events, at = [], 20
    for _ in range(rnd.randrange(3, 30)):
        at += rnd.choice((1, 2, 3, rnd.randrange(1, 50), rnd.randrange(50, 5000)))
        events.append((at, rnd.choice(("sync", "sync", "icr", "counter", "due", "prb"))))
    logs = []
    for leaps in (True, False):
        cia = make_cia()
        if not leaps:
            cia.chip.advance = cia.chip.step_to
        cia.write(0x0D, imr, 2)
        for low, latch in ((0x04, latches[0]), (0x06, latches[1])):
            cia.write(low, latch & 0xFF, 3)
            cia.write(low + 1, latch >> 8, 4)
        cia.write(0x0F, crb, 5)
        cia.write(0x0E, cra, 6)
        log = []
        for at, what in events:
            if what == "sync":
                log.append((cia.poll(at), cia.line_seen_at(at), cia.line_edges, cia.edges_seen_by(at)))
            elif what == "icr":
                log.append(cia.read(0x0D, at))
            elif what == "counter":
                log.append([cia.read(reg, at) for reg in (0x04, 0x05, 0x06, 0x07)])
            elif what == "prb":
                log.append(cia.read(0x01, at))
            else:
                cia.sync(at)
                log.append(cia.next_irq_cycle())
        log.append((cia.chip.icr, cia.timer_a.toggle, cia.timer_a.pulse_at, cia.timer_b.toggle,
                    cia.timer_b.pulse_at, cia.chip.changes))
        logs.append(log)
    assert logs[0] == logs[1]


# -- 6502 programs, on both cores ------------------------------------------------------------------

# The start of the listings below: interrupts off and CIA1's cleared, the KERNAL banked
# out, our IRQ vector at $FFFE pointing at `handler`, timer A stopped, its latch's high
# byte 0.  PUSHED_PC_HANDLER stores the PC the interrupt pushed at $C200/$C201 and
# returns to BASIC.
OWN_IRQ_SETUP = """
        .org $C000
        sei
        lda #$7F
        sta $DC0D
        lda $DC0D
        lda #$35
        sta $01
        lda #<handler
        sta $FFFE
        lda #>handler
        sta $FFFF
        lda #0
        sta $DC0E
        sta $DC05
"""

PUSHED_PC_HANDLER = """
handler:
        pla
        pla
        sta $C200
        pla
        sta $C201
        lda $DC0D
        lda #$37
        sta $01
        rts
"""


# Our own IRQ vector at $FFFE (KERNAL banked out), timer A one-shot with the latch
# patched in at LATCH, started by the STA $DC0E at START (its write in the
# instruction's 4th cycle, W); then 2-cycle NOPs.  The handler stores the PC the
# interrupt pushed at $C200/$C201 and returns to BASIC.
IRQ_AFTER_NOPS = OWN_IRQ_SETUP + """
        lda #3
        sta $DC04
        lda #$81
        sta $DC0D
        cli
        lda #$19
        sta $DC0E
nops:   nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        jmp nops
""" + PUSHED_PC_HANDLER


def run_listing(core, source, patch, times=2):
    """Assemble, poke the bytes of `patch` ({label offset: byte}), run to BASIC `times`
    times (FastCPU translates the code on its second run); returns the machine after
    each run."""
    code = assemble(source)
    results = []
    m = C64(cpu_class=core)
    for _ in range(times):
        for i, byte in enumerate(code):
            m.poke(0xC000 + i, byte)
        for addr, byte in patch.items():
            m.poke(addr, byte)
        m.start(0xC000)
        assert m.run(max_cycles=200_000) is StopReason.BASIC, m.error
        results.append(m)
    return results


def find(source, pattern):
    """The address of the bytes `pattern` in the listing assembled at $C000."""
    code = bytes(assemble(source))
    return 0xC000 + code.index(bytes(pattern))


LATCH_LOAD = [0xA9, 0x03, 0x8D, 0x04, 0xDC]          # lda #3 / sta $DC04: its operand is patched


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("latch", range(3, 11))
def test_the_irq_comes_after_the_first_instruction_that_sees_the_line_in_its_next_to_last_cycle(core, latch):
    # W: the STA's write.  Underflow in W + latch + 2, line seen from W + latch + 4; NOP k
    # (0-based) takes W + 1 + 2k and W + 2 + 2k, and looks in its first: the IRQ follows
    # NOP k for the first k with 1 + 2k >= latch + 4, and pushes the address of NOP k + 1.
    nops = find(IRQ_AFTER_NOPS, [0x8D, 0x0E, 0xDC, 0xEA]) + 3
    latch_operand = find(IRQ_AFTER_NOPS, LATCH_LOAD) + 1
    k = -(-(latch + 3) // 2)
    for m in run_listing(CORES[core], IRQ_AFTER_NOPS, {latch_operand: latch}):
        pushed = m.peek(0xC200) | (m.peek(0xC201) << 8)
        assert pushed == nops + k + 1, "latch %d: pushed $%04X" % (latch, pushed)


# With interrupts off: two NOPs after the STA $DC0E, then LDA $DC0D (its read in its 4th
# cycle: W + 8), stored at $C200; later another read, stored at $C201.
ICR_READS = """
        .org $C000
        sei
        lda #$7F
        sta $DC0D
        lda $DC0D
        lda #0
        sta $DC0E
        sta $DC05
        lda #3
        sta $DC04
        lda #$81
        sta $DC0D
        lda #$19
        sta $DC0E
        nop
        nop
        lda $DC0D
        sta $C200
        lda $DC0D
        sta $C201
        lda $DC0D
        cli
        rts
"""


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("latch, first, later", [(7, 0x00, 0x81), (6, 0x00, 0x81), (5, 0x01, 0x00),
                                                 (4, 0x81, 0x00)])
def test_a_program_reads_the_icr_flag_and_bit_7_on_the_cycle(core, latch, first, later):
    latch_operand = find(ICR_READS, LATCH_LOAD) + 1
    for m in run_listing(CORES[core], ICR_READS, {latch_operand: latch}):
        assert (m.peek(0xC200), m.peek(0xC201)) == (first, later)


# LDA $DC04 reads in its 4th cycle; LDA $DBFF,X with X = 5 crosses a page and reads in
# its 5th; both right after starting timer A with a long latch (the counter seen from
# W + 2 on, first decremented in W + 3).
COUNTER_READS = """
        .org $C000
        sei
        lda #0
        sta $DC0E
        lda #$FF
        sta $DC04
        sta $DC05
        ldx #5
        lda #$11
        sta $DC0E
        lda $DC04
        sta $C200
        lda #$11
        sta $DC0E
        lda $DBFF,x
        sta $C201
        lda #$11
        sta $DC0E
        inc $C202
        lda $DC04
        sta $C202
        cli
        rts
"""


@pytest.mark.parametrize("core", CORES)
def test_a_register_read_happens_in_the_instructions_last_cycle(core):
    for m in run_listing(CORES[core], COUNTER_READS, {}):
        # Read in W + 4: the counter has counted once (in W + 3).
        assert m.peek(0xC200) == 0xFE
        # Page crossed: read in W + 5, counted twice.
        assert m.peek(0xC201) == 0xFD
        # After a 6-cycle INC: read in W + 10.
        assert m.peek(0xC202) == 0xFF - 7


# An IRQ that comes while I is set waits for the instruction that clears it: a CLI or a
# PLP clears I after the CPU looked at the line, so one more instruction runs first; an
# RTI's I counts at once.  Our own IRQ vector at $FFFE (KERNAL banked out); timer A
# underflows during the NOPs after SEI; {unmask} clears I; the handler stores the PC the
# interrupt pushed at $C200/$C201 and returns to BASIC.
HELD_IRQ = OWN_IRQ_SETUP + """
        lda #5
        sta $DC04
        lda #$81
        sta $DC0D
        lda #$19
        sta $DC0E
        ldx #20
wait:   dex
        bne wait
        {unmask}
after:  nop
second: nop
        nop
        nop
        jmp second
target: nop
        nop
        jmp target
""" + PUSHED_PC_HANDLER

UNMASKINGS = {
    "CLI": ("cli", "second"),                                   # one more: the NOP at after
    "PLP": ("lda #0\n        pha\n        plp", "second"),       # the same, as PLP pulls I clear
    "RTI": ("lda #>target\n        pha\n        lda #<target\n        pha\n        lda #0\n"
            "        pha\n        rti", "target"),              # at once, at RTI's target
    "PLP, I set": ("lda #4\n        pha\n        plp\n        nop\n        cli", "second"),
}


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("how", UNMASKINGS)
def test_an_irq_held_while_i_is_set_is_taken_where_the_6502_takes_it(core, how):
    unmask, label = UNMASKINGS[how]
    source = HELD_IRQ.replace("{unmask}", unmask)
    code = bytes(assemble(source))
    nop_loop = bytes([0xEA, 0xEA, 0xEA, 0x4C])              # second: nop nop nop jmp
    second = 0xC000 + code.index(nop_loop)
    target = 0xC000 + code.index(bytes([0xEA, 0xEA, 0x4C]), second - 0xC000 + 4)
    expected = second if label == "second" else target
    for m in run_listing(CORES[core], source, {}):
        pushed = m.peek(0xC200) | (m.peek(0xC201) << 8)
        assert pushed == expected, "%s: pushed $%04X, expected $%04X" % (how, pushed, expected)
