"""Benchmark: BASIC programs on the interpreter against a real C64's time.

    python tests/bench/bench_basic.py [--repeat 2]

Each program is typed into a fresh machine and RUN in warp (no pacing).
Printed per program: the C64 time the interpreter charged (its per-statement
estimates of the ROM's cycles, PAL 985,248 Hz), the host's CPU time, and the
ratio: how many times faster than a real C64 the host runs it.  A ratio of 1
or more means the program keeps real C64 speed at 100% (pacing then holds
it there); the jiffy clock TI follows the charged time.

The second table puts the charged time next to published timings of real C64s:

* bench64 (Stewart Russell, 2020; github.com/scruss/bench64): eight loops, each
  run for one minute on an NTSC C64c; the published rates (iterations a second)
  are FOR 674.5, GOTO 442.3, GOSUB 350.8, IF 242.9, FN 60.7, MATHS 6.4, STRING
  82.2, ARRAY 27.9.  The loops below have the same statements, one per line, the
  loop variable the first variable made, as there; each runs 10 s of C64 time.
* the Programmer's Reference Guide's TI$ example (chapter 2, TI$): 10,000 empty
  FOR/NEXT on one line print 000011 (11 to 12 s).

A PAL C64 runs BASIC about 3% slower than the NTSC machine (985,248 against
1,022,727 Hz, a little less of it lost to the VIC's bad lines), so "PAL s" is the
published time x 1.03; "ours/PAL" within 0.9-1.1 is the aim.
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

from c64.machine import C64, StopReason  # noqa: E402
from kernal.basic import crunch  # noqa: E402

LOOPS = [
    ("empty FOR/NEXT (BM1)", "10 FOR K=1 TO 2000:NEXT K"),
    ("GOTO loop with IF (BM2)", "10 K=0\n20 K=K+1\n30 IF K<1000 THEN 20"),
    ("arithmetic (BM3)", "10 K=0\n20 K=K+1:A=K/K*K+K-K\n30 IF K<1000 THEN 20"),
    ("array and GOSUB (BM7)", "10 DIM M(5):K=0\n20 K=K+1:A=K/2*3+4-5:GOSUB 60\n"
                              "30 FOR L=1 TO 5:M(L)=A:NEXT\n40 IF K<500 THEN 20\n50 END\n60 RETURN"),
    ("SIN, LOG, SQR", "10 FOR I=1 TO 200:A=SIN(I)*LOG(I)+SQR(I):NEXT"),
    ("strings", '10 FOR I=1 TO 500:A$=STR$(I)+"X":B$=LEFT$(A$,2):NEXT'),
    ("PRINT to the screen", "10 FOR I=1 TO 300:PRINT I;:NEXT"),
]

NTSC_TO_PAL = 1.03
# Variables made in bench64's order: the loop variable I first, then the functions,
# the string, the array and the scratch variables.
SETUP = ('10 I=0:DEF FNM(X)=2+X-INT(X/10)*10:Q$="ABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890"\n'
         "20 DIM S(12):FOR I=1 TO 12:S(I)=I:NEXT I:X=1:Y=1\n")
PUBLISHED = [
    # name, published iterations a second on an NTSC C64 (bench64), the loop's body
    ("FOR", 674.5, ""),
    ("GOTO", 442.3, "210 GOTO 220\n"),
    ("GOSUB", 350.8, "210 GOSUB 900\n"),
    ("IF", 242.9, None),
    ("FN", 60.7, "210 X=FNM(I)\n"),
    ("MATHS", 6.4, "210 Y=(TAN(ATN(SQR(Y*Y)))+1)/Y\n"),
    ("STRING", 82.2, "210 Q$=RIGHT$(Q$,35)+LEFT$(Q$,1)\n"),
    ("ARRAY", 27.9, "210 X=FNM(I)\n215 S(X)=(S(X-1)+S(X)+S(X+1))/3\n"),
]
SECONDS = 10                       # of C64 time per bench64 loop


def bench64_program(rate, body):
    count = round(rate * SECONDS)
    if body is None:                                   # IF: NEXT inside the IF, on one line
        loop = "200 FOR I=1 TO %d\n210 IF I>0 THEN NEXT I\n" % count
    else:
        loop = "200 FOR I=1 TO %d\n%s220 NEXT I\n" % (count, body)
    return SETUP + loop + "300 END\n900 RETURN", count


def run_program(source):
    """RUN `source` on a fresh machine: (C64 cycles, host seconds, clock Hz, jiffies, screen)."""
    machine = C64(sid_seed=1)
    machine.run(2_000_000)
    for line in source.splitlines():
        number, _, text = line.partition(" ")
        machine.basic.store_line(int(number), crunch(text.encode("latin-1")))
    machine.type("RUN{return}")
    start_cycles = machine.cycles
    start_jiffies = machine.kernal.clock.read()
    start = time.process_time()
    while True:
        reason = machine.run(100_000_000)
        if reason is StopReason.ERROR:
            raise SystemExit(machine.error)
        if reason is StopReason.IDLE:
            break
    return (machine.cycles - start_cycles, time.process_time() - start, machine.clock_hz,
            machine.kernal.clock.read() - start_jiffies, machine.screen_lines())


def classic_loops(repeat):
    print("%-26s %10s %10s %8s" % ("loop", "C64 s", "host s", "x C64"))
    ratios = []
    for name, source in LOOPS:
        best = None
        for _ in range(repeat):
            cycles, seconds, hz, _, _ = run_program(source)
            if best is None or seconds < best[1]:
                best = (cycles, seconds, hz)
        cycles, seconds, hz = best
        c64_seconds = cycles / hz
        ratio = c64_seconds / seconds
        ratios.append(ratio)
        print("%-26s %10.2f %10.2f %8.1f" % (name, c64_seconds, seconds, ratio))
    print("slowest loop: %.1fx a real C64" % min(ratios))


def published_timings():
    print()
    print("%-34s %9s %9s %9s %9s %9s" % ("against published C64 times", "NTSC s", "PAL s", "ours s",
                                         "ours/PAL", "TI s"))
    setup_cycles, _, hz, setup_jiffies, _ = run_program(SETUP + "300 END")
    for name, rate, body in PUBLISHED:
        source, count = bench64_program(rate, body)
        cycles, _, hz, jiffies, _ = run_program(source)
        ours = (cycles - setup_cycles) / hz
        published = count / rate
        print("%-34s %9.2f %9.2f %9.2f %9.2f %9.2f" % (
            "bench64 %s x%d" % (name, count), published, published * NTSC_TO_PAL, ours,
            ours / (published * NTSC_TO_PAL), (jiffies - setup_jiffies) / 60))
    cycles, _, hz, jiffies, screen = run_program('1 TI$="000000":FOR J=1 TO 10000:NEXT:PRINT TI$')
    shown = [row.strip() for row in screen if row.strip().isdigit()]
    print("%-34s %9s %9s %9.2f %9s %9.2f   prints %s (PRG: 000011)" % (
        "PRG TI$: FOR J=1 TO 10000:NEXT", "11-12", "", cycles / hz, "", jiffies / 60,
        shown[-1] if shown else "?"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=2, help="runs per loop; the fastest counts")
    args = parser.parse_args()
    classic_loops(args.repeat)
    published_timings()


if __name__ == "__main__":
    main()
