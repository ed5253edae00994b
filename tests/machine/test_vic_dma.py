"""The VIC's bad lines take the bus from the CPU (docs/c64.md, "Bad lines"): a program
counting passes of a loop over a stretch of raster lines gets the passes a real C64 gives,
with the screen on and off, in both cores.  The expected figures come from the C64's facts,
not from this machine: a PAL frame is 312 lines of 63 cycles; with DEN ($D011 bit 4) set
during line $30, the 25 lines $30-$F7 whose low bits equal YSCROLL are bad lines, each
stopping the CPU for 40-43 cycles (43 when its next cycle is a read)."""

import pytest

from c64.cpu import CPU
from c64.fastcpu import FastCPU
from c64.machine import C64
from tests.conftest import assemble

LINE, LINES = 63, 312
BAD_LINES = 25
COUNT = 0xFB                  # the passes, 16 bits

# Waits for a frame's start ($D011 = FIRST before it), then for line START, writes THEN to
# $D011 and counts passes of a 15-cycle loop (19 when the high byte counts, 22 in line 256,
# where $D012 reads 0 too) until the next frame starts.
COUNTER = """
        .org $C000
        sei
        lda #{first}
        sta $d011
        lda #0
        sta $fb
        sta $fc
        ldx #2
frame:  lda $d012            ; line 0 (not 256) ...
        bne frame
        bit $d011
        bmi frame
past:   lda $d012            ; ... and past it
        beq past
        dex
        bne frame            ; (twice: the first frame start may come mid-frame)
start:  lda $d012
        cmp #{start}
        bne start
        lda #{then}
        sta $d011
loop:   inc $fb
        bne skip
        inc $fc
skip:   lda $d012
        bne loop
        bit $d011
        bmi loop
        cli
        rts
"""


def passes(cpu_class, first, start, then):
    m = C64(cpu_class=cpu_class)
    code = assemble(COUNTER.format(first=first, start=start, then=then))
    for offset, byte in enumerate(code):
        m.poke(0xC000 + offset, byte)
    m.call(0xC000, max_cycles=200_000)
    return m.peek(COUNT) | (m.peek(COUNT + 1) << 8)


def expected(start, bad_lines):
    """The passes a C64 gives counting from line `start` (its first cycles: the wait loop
    and the STA) to the frame's end, with `bad_lines` bad lines on the way: (fewest, most)."""
    bus = (LINES - start) * LINE - 16

    def count(stolen):
        cpu = bus - stolen - 3 * 7                   # three passes of 22 in line 256
        n = cpu // 15
        return (cpu - 4 * (n // 256)) // 15
    return count(43 * bad_lines) - 1, count(40 * bad_lines) + 1


@pytest.mark.parametrize("cpu_class", [CPU, FastCPU], ids=["py65", "fastcpu"])
@pytest.mark.parametrize("first, start, then, bad_lines", [
    (0x1B, 1, 0x1B, BAD_LINES),    # the screen on, YSCROLL 3: lines $33, $3B ... $F3
    (0x18, 1, 0x18, BAD_LINES),    # YSCROLL 0: lines $30 ... $F0
    (0x0B, 1, 0x0B, 0),            # the screen off: no bad lines
    (0x1B, 1, 0x0B, 0),            # turned off before line $30: none in this frame
    (0x1B, 0x31, 0x0B, BAD_LINES),  # turned off after line $30: the frame keeps them
    (0x0B, 0x31, 0x1B, 0),          # turned on after line $30: none before the next frame
    (0x0B, 0x30, 0x1B, BAD_LINES),  # turned on during line $30: this frame has them
], ids=["on", "yscroll0", "off", "off-before-30", "off-after-30", "on-after-30", "on-in-30"])
def test_a_frame_gives_the_cpu_the_cycles_a_c64_does(cpu_class, first, start, then, bad_lines):
    fewest, most = expected(start, bad_lines)
    assert fewest <= passes(cpu_class, first, start, then) <= most


@pytest.mark.parametrize("cpu_class", [CPU, FastCPU], ids=["py65", "fastcpu"])
def test_both_cores_lose_the_same_cycles(cpu_class):
    assert passes(cpu_class, 0x1B, 1, 0x1B) == passes(FastCPU, 0x1B, 1, 0x1B)


def test_dma_off_is_a_machine_option():
    m = C64(vic_dma=False)
    code = assemble(COUNTER.format(first=0x1B, start=1, then=0x1B))
    for offset, byte in enumerate(code):
        m.poke(0xC000 + offset, byte)
    m.call(0xC000, max_cycles=200_000)
    fewest, most = expected(1, 0)
    assert fewest <= m.peek(COUNT) | (m.peek(COUNT + 1) << 8) <= most


def test_c64_time_runs_on_while_the_cpu_is_stopped():
    m = C64()
    before_cpu, before = m.cpu.processorCycles, m.cycles
    m.poke(0xC000, 0x4C)                     # JMP $C000 with interrupts off
    m.poke(0xC001, 0x00)
    m.poke(0xC002, 0xC0)
    m.cpu.p |= 0x04
    m.start(0xC000)
    m.run(max_cycles=LINES * LINE * 10)
    elapsed, run = m.cycles - before, m.cpu.processorCycles - before_cpu
    assert LINES * LINE * 10 <= elapsed < LINES * LINE * 10 + 3
    # Ten frames: 10 x 25 bad lines, 43 cycles each (the loop's next cycle is always a read).
    assert abs(elapsed - run - 10 * BAD_LINES * 43) <= 43


# The Emulator Test Suite times its code in the border (its waitborder: raster line 256 or
# more, or below 30) so that no bad line falls in it; with bad lines there too its irq, nmi
# and cputiming fail.  CIA1's timer B read before and after 59 NOPs started in raster line
# {line}: the cycles between the two reads, exactly, as a C64 gives them -- 122 with no bad
# line in between, 165 across one (a NOP's cycles are reads: the CPU stops for all 43).
TIMED_NOPS = """
        .org $C000
        sei
        lda #$1b
        sta $d011
        lda #$ff
        sta $dc06
        sta $dc07
        lda #$11             ; timer B: start, load the latch
        sta $dc0f
wait:   lda $d012
        cmp #{line}
        bne wait
        ldx $dc06
""" + "        nop\n" * 59 + """
        ldy $dc06
        stx $fb
        sty $fc
        cli
        rts
"""


def timed_nops(cpu_class, line, vic_dma=True):
    m = C64(cpu_class=cpu_class, vic_dma=vic_dma)
    code = assemble(TIMED_NOPS.format(line=line))
    for offset, byte in enumerate(code):
        m.poke(0xC000 + offset, byte)
    m.call(0xC000, max_cycles=100_000)
    return (m.peek(0xFB) - m.peek(0xFC)) & 0xFF


@pytest.mark.parametrize("cpu_class", [CPU, FastCPU], ids=["py65", "fastcpu"])
@pytest.mark.parametrize("line, cycles", [
    (0x0A, 122),          # into line $0B, in the top border: no bad line
    (0x32, 165),          # into line $33, a bad line (YSCROLL 3): 43 more
    (0xFA, 122),          # into line $FB, past the last bad line ($F3)
])
def test_code_timed_in_the_border_sees_no_bad_line(cpu_class, line, cycles):
    assert timed_nops(cpu_class, line) == cycles


def test_without_dma_the_bad_line_takes_nothing():
    assert timed_nops(FastCPU, 0x32, vic_dma=False) == 122
