"""KERNAL time against the genuine ROM: C64 cycles the project charges per KERNAL path, next to
the genuine figure and their ratio (issue 33).  Not a timed test: run it and read the table.

The genuine column was measured on the genuine ROMs KERNAL 901227-03 / BASIC 901226-01 running
on this project's cycle-exact CPU (from the routine's ROM address to its RTS/RTI, no interrupt
in between); the project column is the same call made by 6502 code on the default (fast) core,
through the real trap and one-step paths (Machine.call).

    python tests/bench/bench_kernal_time.py
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

from c64.machine import C64   # noqa: E402

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
)


def chrout_cycles(machine, code):
    """The C64 cycles of a call of $FFD2 (Machine.call), less its JMP ($0326): $F1CA to the RTS."""
    ram = machine.mem.ram
    ram[0xDC0D] = 0x7F
    before = machine.cycles
    stall = machine.stall_cycles
    machine.call(0xFFD2, a=code)
    return machine.cycles - before - 5 + (machine.stall_cycles - stall)


def main():
    rows = []
    for what, setup, code, genuine in CHROUT_CASES:
        machine = C64(sid_seed=1)
        machine.run(2_000_000)
        machine.mem[0xDC0D] = 0x7F        # no timer IRQ in the middle of a call
        for byte in setup:
            machine.call(0xFFD2, a=byte)
        rows.append(("CHROUT " + what, chrout_cycles(machine, code), genuine))
    print("%-48s %9s %9s %7s" % ("KERNAL path", "project", "genuine", "ratio"))
    worst = 0
    for what, project, genuine in rows:
        if project is None:
            continue
        ratio = project / genuine
        worst = max(worst, abs(ratio - 1))
        print("%-48s %9d %9d %7.3f" % (what, project, genuine, ratio))
    print("worst: %.2f%% from the genuine ROM" % (100 * worst))


if __name__ == "__main__":
    main()
