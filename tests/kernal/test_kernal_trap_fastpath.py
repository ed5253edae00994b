"""The one-step CHROUT trap on FastCPU's register cells must do exactly what the general trap does."""

import pytest

from c64.cpu import CPU
from c64.fastcpu import FastCPU
from c64.machine import C64
from tests.conftest import count_direct_chrout

# $C000: LDX #0 / loop: LDA $C100,X / BEQ done / SEC / SEI / JSR CHROUT / PHP / STA $C200,X /
#        PLA / STA $C300,X / CLI / INX / BNE loop / done: RTS
PROGRAM = bytes([0xA2, 0x00, 0xBD, 0x00, 0xC1, 0xF0, 0x11, 0x38, 0x78, 0x20, 0xD2, 0xFF, 0x08,
                 0x9D, 0x00, 0xC2, 0x68, 0x9D, 0x00, 0xC3, 0x58, 0xE8, 0xD0, 0xEA, 0x60])
# Letters, shifted letters (N set), spaces, a quote, RETURN, CRSR left, reverse on/off and enough
# characters to wrap rows: a mix of the one-step path and the general one.
TEXT = (b"HELLO \xc1\xc2 WORLD\x9d\x9d!" + b"\x12REV\x92 " + b"\"QUOTED\x9d\" " + b"X" * 50 + b"\r"
        + bytes(range(0x41, 0x5B)) * 3 + b"\r" + b"\xa0\xff\x60 ")


def _run(cpu_class, one_step, port=0x37):
    machine = C64(sid_seed=3, cpu_class=cpu_class, transcript=[])
    used = []
    if not one_step:
        machine.kernal.direct_chrout = None
    else:
        used = count_direct_chrout(machine)
    machine.mem.ram[0xC000:0xC000 + len(PROGRAM)] = PROGRAM
    machine.mem.ram[0xC100:0xC100 + len(TEXT) + 1] = TEXT + b"\0"
    machine.poke(0x01, port)
    registers = machine.call(0xC000)
    cpu = machine.cpu
    state = (registers, cpu.sp, cpu.processorCycles, bytes(machine.mem.ram),
             bytes(machine.mem.io.colour_ram), list(machine.transcript))
    return state, used


@pytest.mark.parametrize("port", [0x37, 0x33], ids=["io-banked-in", "char-rom-banked-in"])
def test_the_one_step_chrout_trap_leaves_registers_flags_cycles_and_memory_as_the_general_trap(port):
    fast, used = _run(FastCPU, True, port)
    general, _ = _run(FastCPU, False, port)
    assert used.count(True) > 150 and used.count(False) > 5      # both paths were taken
    assert fast == general


def _without_stack_page(state):
    # The cores take the 60 Hz IRQ at different instructions (FastCPU at block boundaries),
    # so the bytes its pushes leave below the stack pointer differ; nothing else may.
    ram = bytearray(state[3])
    ram[0x100:0x200] = bytes(0x100)
    return state[:3] + (bytes(ram),) + state[4:]


def test_the_one_step_chrout_trap_matches_the_py65_core():
    fast, _ = _run(FastCPU, True)
    reference, _ = _run(CPU, True)
    assert _without_stack_page(fast) == _without_stack_page(reference)


def test_with_registers_binds_a_function_to_the_cpus_register_cells():
    cpu = FastCPU([0] * 0x10000)

    def template():
        a = pc = 0
        step = None

        def bump():
            nonlocal pc
            pc = (pc + step) & 0xFFFF
            return a
        return bump

    bump = cpu.with_registers(template(), step=3)
    cpu.a, cpu.pc = 0x42, 0xFFFE
    assert bump() == 0x42 and cpu.pc == 0x0001


def test_with_registers_refuses_a_free_variable_it_cannot_supply():
    cpu = FastCPU([0] * 0x10000)

    def template():
        unknown = 1

        def use():
            return unknown
        return use

    with pytest.raises(ValueError):
        cpu.with_registers(template())


def test_the_remembered_key_wait_answer_follows_the_code_bytes_at_the_same_pc():
    from kernal.idle import in_key_wait_loop
    machine = C64()
    kernal = machine.kernal
    for base in (0x2000, 0xC000):
        machine.mem.ram[base:base + 4] = bytes([0xA5, 0xC6, 0xF0, 0xFC])   # wait: LDA $C6 / BEQ wait
        assert kernal.key_wait_loops.at(base + 2)
        machine.mem.ram[base + 1] = 0x10                                    # LDA $10: not a key
        assert not kernal.key_wait_loops.at(base + 2)
        machine.mem.ram[base + 1] = 0xC6
        assert kernal.key_wait_loops.at(base + 2)
    # In the KERNAL ROM area the answer comes from what a read sees there (ROM, or RAM banked in).
    machine.mem.ram[0xE100:0xE104] = bytes([0xA5, 0xC6, 0xF0, 0xFC])
    assert kernal.key_wait_loops.at(0xE102) == in_key_wait_loop(machine.mem, 0xE102, machine.cpu.disassemble)
    machine.poke(0x01, 0x35)                                                # KERNAL out: RAM
    assert kernal.key_wait_loops.at(0xE102) and in_key_wait_loop(machine.mem, 0xE102, machine.cpu.disassemble)
