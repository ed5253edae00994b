"""Interrupts in emulated time: the 60 Hz jiffy IRQ through $FFFE -> $FF48 -> ($0314) ->
$EA31 -> $EA81, programs hooking $0314, BRK through ($0316), RESTORE's NMI through ($0318)
(docs/c64.md, "Interrupts"), and the VIC's raster interrupt."""

import time

import pytest

from c64.cpu import CPU
from c64.fastcpu import FastCPU
from c64.machine import C64, StopReason
from tests.conftest import assemble

PERIOD = 16421 + 1              # CIA1 timer A with the KERNAL's PAL latch: one jiffy
SECOND = 985248                 # PAL cycles in a second


def load(m, source):
    code = assemble(".org $C000\n" + source)
    for i, byte in enumerate(code):
        m.poke(0xC000 + i, byte)
    m.start(0xC000)


def jiffies(m):
    return (m.peek(0xA0) << 16) | (m.peek(0xA1) << 8) | m.peek(0xA2)


def trace_pcs(m, max_cycles):
    """Run, recording the PC of every instruction executed."""
    pcs = []
    cpu = m.cpu
    original_step = cpu.step

    def step():
        pcs.append(cpu.pc)
        original_step()
    cpu.step = step
    m.run(max_cycles=max_cycles)
    cpu.step = original_step
    return pcs


SPIN = """
        cli
loop:   jmp loop
"""


def test_the_jiffy_irq_goes_through_ff48_the_0314_vector_ea31_and_ea81():
    m = C64(cpu_class=CPU)            # py65 stepping: the trace hooks step()
    m.plain_irq_in_one_go = False     # (else the IRQ's code is not stepped: see below)
    load(m, SPIN)
    pcs = trace_pcs(m, PERIOD + 2000)
    entry = pcs.index(0xFF48)
    path = pcs[entry:entry + 18]
    assert path[:10] == [0xFF48, 0xFF49, 0xFF4A, 0xFF4B, 0xFF4C, 0xFF4D, 0xFF4E, 0xFF51, 0xFF53, 0xFF58]
    assert path[10] == 0xEA31                    # JMP ($0314) with the default vector
    assert path[11:17] == [0xEA81, 0xEA82, 0xEA83, 0xEA84, 0xEA85, 0xEA86]   # PLA TAY PLA TAX PLA RTI
    assert path[17] == 0xC001                    # back in the loop


def test_the_first_jiffy_irq_comes_one_timer_period_after_ioinit():
    m = C64(cpu_class=CPU)            # py65 stepping: the trace hooks step()
    m.plain_irq_in_one_go = False
    due = m.cia1.next_irq_cycle()
    load(m, SPIN)
    pcs_cycles = []
    cpu = m.cpu
    original_step = cpu.step

    def step():
        if cpu.pc == 0xFF48:
            pcs_cycles.append(m.cycles)       # C64 time (the bus's), as the CIA counts
        original_step()
    cpu.step = step
    m.run(max_cycles=3 * PERIOD + 2000)
    assert len(pcs_cycles) == 3
    for number, cycle in enumerate(pcs_cycles):
        # due: the cycle the CPU first sees the line; it takes the IRQ after the first
        # instruction whose next-to-last cycle sees it (the loop's 3-cycle JMP: 2 to 4
        # cycles later), then irq() itself takes 7 cycles.
        assert 2 + 7 <= cycle - (due + number * PERIOD) <= 4 + 7


# Programs the KERNAL's own IRQ interrupts: registers and flags that change every pass, the
# stack pointer low (the entry's LDA $0104,X then crosses a page), a program waiting for a
# key by polling the key count $C6 (the handler leaves the interrupt itself then).
BUSY = """
        cli
loop:   inx
        iny
        tya
        adc #3
        sta $C100,x
        sed
        sbc $C100,y
        cld
        php
        pla
        sta $C200,x
        jmp loop
"""
LOW_STACK = """
        ldx #$04
        txs
        cli
loop:   inc $C100
        jmp loop
"""
KEY_WAIT = """
        cli
wait:   lda $C6
        beq wait
        jsr $FFE4
        sta $C100
        inc $C101
        jmp wait
"""


def irq_states(core, source, plain, keys=""):
    m = C64(cpu_class=core)
    m.plain_irq_in_one_go = plain
    load(m, source)
    states = []
    for stop in (PERIOD // 3, 2 * PERIOD, 3 * PERIOD + 50, 10 * PERIOD):
        m.run(max_cycles=stop, stop_when_idle=False)
        cpu = m.cpu
        states.append((m.cycles, cpu.a, cpu.x, cpu.y, cpu.sp, cpu.p, cpu.pc, bytes(m.mem.ram)))
        if keys:
            m.type(keys)
    return states, jiffies(m)


@pytest.mark.parametrize("core", [CPU, FastCPU])
@pytest.mark.parametrize("source, keys", [(SPIN, ""), (BUSY, ""), (LOW_STACK, ""), (KEY_WAIT, "AB")])
def test_the_kernals_own_irq_run_in_one_call_leaves_what_its_instructions_leave(core, source, keys):
    """The machine runs the 60 Hz IRQ with the vector at $0314 untouched in one Python call
    (Kernal.default_irq): the same cycles, registers, flags and RAM (the stack bytes
    included) at every stop as the CPU taking it and running $FF48, $EA31 and $EA81."""
    in_one_go, clock = irq_states(core, source, True, keys)
    assert clock >= 10
    assert in_one_go == irq_states(core, source, False, keys)[0]


def test_the_kernals_own_irq_in_one_call_steps_none_of_its_instructions():
    m = C64(cpu_class=CPU)
    load(m, SPIN)
    before = jiffies(m)
    pcs = trace_pcs(m, 10 * PERIOD)
    assert jiffies(m) - before >= 9
    assert not {0xFF48, 0xEA81} & set(pcs) and set(pcs) == {0xC000, 0xC001}


def test_a_program_hooking_0314_has_its_irq_stepped_not_run_in_one_call():
    m = C64(cpu_class=CPU)
    load(m, COUNT_IRQS)
    pcs = trace_pcs(m, 5 * PERIOD)
    assert pcs.count(0xFF48) >= 4 and 0xEA81 in pcs


COUNT_IRQS = """
        sei
        lda #<hook              ; CINV ($0314) -> hook
        sta $0314
        lda #>hook
        sta $0315
        lda #0
        sta count
        cli
wait:   lda count
        cmp #60
        bne wait
        sei
        lda #$31                ; give CINV back to $EA31
        sta $0314
        lda #$EA
        sta $0315
        cli
        rts
hook:   inc count               ; count, then the KERNAL's own IRQ work
        jmp $EA31
count:  .byte 0
"""


def test_a_program_hooking_0314_counts_60_irqs_in_one_second_of_emulated_time():
    m = C64()
    m.poke(0xA0, 0), m.poke(0xA1, 0), m.poke(0xA2, 0)
    start = m.cycles
    load(m, COUNT_IRQS)
    assert m.run(max_cycles=2 * SECOND) is StopReason.BASIC
    elapsed = m.cycles - start
    assert 59 * PERIOD <= elapsed <= 61 * PERIOD
    assert jiffies(m) == 60                      # chaining to $EA31 kept the clock running


SKIP_UDTIM = """
        sei
        lda #<hook
        sta $0314
        lda #>hook
        sta $0315
        cli
wait:   lda count
        cmp #10
        bne wait
        sei
        lda #$31
        sta $0314
        lda #$EA
        sta $0315
        cli
        rts
hook:   inc count
        lda $DC0D               ; acknowledge CIA1, as $EA31 would have
        jmp $EA81               ; straight to the register restore and RTI
count:  .byte 0
"""


def test_a_hook_that_ends_in_ea81_runs_without_the_kernals_clock_update():
    m = C64()
    m.poke(0xA0, 0), m.poke(0xA1, 0), m.poke(0xA2, 5)
    load(m, SKIP_UDTIM)
    assert m.run(max_cycles=SECOND) is StopReason.BASIC
    assert jiffies(m) == 5


def test_the_jiffy_clock_advances_60_times_a_second_of_emulated_time_while_a_program_waits():
    m = C64()
    load(m, """
wait:   jsr $FFE4               ; GETIN until a key comes
        beq wait
        rts
""")
    before = jiffies(m)
    m.run(max_cycles=10 * SECOND, stop_when_idle=False)
    assert abs((jiffies(m) - before) - 600) <= 1


def test_rdtim_in_a_program_sees_the_clock_move_with_emulated_time():
    m = C64()
    load(m, """
        lda #0                  ; SETTIM 0
        tax
        tay
        jsr $FFDB
wait:   jsr $FFDE               ; RDTIM until A (the low byte) reaches 30
        cmp #30
        bcc wait
        rts
""")
    start = m.cycles
    assert m.run(max_cycles=SECOND) is StopReason.BASIC
    assert 29 * PERIOD <= m.cycles - start <= 31 * PERIOD


def test_no_irq_is_taken_while_the_program_runs_with_interrupts_masked():
    m = C64()
    load(m, """
        sei
loop:   jmp loop
""")
    before = jiffies(m)
    m.run(max_cycles=SECOND // 2)
    assert jiffies(m) == before


def test_the_default_irq_blinks_the_cursor_while_chrin_waits():
    m = C64()
    load(m, """
        jsr $FFCF
        rts
""")
    assert m.run(max_cycles=100_000) is StopReason.IDLE
    row, column = m.peek(0xD6), m.peek(0xD3)
    cell = 0x0400 + row * 40 + column
    assert m.peek(cell) == 0x20
    m.run(max_cycles=25 * PERIOD, stop_when_idle=False)
    assert m.peek(cell) == 0xA0                  # the space under the cursor shown reversed


def test_an_irq_with_the_kernal_banked_out_takes_the_ram_vector_at_fffe():
    m = C64()
    load(m, """
        sei
        lda #$35                ; KERNAL out, I/O in
        sta $01
        lda #<handler
        sta $FFFE
        lda #>handler
        sta $FFFF
        cli
wait:   lda count
        cmp #3
        bne wait
        sei
        lda #$37
        sta $01
        cli
        rts
handler:
        pha
        inc count
        lda $DC0D               ; acknowledge the timer
        pla
        rti
.alias count $C100
""")
    m.poke(0xC100, 0)
    assert m.run(max_cycles=SECOND) is StopReason.BASIC
    assert m.peek(0xC100) == 3


def test_brk_goes_through_the_0316_vector():
    m = C64()
    load(m, """
        lda #<handler           ; CBINV ($0316) -> handler
        sta $0316
        lda #>handler
        sta $0317
        brk
        .byte $EA               ; BRK's padding byte, skipped by the return
        lda #$42
        sta result
        rts
handler:
        inc seen
        jmp $EA81               ; restore Y X A and RTI past the BRK
.alias seen $C100
.alias result $C101
""")
    m.poke(0xC100, 0), m.poke(0xC101, 0)
    assert m.run(max_cycles=100_000) is StopReason.BASIC
    assert (m.peek(0xC100), m.peek(0xC101)) == (1, 0x42)


NMI_HOOK = """
        lda #<handler           ; NMINV ($0318) -> handler
        sta $0318
        lda #>handler
        sta $0319
wait:   jsr $FFE4               ; wait for a key; RESTORE arrives meanwhile
        beq wait
        rts
handler:
        inc $C100
        rti
"""


def test_restore_raises_an_nmi_through_the_0318_vector():
    m = C64()
    m.poke(0xC100, 0)
    load(m, NMI_HOOK)
    assert m.run(max_cycles=100_000) is StopReason.IDLE
    m.type("{restore}")
    m.run(max_cycles=100_000)
    assert m.peek(0xC100) == 1
    m.type("x")
    assert m.run(max_cycles=100_000) is StopReason.BASIC


def test_restore_without_run_stop_returns_to_the_program():
    m = C64()
    load(m, """
wait:   jsr $FFE4
        beq wait
        sta $C100
        rts
""")
    assert m.run(max_cycles=100_000) is StopReason.IDLE
    m.type("{restore}q")
    assert m.run(max_cycles=1_000_000) is StopReason.BASIC
    assert m.peek(0xC100) == 0x51


def test_run_stop_with_restore_warm_starts_to_ready():
    m = C64()
    load(m, """
        lda #$41
        jsr $FFD2
        lda #0                  ; scribble on CBINV: the warm start must put it back
        sta $0316
wait:   jmp wait
""")
    m.run(max_cycles=10_000)
    m.press(0x03)                                # RUN/STOP held...
    m.restore()                                  # ...and RESTORE
    m.run(max_cycles=1_000_000)
    lines = [line.rstrip() for line in m.screen_lines()]
    assert "READY." in lines
    assert "A" not in "".join(lines).replace("READY.", "")      # CINT cleared the screen
    assert m.peek(0x0316) | (m.peek(0x0317) << 8) == 0xFE66


def test_an_ntsc_machine_also_ticks_60_jiffies_a_second():
    m = C64(ntsc=True)
    load(m, """
wait:   jsr $FFE4
        beq wait
        rts
""")
    before = jiffies(m)
    m.run(max_cycles=10 * 1022727, stop_when_idle=False)
    assert abs((jiffies(m) - before) - 600) <= 1


def test_a_0314_hook_keeps_counting_while_the_program_waits_idle_in_chrin():
    m = C64()
    load(m, """
        sei
        lda #<hook
        sta $0314
        lda #>hook
        sta $0315
        cli
        jsr $FFCF               ; wait for a line: idle, time is skipped between IRQs
        rts
hook:   inc $C100
        bne done
        inc $C101
done:   jmp $EA31
""")
    m.poke(0xC100, 0), m.poke(0xC101, 0)
    m.run(max_cycles=SECOND, stop_when_idle=False)
    count = m.peek(0xC100) | (m.peek(0xC101) << 8)
    assert 59 <= count <= 60


RASTER_IRQ = """
        .org $C000
        sei
        lda #$7F                ; CIA1 interrupts off
        sta $DC0D
        lda $DC0D
        lda #<hook
        sta $0314
        lda #>hook
        sta $0315
        lda #100                ; raster line 100
        sta $D012
        lda #$1B                ; compare bit 8 = 0
        sta $D011
        lda #$01                ; raster interrupt on
        sta $D01A
        cli
wait:   lda $C100
        cmp #5
        bne wait
        sei
        lda #0
        sta $D01A
        rts
hook:   lda #$01                ; acknowledge the raster interrupt
        sta $D019
        inc $C100
        lda $D012
        sta $C101               ; the line the handler ran on
        jmp $EA81
"""


def test_a_raster_interrupt_through_0314_comes_once_a_frame_at_its_line():
    m = C64()
    for i, byte in enumerate(assemble(RASTER_IRQ)):
        m.poke(0xC000 + i, byte)
    m.poke(0xC100, 0)
    m.start(0xC000)
    assert m.run(max_cycles=10 * 312 * 63) is StopReason.BASIC
    assert m.peek(0xC100) == 5
    assert m.peek(0xC101) in (100, 101)
    assert 4 * 312 * 63 < m.cycles < 6 * 312 * 63


# -- an IRQ that stays pending: as fast as any program ------------------------------------------

def _host_seconds(m, cycles):
    """The best of three runs of `cycles` C64 cycles, in host seconds (each must end at the limit)."""
    best = None
    for _ in range(3):
        started = time.perf_counter()
        assert m.run(max_cycles=cycles) is StopReason.CYCLES, m.error
        took = time.perf_counter() - started
        best = took if best is None else min(best, took)
    return best


def _basic_at(keys):
    m = C64()
    m.run()
    m.type(keys)
    m.run(max_cycles=300_000)
    return m


@pytest.mark.parametrize("how", ["screen at $0200", "latch 0, sei", "nmi held"])
def test_an_irq_held_pending_costs_no_more_host_time_than_a_plain_program(how):
    """An IRQ line active for good with I set (a C64 hangs there too), or CIA2's NMI line
    held after its edge was taken (its ICR never read), must leave the machine at full
    speed, its run ending at the cycle limit: not a run slice every few cycles, nor the
    CIA stepped cycle by cycle.  Host time for the same C64 cycles, against a BASIC loop
    measured in the same run."""
    cycles = 300_000
    plain = _basic_at("10 GOTO 10{return}RUN{return}")
    if how == "screen at $0200":
        held = _basic_at("POKE 648,2{return}{clr}")
        assert held.peek(0x0314) == held.peek(0x0315) == 0x20       # CINV under the screen
    elif how == "latch 0, sei":
        held = C64()
        load(held, """
        sei
        lda #0
        sta $DC04
        sta $DC05
loop:   jmp loop
""")
        held.run(max_cycles=PERIOD + 1000)     # (the counter reaches 0 once, then reloads 0)
    else:
        held = C64()
        load(held, """
        lda #<handler
        sta $0318
        lda #>handler
        sta $0319
        lda #0
        sta $DD04
        sta $DD05
        lda #$81
        sta $DD0D
        lda #$11
        sta $DD0E
loop:   jmp loop
handler: rti
""")
        held.run(max_cycles=1000)
    if how == "nmi held":
        assert held.cia2.poll()                  # taken once, never acknowledged
    else:
        assert held.cia1.poll() and held.cpu.irq_masked
    ratio = _host_seconds(held, cycles) / _host_seconds(plain, cycles)
    assert ratio < 10, "%.1f times the host time of a plain program" % ratio
