"""A typed key reaches the keyboard buffer at the next keyboard scan, as on a C64: the
jiffy IRQ's SCNKEY (or a program's own JSR $FF9F) takes it from the matrix; with no
scan to come the key stays in the matrix and the run ends idle (c64/machine.py,
kernal/keyboard.py)."""

import pytest

from c64.machine import C64, StopReason
from tests.conftest import assemble

SECOND = 985248
# The whole interrupt (the CPU's sequence, $FF48, $EA31 with SCNKEY finding a new key and
# putting it, $EA81) measured on the genuine ROMs (KERNAL 901227-03 / BASIC 901226-01).
IRQ_WITH_A_NEW_KEY = 1623
LOOP_PASS = 20          # at most one pass of the program's loop after the interrupt, and its RTS


def load(m, source, at=0xC000):
    code = assemble(".org $%04X\n" % at + source)
    for i, byte in enumerate(code):
        m.poke(at + i, byte)


def test_a_pressed_key_reaches_the_buffer_at_the_next_interrupts_scan():
    m = C64()
    load(m, "cli\nloop:   lda $c6\n        beq loop\n        rts\n")
    m.run(max_cycles=3000)
    pressed = m.cpu.processorCycles
    due = m.next_irq_cycle()
    assert due - pressed > 1000                   # the next interrupt is well ahead
    assert m.press(0x41)
    assert m.peek(0xC6) == 0                      # down in the matrix, not yet in the buffer
    m.call(0xC001)                                # spins until $C6 is not 0
    assert m.peek(0xC6) == 1 and m.peek(0x0277) == 0x41
    seen = m.cpu.processorCycles - due
    assert IRQ_WITH_A_NEW_KEY <= seen <= IRQ_WITH_A_NEW_KEY + LOOP_PASS


def test_a_programs_own_scnkey_call_puts_the_typed_key_in_the_buffer():
    m = C64()
    assert m.press(0x41)
    assert m.peek(0xC6) == 0
    before = m.cpu.processorCycles
    m.call(0xFF9F)                                # SCNKEY
    assert m.peek(0xC6) == 1 and m.peek(0x0277) == 0x41
    assert m.peek(0xCB) == 10                     # the key's matrix code, set by the scan
    # the JMP at $FF9F, then SCNKEY reading the whole matrix with A down, new, and putting it
    assert m.cpu.processorCycles - before == 3 + 1463


GETIN_STORE = """
loop:   jsr $FFE4
        beq loop
        sta $FB
        rts
"""


def test_a_scripted_key_waits_for_the_interrupt_not_idle():
    m = C64()
    load(m, "cli\n" + GETIN_STORE)
    m.poke(0xFB, 0)
    m.start(0xC000)
    m.type("A")
    assert m.run(max_cycles=SECOND) is StopReason.BASIC
    assert m.peek(0xFB) == 0x41


@pytest.mark.parametrize("setup", [
    "sei\n",                                          # the I flag set
    "lda #$7f\n sta $dc0d\n cli\n",                   # the CIA's timer interrupt off
    "sei\n lda #<own\n sta $0314\n lda #>own\n sta $0315\n cli\n",   # a handler that does not scan
], ids=["sei", "timer-off", "own-handler"])
def test_with_no_keyboard_scan_a_typed_key_never_arrives_and_the_run_ends_idle(setup):
    m = C64()
    load(m, setup + GETIN_STORE + """
own:    lda $DC0D
        pla
        tay
        pla
        tax
        pla
        rti
""")
    m.poke(0xFB, 0)
    m.start(0xC000)
    m.type("A")
    start = m.cycles
    assert m.run(max_cycles=100 * SECOND) is StopReason.IDLE
    assert m.cycles - start < SECOND                # not spun on to the limit
    assert m.peek(0xFB) == 0 and m.peek(0xC6) == 0  # the key stays in the matrix
    assert list(m.kernal.keyboard.arriving) == [0x41]


def test_a_handler_of_its_own_that_ends_in_the_kernals_still_gets_the_key():
    m = C64()
    load(m, "sei\n lda #<own\n sta $0314\n lda #>own\n sta $0315\n cli\n" + GETIN_STORE + """
own:    inc $FC
        jmp $EA31
""")
    m.poke(0xFB, 0)
    m.start(0xC000)
    m.type("A")
    assert m.run(max_cycles=SECOND) is StopReason.BASIC
    assert m.peek(0xFB) == 0x41


def test_a_program_busy_between_its_getin_polls_runs_on_while_the_key_waits_for_its_scan():
    m = C64()
    load(m, """
        cli
loop:   inc $FB
        bne poll
        inc $FC
poll:   jsr $FFE4
        beq loop
        rts
""")
    m.poke(0xFB, 0)
    m.poke(0xFC, 0)
    m.run(max_cycles=3000)
    due = m.next_irq_cycle() - m.cpu.processorCycles
    assert m.press(0x41)
    m.call(0xC001)
    passes = m.peek(0xFB) | (m.peek(0xFC) << 8)
    # each pass well under 100 cycles: the time to the interrupt was run, not skipped
    assert passes > due // 100


# A GETIN poll loop as games write it; each key stored at $C100 and, at $C110, CIA1
# timer A's low byte read as the loop ends: the cycle the key was seen, to the cycle.
POLL_LOOP = """
.word $c000
.org $c000
        lda #0
        sta $fd
poll:   jsr $ffe4           ; (GETIN changes X and Y: the count of keys is kept in $FD)
        cmp #0
        beq poll
        ldy $dc04
        ldx $fd
        sta $c100,x
        tya
        sta $c110,x
        inc $fd
        lda $fd
        cmp #3
        bne poll
done:   jmp done
"""


@pytest.mark.parametrize("offset", range(0, 40, 3))
def test_a_getin_poll_loop_sees_a_typed_key_on_the_same_pass_on_both_cores(offset):
    # The key reaches the buffer at the interrupt's scan; the interrupt is taken at the
    # first instruction boundary after it is due -- the GETIN trap's entry included, where
    # the fast core's loop block used to run the routine first and take it a pass later.
    from c64.cpu import CPU
    from c64.fastcpu import FastCPU
    passes = []
    for core in (FastCPU, CPU):
        m = C64(sid_seed=1, cpu_class=core)
        m.run(max_cycles=3_000_000 + offset)
        m.load_prg(assemble(POLL_LOOP))
        m.start(0xC000)
        m.type("AB{return}")
        for _ in range(400):
            m.run(max_cycles=5000)
            if m.peek(0xC102) == 13:
                break
        assert [m.peek(0xC100 + i) for i in range(3)] == [0x41, 0x42, 13]
        passes.append([m.peek(0xC110 + i) for i in range(3)])
    assert passes[0] == passes[1]
