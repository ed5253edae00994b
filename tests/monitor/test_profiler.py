"""The profiler counts a routine's cycles as the 6502 spends them: a loop of 200 JSRs to
a 28-cycle subroutine (CLC 2, LDA abs 4, ADC # 2, STA abs 4, LDA abs 4, ADC # 2, STA abs 4,
RTS 6), the JSR's own 6 cycles in the caller."""

from c64.fastcpu import FastCPU
from c64.machine import StopReason
from c64.monitor import Monitor
from tests.monitor.test_fastcpu_breakpoints import machine_at_start


def test_cycles_per_routine_inclusive_and_exclusive(tmp_path):
    machine = machine_at_start(FastCPU)
    monitor = Monitor(machine)
    labels = tmp_path / "loop.lbl"
    labels.write_text("al C:0810 .start\nal C:081b .add\n")
    monitor.execute("ll %s" % labels)
    monitor.execute("prof on")
    assert monitor.run(1_000_000)[0] is StopReason.BASIC
    rows = {row.split()[0]: [int(v) for v in row.split()[1:] if v.isdigit()]
            for row in monitor.execute("prof show").splitlines()[1:-1]}
    calls, inclusive, exclusive = rows["add"]
    assert (calls, inclusive, exclusive) == (200, 200 * 28, 200 * 28)
    # start (the routine the profile began in) has everything else: its own instructions,
    # the JSRs, and the KERNAL's return to BASIC at its end.
    start = rows["start"]
    plain = machine_at_start(FastCPU)
    begin = plain.cpu.processorCycles   # the profiler counts the CPU's own cycles (C64 time
    assert plain.run(1_000_000) is StopReason.BASIC   # adds what the bad lines take)
    total = plain.cpu.processorCycles - begin
    assert start[1:] == [total, total - 200 * 28]
    assert start[2] >= 2 + 200 * (6 + 2 + 2 + 3) - 1 + 6
