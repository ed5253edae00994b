"""Benchmark: BASIC programs on the interpreter against a real C64's time.

    python tests/bench/bench_basic.py [--repeat 2]

Each classic loop is typed into a fresh machine and RUN in warp (no pacing).
Printed per loop: the C64 time the interpreter charged (its per-statement
estimates of the ROM's cycles, PAL 985,248 Hz), the host's CPU time, and the
ratio: how many times faster than a real C64 the host runs it.  A ratio of 1
or more means the program keeps real C64 speed at 100% (pacing then holds
it there); the jiffy clock TI follows the charged time.
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


def run_loop(source):
    machine = C64(sid_seed=1)
    machine.run(2_000_000)
    for line in source.splitlines():
        number, _, text = line.partition(" ")
        machine.basic.store_line(int(number), crunch(text.encode("latin-1")))
    machine.type("RUN{return}")
    start_cycles = machine.cycles
    start = time.process_time()
    while True:
        reason = machine.run(100_000_000)
        if reason is StopReason.ERROR:
            raise SystemExit(machine.error)
        if reason is StopReason.IDLE:
            break
    return machine.cycles - start_cycles, time.process_time() - start, machine.clock_hz


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=2, help="runs per loop; the fastest counts")
    args = parser.parse_args()
    print("%-26s %10s %10s %8s" % ("loop", "C64 s", "host s", "x C64"))
    ratios = []
    for name, source in LOOPS:
        best = None
        for _ in range(args.repeat):
            cycles, seconds, hz = run_loop(source)
            if best is None or seconds < best[1]:
                best = (cycles, seconds, hz)
        cycles, seconds, hz = best
        c64_seconds = cycles / hz
        ratio = c64_seconds / seconds
        ratios.append(ratio)
        print("%-26s %10.2f %10.2f %8.1f" % (name, c64_seconds, seconds, ratio))
    print("slowest loop: %.1fx a real C64" % min(ratios))


if __name__ == "__main__":
    main()
