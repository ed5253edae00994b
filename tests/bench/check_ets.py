"""Wolfgang Lorenz's C64 Emulator Test Suite (ETS) run on this machine: pass or fail per test.

The suite is not part of this repository (it is not ours): get it from VICE's test programs,
https://github.com/libsidplayfp/VICE-testprogs, folder general/Lorenz-2.15 (or the copy in
VICE's own sources, testprogs/general/Lorenz-2.15), and give that folder's path:

    python tests/bench/check_ets.py path/to/Lorenz-2.15
    python tests/bench/check_ets.py path/to/Lorenz-2.15 --cpu py65 --tests irq,nmi,cia1ta
    python tests/bench/check_ets.py path/to/Lorenz-2.15 --chain [--from mmu]

Its four disk images (Disk1.d64 .. Disk4.d64) hold 300 programs, each of which prints its
name, tests, prints " - ok" and LOADs the next one by name; a test that finds a difference
prints what it expected and what it got and waits for a key, then goes on.  A disk's last
program asks for the next disk and waits for a key.

By default every test runs on its own: a fresh machine, its disk as drive 8, `LOAD"NAME",8`
and RUN, until it prints " - ok" (a pass) or waits for a key (a failure).  `--chain` runs the
suite as it runs itself, in one machine: LOAD"START",8 and RUN on Disk1.d64, each test
LOADing the next, the next disk put in when one is asked for, a key typed where a test
fails, a fresh machine with the next program where one stops the CPU.  Three are not expected to pass ROM-less and are left out unless named: `mmufetch`
runs code of the BASIC ROM ($A4E1), `mmu` compares the ROM bytes it reads with Commodore's,
`template` is not a test.

Each line: the test, pass/FAIL, C64 cycles and host seconds; a failed test's screen follows.
The exit status is 0 when every test expected to pass passed.
"""

import argparse
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

from c64.cpu import CPU                    # noqa: E402
from c64.machine import C64, StopReason    # noqa: E402
from kernal.disk_formats import read_image  # noqa: E402

DISKS = ("Disk1.d64", "Disk2.d64", "Disk3.d64", "Disk4.d64")
NOT_ROM_LESS = {"mmufetch", "mmu", "template"}     # need Commodore's ROMs, or no test
SLICE = 200_000                                    # C64 cycles between looks at the output
TEST_LIMIT = 500_000_000                           # C64 cycles; the longest test (shsay) takes 69 M
OK, FAIL, LIMIT, LOAD_ERROR, END = "pass", "FAIL", "LIMIT", "LOAD ERROR", "end"
READY = "ready.\n"
NEXT_DISK = re.compile(r"please insert disk (\d)")
OK_LINE = " - ok\n"
MOST_FAILURES = 200                                # --chain: keys typed to a failing test


class Output:
    """What the tests print through CHROUT, as text (the C64(transcript=) sink)."""

    def __init__(self):
        self.text = []

    def append(self, code):
        if code in (0x0D, 0x8D):
            self.text.append("\n")
        elif 0x20 <= code < 0x7F:
            self.text.append(chr(code).lower())
        elif 0xC1 <= code <= 0xDA:
            self.text.append(chr(code - 0x80))
        else:
            self.text.append(" ")

    def since(self, start):
        return "".join(self.text[start:])


def disk_names(folder):
    """[(disk image path, [program names in directory order])]"""
    disks = []
    for disk in DISKS:
        path = os.path.join(folder, disk)
        image = read_image(path)
        names = [entry.name.decode("latin-1").lower() if isinstance(entry.name, bytes) else entry.name.lower()
                 for entry in image.entries]
        disks.append((path, names))
    return disks


def new_machine(image, cpu_class, vic_dma):
    output = Output()
    options = {} if cpu_class is None else {"cpu_class": cpu_class}
    machine = C64(sid_seed=1, disk_folder=image, transcript=output, vic_dma=vic_dma, **options)
    return machine, output


def run_test(machine, output, start, begun, limit=TEST_LIMIT, go_on=False, disks=()):
    """Run the test started on `machine` (its output from output.text[start], from cycle
    `begun`) until it prints " - ok" and the next name (or a load error, or the limit).
    Returns (result, cycles, screens of its failures, where its " - ok" line ends in the output)."""
    failures = []
    while True:
        reason = machine.run(SLICE)
        text = output.since(start)
        done = text.find(OK_LINE)
        if done >= 0:
            return (FAIL if failures else OK), machine.cycles - begun, failures, start + done + len(OK_LINE)
        if reason is StopReason.IDLE:             # waitkey: the test found a difference
            asked = NEXT_DISK.search(text)
            if asked and int(asked.group(1)) <= len(disks):   # the suite's own "nextdisk"
                machine.attach_disk(disks[int(asked.group(1)) - 1][0])
                machine.type(" ")
                start += asked.end()
                continue
            if READY in text and not failures:      # no test: back at READY. (after the last)
                return END, machine.cycles - begun, failures, None
            failures.append(screen(machine))
            if not go_on or len(failures) >= MOST_FAILURES:
                return FAIL, machine.cycles - begun, failures, None
            machine.type(" ")                     # a key: the test goes on
            continue
        if reason is StopReason.ERROR:
            failures.append("the CPU stopped: %s" % machine.error)
            return FAIL, machine.cycles - begun, failures, None
        if "load error" in text:
            return LOAD_ERROR, machine.cycles - begun, failures, None
        if machine.cycles - begun > limit:
            failures.append(screen(machine))
            return LIMIT, machine.cycles - begun, failures, None


def screen(machine):
    return "\n".join(line.rstrip() for line in machine.screen_lines()).rstrip("\n")


def start_test(machine, output, name):
    """LOAD and RUN `name`; returns where its output starts and the cycle it starts in."""
    machine.type('LOAD"%s",8{return}' % name.upper())
    while machine.run(SLICE) is not StopReason.IDLE:     # LOADed: READY. waits for a key
        pass
    start = len(output.text), machine.cycles
    machine.type("RUN{return}")
    return start


def report(name, result, cycles, seconds, failures, show):
    print("%-12s %-10s %12s cycles %7.1f s" % (name, result, format(cycles, ","), seconds), flush=True)
    if show:
        for screen in failures[:3]:
            print("    " + screen.replace("\n", "\n    "))


def one_by_one(disks, names, cpu_class, vic_dma, show):
    results = {}
    home = homes(disks)
    for image, programs in disks:
        for name in programs:
            if home.get(name) != image or (names and name not in names) or (not names and name in NOT_ROM_LESS):
                continue
            machine, output = new_machine(image, cpu_class, vic_dma)
            started = time.perf_counter()
            start, begun = start_test(machine, output, name)
            result, cycles, failures, _ = run_test(machine, output, start, begun)
            results[name] = result
            report(name, result, cycles, time.perf_counter() - started, failures, show)
    return results


def printed_name(text, names):
    """The test's name from its output: the name the test before it printed before LOADing
    it, then the name it prints itself ("ldazldaz - ok", "cia1tabcia1tab (old cia) - ok")."""
    line = text.lstrip("\n").split("\n")[0]
    for end in range(len(line) // 2, 0, -1):
        if line[:end] in names and line[end:].startswith(line[:end]):
            return line[:end]
    return line.split(" - ")[0].strip()


def chained(disks, cpu_class, vic_dma, show, first=None):
    """The whole suite as it runs itself: one machine, Disk1.d64 as drive 8, LOAD"START",8
    and RUN (or `first` from its disk); each test LOADs the next, a failed one gets a key
    (it goes on), and where a disk's last program asks for the next
    disk, it goes in.  A test that stops the CPU (`mmufetch` runs into the BASIC ROM) ends
    that machine: a fresh one LOADs the program after it on its disk."""
    results = {}
    home = homes(disks)
    name = first or disks[0][1][0]
    while name:
        image = home[name]
        machine, output = new_machine(image, cpu_class, vic_dma)
        at, begun = start_test(machine, output, name)
        while True:
            started = time.perf_counter()
            result, cycles, failures, end = run_test(machine, output, at, begun, go_on=True, disks=disks)
            if result == END:                          # the last test's next name was "-"
                return results
            name = name or printed_name(output.since(at), home)
            if not name.endswith("nextdisk"):
                results[name] = result
                report(name, result, cycles, time.perf_counter() - started, failures, show)
            if end is None:
                break
            at, begun, name = end, machine.cycles, None
        programs = dict(disks)[home.get(name, image)]
        following = programs.index(name) + 1 if name in programs else len(programs)
        name = programs[following] if result == FAIL and following < len(programs) else None
    return results


def homes(disks):
    """{name: the disk image it runs from}: the last disk holding it (the copy on the disk
    before is the suite's "nextdisk", asking for it)."""
    home = {}
    for image, programs in disks:
        for name in programs:
            home[name] = image
    return home


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", help="the suite's folder (general/Lorenz-2.15 of VICE's test programs)")
    parser.add_argument("--cpu", choices=("fast", "py65"), default="fast")
    parser.add_argument("--chain", action="store_true", help="run each disk as the suite chains itself")
    parser.add_argument("--tests", help="comma-separated names (one by one only)")
    parser.add_argument("--from", dest="first", metavar="NAME", help="--chain: start at this test")
    parser.add_argument("--no-vic-dma", action="store_true", help="a VIC that takes no bus cycles (no bad lines)")
    parser.add_argument("--quiet", action="store_true", help="no screens of failed tests")
    args = parser.parse_args(argv)
    try:
        disks = disk_names(args.folder)
    except (OSError, ValueError) as error:
        parser.exit(2, "check_ets: %s (the folder general/Lorenz-2.15 of VICE's test programs)\n" % error)
    if args.chain and args.tests:
        parser.exit(2, "check_ets: --chain runs the whole suite; --tests picks tests to run one by one\n")
    names = set(args.tests.lower().split(",")) if args.tests else None
    asked = (names or set()) | ({args.first.lower()} if args.first else set())
    unknown = sorted(asked - {name for _, programs in disks for name in programs})
    if unknown:
        parser.exit(2, "check_ets: no test named %s on the suite's disks\n" % ", ".join(unknown))
    cpu_class = CPU if args.cpu == "py65" else None
    vic_dma = not args.no_vic_dma
    started = time.perf_counter()
    if args.chain:
        results = chained(disks, cpu_class, vic_dma, not args.quiet, args.first and args.first.lower())
    else:
        results = one_by_one(disks, names, cpu_class, vic_dma, not args.quiet)
    expected = [name for name in results if name not in NOT_ROM_LESS]
    passed = [name for name in expected if results[name] == OK]
    failed = [name for name in expected if results[name] != OK]
    print("%d of %d pass (%s core, %s; %.0f s)%s" % (
        len(passed), len(expected), args.cpu, "no bad lines" if args.no_vic_dma else "bad lines on",
        time.perf_counter() - started, ": failed " + ", ".join(failed) if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
