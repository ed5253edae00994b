"""FastCPU.set_breakpoints: translated blocks end before a breakpoint and run() stops
there, at the same cycle py65 stepping reaches it (so the monitor's breakpoints cost
the fast core nothing between stops)."""

from c64.cpu import CPU
from c64.fastcpu import FastCPU
from c64.machine import C64, StopReason
from c64.monitor import Monitor
from tests.conftest import assemble

# A loop with a subroutine: the block at loop translates the JSR into `add` inline.
PROGRAM = """
.word $0810
.org $0810
start:  ldx #0
loop:   jsr add
        inx
        cpx #200
        bne loop
        rts
add:    clc
        lda $c000
        adc #3
        sta $c000
middle: lda $c001
        adc #0
        sta $c001
        rts
"""


def machine_at_start(cpu_class):
    machine = C64(cpu_class=cpu_class)
    data = assemble(PROGRAM)
    machine.load_prg(data, sys=0x0810)
    machine.start(0x0810)
    return machine


def test_run_stops_before_a_breakpoint_inside_a_translated_subroutine():
    machine = machine_at_start(FastCPU)
    cpu = machine.cpu
    cpu.run(machine.cycles + 5000)            # translate the loop (blocks compile when hot)
    machine.start(0x0810)
    machine.mem[0xC000] = machine.mem[0xC001] = 0
    start = cpu.processorCycles
    cpu.set_breakpoints({0x0824})             # `middle`, inside the block made of loop + add
    cpu.run(start + 100_000)
    assert cpu.breakpoint_hit and cpu.pc == 0x0824
    assert machine.mem[0xC000] == 3           # add's first half ran once, the second not yet
    reference = machine_at_start(CPU)
    ref_cpu = reference.cpu
    reference.mem[0xC000] = reference.mem[0xC001] = 0
    ref_start = ref_cpu.processorCycles
    while ref_cpu.pc != 0x0824:
        CPU.step(ref_cpu)
    assert cpu.processorCycles - start == ref_cpu.processorCycles - ref_start


def test_breakpoints_set_on_the_fast_core_stop_the_machine_without_stepping():
    machine = machine_at_start(FastCPU)
    monitor = Monitor(machine)
    monitor.execute("break $0824")
    for hit in range(1, 4):
        reason, text = monitor.run(1_000_000)
        assert reason is StopReason.BREAK and machine.cpu.pc == 0x0824
        assert machine.mem[0xC000] == 3 * hit
    assert monitor.debugger.instructions <= 3          # only the step off each breakpoint
    monitor.execute("delete")
    assert machine.debugger is None and machine.cpu.breakpoints == frozenset()
    assert monitor.run(1_000_000)[0] is StopReason.BASIC
    assert machine.mem[0xC000] | machine.mem[0xC001] << 8 == 600
