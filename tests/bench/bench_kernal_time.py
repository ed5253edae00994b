"""KERNAL time against the genuine ROM: C64 cycles the project charges per KERNAL path, next to
the genuine figure and their ratio (issue 33).  Not a timed test: run it and read the table.

The genuine column was measured on the genuine ROMs KERNAL 901227-03 / BASIC 901226-01 running
on this project's cycle-exact CPU (from the routine's ROM address to its RTS/RTI, no interrupt
in between); the project column is the same call made by 6502 code on the default (fast) core,
through the real trap and one-step paths (Machine.call), on a VIC that takes no bus cycles
(C64(vic_dma=False)): the genuine figures are the CPU's own cycles, and with the screen on a
C64 (and this machine) adds a bad line's 43 cycles every 8 raster lines on top of both.

    python tests/bench/bench_kernal_time.py
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

from c64.machine import C64   # noqa: E402
from tests.conftest import assemble   # noqa: E402

# (what, setup codes printed first, the code measured, genuine cycles from $F1CA to the RTS)
CHROUT_CASES = (
    ("a letter inside a row", b"\x93HELLO", 0x41, 267),
    ("a shifted letter", b"\x93HELLO", 0xC1, 249),
    ("a letter with RVS on", b"\x93\x12", 0x41, 268),
    ("a quote", b"\x93", 0x22, 276),
    ("RETURN", b"\x93HELLO", 0x0D, 220),
    ("shifted RETURN", b"\x93HELLO", 0x8D, 234),
    ("RETURN on row 24: one scroll", b"\x93" + b"\x0d" * 24, 0x0D, 31681),
    ("CLR/HOME: CLR", b"\x93", 0x93, 37684),
    ("CLR/HOME: HOME", b"\x93HELLO", 0x13, 438),
    ("RVS on", b"\x93", 0x12, 343),
    ("RVS off", b"\x93", 0x92, 351),
    ("a colour (red)", b"\x93", 0x1C, 320),
    ("a colour (yellow)", b"\x93", 0x9E, 271),
    ("lower case", b"\x93", 0x0E, 338),
    ("upper case", b"\x93", 0x8E, 346),
    ("case switch lock / unlock", b"\x93", 0x08, 348),
    ("cursor right", b"\x93HELLO", 0x1D, 179),
    ("cursor left", b"\x93HELLO", 0x9D, 184),
    ("cursor down", b"\x93HELLO\x13", 0x11, 279),
    ("DEL at the home position", b"\x93", 0x14, 129),
    ("a letter at column 39: the row links", b"\x93" + b"X" * 39, 0x41, 344),
    ("a letter at column 79: the next line", b"\x93" + b"X" * 79, 0x41, 402),
    ("a letter, two inserts pending", b"\x93" + b"A" * 60 + b"\x13\x1d\x1d\x94\x94", 0x41, 275),
    ("red in insert mode: reverse glyph", b"\x93" + b"A" * 60 + b"\x13\x1d\x1d\x94\x94A", 0x1C, 249),
    ("red in quote mode: reverse glyph", b"\x93\x22", 0x1C, 256),
    ("CLR in quote mode: reverse glyph", b"\x93\x22", 0x93, 258),
    ("RETURN under a 2-row line: two scroll passes", b"\x93" + b"L" * 60 + b"\x0d" * 23, 0x0D, 63037),
    ("RETURN on row 24, a 2-row line scrolled", b"\x93" + b"\x0d" * 24 + b"C" * 79, 0x0D, 31680),
    ("DEL in a row of 40", b"\x93ABCDEFG\x9d\x9d\x9d", 0x14, 1571),
    ("INST in a row of 40", b"\x93ABCDEFG\x9d\x9d\x9d", 0x94, 1516),
    ("DEL inside a 2-row line", b"\x93" + b"A" * 60 + b"\x13\x1d\x1d", 0x14, 3167),
    ("INST inside a 2-row line", b"\x93" + b"A" * 60 + b"\x13\x1d\x1d", 0x94, 3112),
    ("DEL at column 0 of a 2nd row", b"\x93" + b"A" * 60 + b"\x13\x11", 0x14, 1721),
    ("cursor up from a 2nd row", b"\x93" + b"A" * 60 + b"\x13\x11", 0x91, 147),
    ("cursor left from column 40", b"\x93" + b"A" * 60 + b"\x13\x11", 0x9D, 182),
    ("cursor left at column 0", b"\x93HELLO\x0d", 0x9D, 256),
    ("CLR with linked lines", b"\x93" + b"A" * 60 + b"\x0d" + b"B" * 50, 0x93, 37684),
)


def chrout_cycles(machine, code):
    """The C64 cycles of a call of $FFD2 (Machine.call), less its JMP ($0326): $F1CA to the RTS."""
    ram = machine.mem.ram
    ram[0xDC0D] = 0x7F
    before = machine.cycles
    stall = machine.stall_cycles
    machine.call(0xFFD2, a=code)
    return machine.cycles - before - 5 + (machine.stall_cycles - stall)


# Other routines: (what, ROM address, registers, RAM set first, genuine cycles to the RTS)
ROUTINES = (
    ("GETIN, buffer empty", 0xF13E, {}, {0xC6: 0}, 19),
    ("GETIN, two keys in the buffer", 0xF13E, {}, {0x277: 0x41, 0x278: 0x42, 0xC6: 2}, 71),
    ("STOP, not down", 0xF6ED, {}, {0x91: 0xFF}, 14),
    ("STOP, down", 0xF6ED, {}, {0x91: 0x7F}, 62),
    ("UDTIM", 0xF69B, {}, {0xA2: 5}, 54),
    ("UDTIM, the low byte carries", 0xF69B, {}, {0xA2: 0xFF}, 61),
    ("RDTIM", 0xF6DD, {}, {}, 30),
    ("SETTIM", 0xF6E4, {"a": 1, "x": 2, "y": 3}, {}, 19),
    ("PLOT, set", 0xE50A, {"x": 5, "y": 10}, {}, 110),
    ("PLOT, read (C set)", 0xE50A, {}, {}, 15),
    ("SCREEN", 0xE505, {}, {}, 10),
    ("IOBASE", 0xE500, {}, {}, 10),
    ("UDTIM, RUN/STOP down", 0xF69B, {}, {0xA2: 5}, 77),
    ("SCNKEY, no key", 0xEA87, {}, {}, 59),
    ("CLRCHN", 0xF333, {}, {}, 28),
    ("CHRIN from the screen, a space", 0xF157, {}, {0x99: 3}, 126),
)
IRQ_GENUINE = 219          # the 60 Hz interrupt, no key down, the cursor off: sequence to RTI
# The interrupt in its other phases, sequence to RTI: (what, BLNSW, BLNCT, BLNON, key typed, jiffies, genuine)
IRQ_CASES = (
    ("60 Hz IRQ, cursor blink counting", 0, 5, 0, None, 0, 226),
    ("60 Hz IRQ, cursor turned on", 0, 1, 0, None, 0, 332),
    ("60 Hz IRQ, cursor turned off", 0, 1, 1, None, 0, 281),
    ("60 Hz IRQ, A typed: found new", 1, 0, 0, 0x41, 0, 1623),
    ("60 Hz IRQ, A held", 1, 0, 0, 0x41, 1, 1606),
    ("60 Hz IRQ, shifted A held", 1, 0, 0, 0xC1, 1, 1636),
    ("60 Hz IRQ, CRSR right held: repeat delay", 1, 0, 0, 0x1D, 1, 1617),
    ("60 Hz IRQ, RUN/STOP typed", 1, 0, 0, 0x03, 0, 1650),
)
# 2,048 letters printed from row 24 (51 scrolls) with the 60 Hz interrupt on, the whole run
# in C64 cycles: the genuine ROM took 2,257,865 (to within 8 cycles; where the interrupts fall
# moves a run by an interrupt's 219 cycles either way).
# CHRIN from the keyboard, HELLO and RETURN in the buffer: each call's cycles from $F157 to the RTS
# (the first takes the keys, echoes them, finds the line's end and returns H), genuine ROM's.
CHRIN_TYPED = b"HELLO\r"
CHRIN_TYPED_GENUINE = (("CHRIN from the keyboard: HELLO typed, first call", 2682),
                       ("CHRIN from the keyboard: the next character", 125),
                       ("CHRIN from the keyboard: the line's end, RETURN", 147))
LETTERS = """
        .org $C000
        ldx #24
        ldy #0
        clc
        jsr $FFF0
        ldy #8
outer:  ldx #0
inner:  lda #$41
        jsr $FFD2
        dex
        bne inner
        dey
        bne outer
        rts
"""
LETTERS_GENUINE = 2_257_865


def _machine():
    machine = C64(sid_seed=1, vic_dma=False)
    machine.run(2_000_000)
    machine.mem[0xDC0D] = 0x7F        # no timer IRQ in the middle of a call
    return machine


def _charged(machine, address, **registers):
    before, stall = machine.cycles, machine.stall_cycles
    machine.call(address, **registers)
    return machine.cycles - before + machine.stall_cycles - stall


def main():
    rows = []
    for what, setup, code, genuine in CHROUT_CASES:
        machine = C64(sid_seed=1, vic_dma=False)
        machine.run(2_000_000)
        machine.mem[0xDC0D] = 0x7F        # no timer IRQ in the middle of a call
        for byte in setup:
            machine.call(0xFFD2, a=byte)
        rows.append(("CHROUT " + what, chrout_cycles(machine, code), genuine))
    for what, address, registers, poked, genuine in ROUTINES:
        machine = _machine()
        machine.call(0xFFD2, a=0x93)
        machine.cpu.p &= ~1
        if what.startswith("PLOT, read"):
            machine.cpu.p |= 1
        if what.startswith("UDTIM, RUN/STOP"):
            machine.kernal.keyboard.hold(63, 9)
        for addr, value in poked.items():
            machine.mem.ram[addr] = value
        rows.append((what, _charged(machine, address, **registers), genuine))
    machine = _machine()
    machine.poke(0xCC, 1)
    cpu = machine.cpu
    before = machine.cycles
    machine.kernal.default_irq(cpu)
    rows.append(("60 Hz IRQ, no key, cursor off", machine.cycles - before, IRQ_GENUINE))
    for what, blnsw, blnct, blnon, key, skipped, genuine in IRQ_CASES:
        machine = _machine()
        for addr, value in ((0xCC, blnsw), (0xCD, blnct), (0xCF, blnon)):
            machine.poke(addr, value)
        if key is not None:
            machine.kernal.keyboard.press(key)
        for _ in range(skipped + 1):
            machine.cpu.pc, machine.cpu.p = 0xC000, 0x20
            before = machine.cycles
            machine.kernal.default_irq(machine.cpu)
        rows.append((what, machine.cycles - before, genuine))
    machine = _machine()
    machine.kernal.editor.cancel_input()            # (the boot's READY. left CHRIN waiting)
    machine.call(0xFFD2, a=0x93)
    for addr, value in ((0x99, 0), (0xCC, 1), (0xCF, 0), (0xC6, len(CHRIN_TYPED))):
        machine.poke(addr, value)
    for offset, key in enumerate(CHRIN_TYPED):
        machine.poke(0x277 + offset, key)
    calls = [_charged(machine, 0xF157) for _ in CHRIN_TYPED]
    for (what, genuine), project in zip(CHRIN_TYPED_GENUINE, (calls[0], calls[1], calls[-1])):
        rows.append((what, project, genuine))
    machine = C64(sid_seed=1, vic_dma=False)
    machine.run(2_000_000)
    machine.call(0xFFD2, a=0x93)
    code = assemble(LETTERS)
    machine.mem.ram[0xC000:0xC000 + len(code)] = code
    before = machine.cycles
    machine.call(0xC000)
    rows.append(("2,048 letters from row 24 (51 scrolls), IRQ on", machine.cycles - before - 6, LETTERS_GENUINE))
    print("%-50s %9s %9s %7s" % ("KERNAL path", "project", "genuine", "ratio"))
    worst = 0
    for what, project, genuine in rows:
        if project is None:
            continue
        ratio = project / genuine
        worst = max(worst, abs(ratio - 1))
        print("%-50s %9d %9d %7.3f" % (what, project, genuine, ratio))
    print("worst: %.2f%% from the genuine ROM" % (100 * worst))


if __name__ == "__main__":
    main()
