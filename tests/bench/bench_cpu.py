"""Benchmark: FastCPU against plain py65 stepping on the RYG search, measured in one run.

    python tests/bench/bench_cpu.py [--program ryg23] [--depth 6] [--move 5] [--silent]
                                    [--repeat 2] [--skip-py65] [--monitor] [--cold]

Times are the process's CPU time (time.process_time), so other processes on
the host disturb them less; each CPU runs the workload --repeat times,
alternating, and its fastest run counts.  Each run (the untimed start-up and
opening moves included) starts without compiled blocks in memory, as a new
process does; the blocks go to a disk cache in a temporary
folder of this script's own (c64/fastcpu/block_cache.py), so the first run
compiles them and the later ones read them, as a new process does on a machine
that ran the program before (--cold: no disk cache, every run compiles).

The workload is a real game position: the program is started, the depth
typed, and the last listed mouse move played each turn; the timed part is
the computer's thinking after move --move (the first moves come from the
opening book and take no search).  Both CPUs run exactly the same emulated
cycles in the whole machine (banking, I/O, KERNAL traps, the 60 Hz IRQ).

Printed per CPU: emulated cycles, seconds, emulated MHz, x a real PAL C64
(985,248 Hz), x plain py65 (same run), and how much of the time went into
the KERNAL's Python routines (mostly CHROUT: the classic versions print the
address of every board they generate), with the MHz the 6502 code alone
runs at once that share is taken out.  The share comes from one extra run
that times every trap, including the direct versions FastCPU's blocks call
in place of a trap (FastCPU.set_fast_trap); the speeds come from runs
without that instrumentation.  (Wrapped to be timed, CHROUT's direct version
is called, not held inline in the blocks as in the timed runs: the share is
that of the called version, an upper bound of the inline one's.)  --silent points CHROUT's vector at an
RTS for the timed move, to measure the CPUs on the search alone.

--monitor adds FastCPU runs with the monitor (c64.monitor) attached, against the
same run without it: a breakpoint the search never reaches (`main`: the blocks
end there, nothing stops), a breakpoint the search passes with a condition that
is never true (`think if a == $ff && x == $ff && y == $ff`: the core stops there
once, checks, steps over it), and a store watch on a byte nothing writes (the
machine then steps instruction by instruction on a py65 CPU).
"""

import argparse
import gc
import os
import re
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

from c64.cpu import CPU                      # noqa: E402
from c64.fastcpu import FastCPU              # noqa: E402
from c64.fastcpu.block_cache import BLOCKS, as_new_process     # noqa: E402
from c64.machine import C64, StopReason      # noqa: E402

PAL_HZ = 985248
ASM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "asm")


def position(cpu_class, program, depth, move):
    """A machine waiting for mouse move number `move` (counting from 1)."""
    started = time.process_time()
    machine = C64(sid_seed=1234, cpu_class=cpu_class)
    loaded = machine.load_prg(os.path.join(ASM, program + ".prg"))
    machine.start(loaded.start)
    machine.type("%02X{return}" % depth)
    machine.run(max_cycles=50_000_000)
    startup = time.process_time() - started
    for _ in range(move - 1):
        play_move(machine)
        machine.run(max_cycles=5_000_000_000)
    return machine, startup


def play_move(machine):
    listed = [line[:2] for line in machine.screen_lines() if re.match(r"^[0-9A-F]{2}> ", line)]
    if not listed:
        raise SystemExit("the game ended before the measured move; pick an earlier --move")
    machine.type(listed[-1] + "{return}")


def measure(cpu_class, program, depth, move, silent=False, instrumented=False, monitor=()):
    """One timed reply.  With `instrumented` every KERNAL trap is timed too: that is how
    the KERNAL's share is found, but the two timer reads per trap slow the run down, so
    the whole-machine speed comes from a run without them."""
    as_new_process()
    machine, startup = position(cpu_class, program, depth, move)
    play_move(machine)
    if monitor:
        from c64.monitor import Monitor
        attached = Monitor(machine)
        for command in monitor:
            if attached.execute(command).startswith("ERROR"):
                raise SystemExit("monitor command failed: %s" % command)
    if silent:
        # CHROUT's vector ($0326) to an RTS in free RAM: the search prints nothing and
        # the KERNAL's Python code is out of the picture (same 6502 program otherwise).
        machine.poke(0x02A7, 0x60)
        machine.poke(0x0326, 0xA7)
        machine.poke(0x0327, 0x02)
    kernal, cpu = machine.kernal, machine.cpu
    trap = kernal.trap
    in_kernal = [0.0]
    # The instrumented run reads the wall clock (perf_counter: a tenth of process_time's
    # cost per call, which matters at two reads per trap) around every trap, and around
    # the run, so the share is wall time over wall time.
    clock = time.perf_counter if instrumented else time.process_time

    def timed(function):
        def timed_function(*args):
            t0 = clock()
            try:
                return function(*args)
            finally:
                in_kernal[0] += clock() - t0
        return timed_function
    direct = {}
    if instrumented:
        kernal.trap = timed(trap)
        # FastCPU's blocks call some routines' direct versions (CHROUT's one-step path)
        # without going through kernal.trap: time those too.
        fast_trap = getattr(cpu, "fast_trap", None)
        if fast_trap is not None:
            direct = {addr: fast_trap(addr) for addr in kernal.routines if fast_trap(addr)}
            for addr, function in direct.items():
                cpu.set_fast_trap(addr, timed(function))
    start_cycles = machine.cycles
    gc.collect()          # (earlier runs' machines: freed now, not during this run)
    t0 = clock()
    reason = machine.run(max_cycles=5_000_000_000)
    seconds = clock() - t0
    kernal.trap = trap
    for addr, function in direct.items():
        cpu.set_fast_trap(addr, function)
    if reason is not StopReason.IDLE:
        raise SystemExit("unexpected stop: %s %s" % (reason, machine.error))
    return machine.cycles - start_cycles, seconds, in_kernal[0], startup, machine.screen_text()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--program", default="ryg23")
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--move", type=int, default=5)
    parser.add_argument("--skip-py65", action="store_true", help="FastCPU only (no ratio)")
    parser.add_argument("--silent", action="store_true",
                        help="point CHROUT's vector at an RTS during the timed move (CPU only)")
    parser.add_argument("--repeat", type=int, default=2,
                        help="runs per CPU, alternating; the fastest counts (the host may be busy)")
    parser.add_argument("--monitor", action="store_true",
                        help="also FastCPU with monitor breakpoints / a watch set (see above)")
    parser.add_argument("--cold", action="store_true",
                        help="no disk cache of compiled blocks: every run compiles all of them")
    args = parser.parse_args()
    folder = tempfile.TemporaryDirectory(prefix="bench-blocks-")
    BLOCKS.folder = None if args.cold else folder.name
    print("workload: %s, depth %d, the computer's reply to mouse move %d%s (%s %s, %s)"
          % (args.program, args.depth, args.move, ", CHROUT silenced" if args.silent else "",
             sys.implementation.name, sys.version.split()[0],
             "no compiled blocks on disk" if args.cold else "compiled blocks on disk from earlier runs"))
    best, shares = {}, {}
    classes = [FastCPU] if args.skip_py65 else [FastCPU, CPU]
    for _ in range(args.repeat):
        for cpu_class in classes:
            run = measure(cpu_class, args.program, args.depth, args.move, args.silent)
            if cpu_class not in best or run[1] < best[cpu_class][1]:
                best[cpu_class] = run
    for cpu_class in classes:
        cycles, seconds, kernal, _, _ = measure(cpu_class, args.program, args.depth, args.move,
                                                args.silent, instrumented=True)
        shares[cpu_class] = kernal / seconds
    results = {}
    for cpu_class in classes:
        cycles, seconds, _, startup, screen = best[cpu_class]
        kernal = shares[cpu_class] * seconds
        results[cpu_class] = (cycles, seconds, screen, kernal)
        mhz = cycles / seconds / 1e6
        cpu_only = cycles / max(seconds - kernal, 1e-9) / 1e6
        print("%-8s %11d cycles %8.2f s %7.2f MHz %6.1fx C64   KERNAL traps %2.0f%% (timed run),"
              " 6502 code alone %6.2f MHz   start-up %.2f s"
              % ("FastCPU" if cpu_class is FastCPU else "py65", cycles, seconds, mhz, mhz * 1e6 / PAL_HZ,
                 100 * shares[cpu_class], cpu_only, startup))
    if CPU in results:
        fast, slow = results[FastCPU], results[CPU]
        fast_code = fast[1] - fast[3]
        slow_code = slow[1] - slow[3]
        print("FastCPU / py65: %.1fx whole machine, %.1fx 6502 code alone"
              "   (same cycles: %s, same screen: %s)"
              % (slow[1] / fast[1] * fast[0] / slow[0], slow_code / fast_code * fast[0] / slow[0],
                 fast[0] == slow[0], fast[2] == slow[2]))
    if args.monitor:
        bench_monitor(args, best[FastCPU])
    BLOCKS.folder = None             # (nothing more written there: it goes now)
    folder.cleanup()


MONITOR_SETUPS = (
    ("break main (never reached)", ("break main",)),
    ("break think if ... (false)", ("break think if a == $ff && x == $ff && y == $ff",)),
    ("watch store $c7ff (stepping)", ("watch store $c7ff",)),
)


def bench_monitor(args, plain):
    """FastCPU with the monitor's breakpoints / a watch, each against the plain FastCPU run."""
    for label, commands in MONITOR_SETUPS:
        runs = 1 if "stepping" in label else args.repeat
        best = None
        for _ in range(runs):
            run = measure(FastCPU, args.program, args.depth, args.move, args.silent, monitor=commands)
            if best is None or run[1] < best[1]:
                best = run
        cycles, seconds = best[0], best[1]
        print("FastCPU + %-28s %7.2f MHz  %5.2fx slower than without   (same cycles: %s, same screen: %s)"
              % (label, cycles / seconds / 1e6, seconds / plain[1] * plain[0] / cycles,
                 cycles == plain[0], best[4] == plain[4]))


if __name__ == "__main__":
    main()
