"""The 6510 as the C64 has it: py65's 6502 plus the undocumented opcodes of a real 6510.

Written as py65's own tests are: memory filled with $AA, the instruction
spelled in a comment, one step, assertions on registers, flags, PC and
cycles.  Behaviour and timings follow the NMOS 6510 opcode matrix (the
"No More Secrets" / VICE descriptions of the stable undocumented opcodes).
"""

import pytest
from py65.devices.mpu6502 import MPU

from c64.cpu import CPU, CPUStop
from c64.machine import C64, StopReason

C, Z, I, D, B, V, N = 0x01, 0x02, 0x04, 0x08, 0x10, 0x40, 0x80


class FlatMemory(bytearray):
    """64 KB of RAM filled with $AA, no ROM anywhere (rom_visible: asked at a JAM opcode)."""

    def __init__(self):
        super().__init__(b"\xAA" * 0x10000)

    def rom_visible(self, addr):
        return False


def cpu_at(code, pc=0x0000, **registers):
    """A CPU with `code` at pc in $AA-filled memory; registers given by name (a, x, y, sp, p)."""
    memory = FlatMemory()
    memory[pc:pc + len(code)] = bytes(code)
    cpu = CPU(memory, pc=pc)
    for name, value in registers.items():
        setattr(cpu, name, value)
    return cpu


def step(cpu):
    before = cpu.processorCycles
    cpu.step()
    return cpu.processorCycles - before


# -- every opcode is something ----------------------------------------------------------

def test_no_opcode_falls_back_to_py65s_silent_two_byte_nop():
    for opcode in range(256):
        assert CPU.instruct[opcode] is not MPU.inst_not_implemented, "$%02X" % opcode


def test_plain_py65_mpus_are_not_changed_by_the_6510_tables():
    assert MPU.instruct[0xA7] is MPU.inst_not_implemented
    assert MPU.instruct is not CPU.instruct and MPU.cycletime is not CPU.cycletime


# -- documented timings -----------------------------------------------------------------

# NMOS 6502 datasheet cycle counts, without page crossing or taken branches.
DOCUMENTED_CYCLES = {
    0x00: 7, 0x01: 6, 0x05: 3, 0x06: 5, 0x08: 3, 0x09: 2, 0x0A: 2, 0x0D: 4, 0x0E: 6, 0x11: 5,
    0x15: 4, 0x16: 6, 0x18: 2, 0x19: 4, 0x1D: 4, 0x1E: 7, 0x20: 6, 0x21: 6, 0x24: 3, 0x25: 3,
    0x26: 5, 0x28: 4, 0x29: 2, 0x2A: 2, 0x2C: 4, 0x2D: 4, 0x2E: 6, 0x31: 5, 0x35: 4, 0x36: 6,
    0x38: 2, 0x39: 4, 0x3D: 4, 0x3E: 7, 0x40: 6, 0x41: 6, 0x45: 3, 0x46: 5, 0x48: 3, 0x49: 2,
    0x4A: 2, 0x4C: 3, 0x4D: 4, 0x4E: 6, 0x51: 5, 0x55: 4, 0x56: 6, 0x58: 2, 0x59: 4, 0x5D: 4,
    0x5E: 7, 0x60: 6, 0x61: 6, 0x65: 3, 0x66: 5, 0x68: 4, 0x69: 2, 0x6A: 2, 0x6C: 5, 0x6D: 4,
    0x6E: 6, 0x71: 5, 0x75: 4, 0x76: 6, 0x78: 2, 0x79: 4, 0x7D: 4, 0x7E: 7, 0x81: 6, 0x84: 3,
    0x85: 3, 0x86: 3, 0x88: 2, 0x8A: 2, 0x8C: 4, 0x8D: 4, 0x8E: 4, 0x91: 6, 0x94: 4, 0x95: 4,
    0x96: 4, 0x98: 2, 0x99: 5, 0x9A: 2, 0x9D: 5, 0xA0: 2, 0xA1: 6, 0xA2: 2, 0xA4: 3, 0xA5: 3,
    0xA6: 3, 0xA8: 2, 0xA9: 2, 0xAA: 2, 0xAC: 4, 0xAD: 4, 0xAE: 4, 0xB1: 5, 0xB4: 4, 0xB5: 4,
    0xB6: 4, 0xB8: 2, 0xB9: 4, 0xBA: 2, 0xBC: 4, 0xBD: 4, 0xBE: 4, 0xC0: 2, 0xC1: 6, 0xC4: 3,
    0xC5: 3, 0xC6: 5, 0xC8: 2, 0xC9: 2, 0xCA: 2, 0xCC: 4, 0xCD: 4, 0xCE: 6, 0xD1: 5, 0xD5: 4,
    0xD6: 6, 0xD8: 2, 0xD9: 4, 0xDD: 4, 0xDE: 7, 0xE0: 2, 0xE1: 6, 0xE4: 3, 0xE5: 3, 0xE6: 5,
    0xE8: 2, 0xE9: 2, 0xEA: 2, 0xEC: 4, 0xED: 4, 0xEE: 6, 0xF1: 5, 0xF5: 4, 0xF6: 6, 0xF8: 2,
    0xF9: 4, 0xFD: 4, 0xFE: 7,
}


@pytest.mark.parametrize("opcode", sorted(DOCUMENTED_CYCLES), ids=lambda op: "%02X" % op)
def test_documented_opcodes_take_their_datasheet_cycles(opcode):
    # Operands $AA $AA, X = Y = 0: no page is crossed; pointers in $AA-filled memory read $AAAA.
    cpu = cpu_at([opcode])
    assert step(cpu) == DOCUMENTED_CYCLES[opcode]


def test_dec_absolute_takes_six_cycles():
    cpu = cpu_at([0xCE, 0x00, 0x20])          # DEC $2000
    cpu.memory[0x2000] = 0x01
    assert step(cpu) == 6
    assert cpu.memory[0x2000] == 0x00
    assert cpu.p & Z


@pytest.mark.parametrize("opcode, not_taken, taken", [
    (0x10, N, 0), (0x30, 0, N), (0x50, V, 0), (0x70, 0, V),      # BPL BMI BVC BVS
    (0x90, C, 0), (0xB0, 0, C), (0xD0, Z, 0), (0xF0, 0, Z)])     # BCC BCS BNE BEQ
def test_branches_take_two_cycles_three_when_taken_four_across_a_page(opcode, not_taken, taken):
    assert step(cpu_at([opcode, 0x10], pc=0x1000, p=0x30 | not_taken)) == 2
    same_page = cpu_at([opcode, 0x10], pc=0x1000, p=0x30 | taken)
    assert step(same_page) == 3 and same_page.pc == 0x1012
    other_page = cpu_at([opcode, 0x80], pc=0x1000, p=0x30 | taken)
    assert step(other_page) == 4 and other_page.pc == 0x0F82


def test_jmp_indirect_through_a_page_end_takes_the_high_byte_from_the_same_page():
    cpu = cpu_at([0x6C, 0xFF, 0x30])          # JMP ($30FF)
    cpu.memory[0x30FF], cpu.memory[0x3100], cpu.memory[0x3000] = 0x34, 0x12, 0x56
    assert step(cpu) == 5
    assert cpu.pc == 0x5634                   # NMOS bug: $3000, not $3100


def test_decimal_adc_carries_like_the_nmos_6502():
    cpu = cpu_at([0x69, 0x01], a=0x99, p=0x30 | D)    # SED: ADC #$01
    step(cpu)
    assert cpu.a == 0x00
    assert cpu.p & C
    assert not cpu.p & Z                      # NMOS: Z from the binary sum $9A


def test_decimal_sbc_borrows():
    cpu = cpu_at([0xE9, 0x01], a=0x00, p=0x30 | D | C)  # SED: SEC: SBC #$01
    step(cpu)
    assert cpu.a == 0x99
    assert not cpu.p & C


# -- undocumented opcodes: lengths and cycles -------------------------------------------

_RMW = {"SLO": (0x07, 0x17, 0x03, 0x13, 0x0F, 0x1F, 0x1B),
        "RLA": (0x27, 0x37, 0x23, 0x33, 0x2F, 0x3F, 0x3B),
        "SRE": (0x47, 0x57, 0x43, 0x53, 0x4F, 0x5F, 0x5B),
        "RRA": (0x67, 0x77, 0x63, 0x73, 0x6F, 0x7F, 0x7B),
        "DCP": (0xC7, 0xD7, 0xC3, 0xD3, 0xCF, 0xDF, 0xDB),
        "ISC": (0xE7, 0xF7, 0xE3, 0xF3, 0xEF, 0xFF, 0xFB)}
# zp, zp,X, (zp,X), (zp),Y, abs, abs,X, abs,Y
_RMW_SHAPE = ((2, 5), (2, 6), (2, 8), (2, 8), (3, 6), (3, 7), (3, 7))

UNDOCUMENTED = {}      # opcode -> (bytes, cycles)
for _ops in _RMW.values():
    UNDOCUMENTED.update(zip(_ops, _RMW_SHAPE))
UNDOCUMENTED.update({
    0x87: (2, 3), 0x97: (2, 4), 0x83: (2, 6), 0x8F: (3, 4),                               # SAX
    0xA7: (2, 3), 0xB7: (2, 4), 0xA3: (2, 6), 0xB3: (2, 5), 0xAF: (3, 4), 0xBF: (3, 4),   # LAX
    0x0B: (2, 2), 0x2B: (2, 2), 0x4B: (2, 2), 0x6B: (2, 2), 0xCB: (2, 2), 0xEB: (2, 2),   # ANC ALR ARR SBX SBC
    0xBB: (3, 4),                                                                         # LAS
    0x8B: (2, 2), 0xAB: (2, 2),                                                           # ANE LXA
    0x93: (2, 6), 0x9F: (3, 5), 0x9E: (3, 5), 0x9C: (3, 5), 0x9B: (3, 5),                 # SHA SHX SHY TAS
})
for _op in (0x1A, 0x3A, 0x5A, 0x7A, 0xDA, 0xFA):
    UNDOCUMENTED[_op] = (1, 2)
for _op in (0x80, 0x82, 0x89, 0xC2, 0xE2):
    UNDOCUMENTED[_op] = (2, 2)
for _op in (0x04, 0x44, 0x64):
    UNDOCUMENTED[_op] = (2, 3)
for _op in (0x14, 0x34, 0x54, 0x74, 0xD4, 0xF4):
    UNDOCUMENTED[_op] = (2, 4)
for _op in (0x0C, 0x1C, 0x3C, 0x5C, 0x7C, 0xDC, 0xFC):
    UNDOCUMENTED[_op] = (3, 4)


@pytest.mark.parametrize("opcode", sorted(UNDOCUMENTED), ids=lambda op: "%02X" % op)
def test_undocumented_opcodes_have_the_6510_length_and_cycles(opcode):
    length, cycles = UNDOCUMENTED[opcode]
    cpu = cpu_at([opcode], pc=0x1000)
    assert step(cpu) == cycles
    assert cpu.pc == 0x1000 + length


@pytest.mark.parametrize("code", [
    [0xBF, 0xFF, 0x20],        # LAX $20FF,Y
    [0xBB, 0xFF, 0x20],        # LAS $20FF,Y
    [0x1C, 0xFF, 0x20],        # NOP $20FF,X
    [0xB3, 0x10],              # LAX ($10),Y with ($10) = $20FF
])
def test_reads_that_cross_a_page_take_one_more_cycle(code):
    cpu = cpu_at(code, x=1, y=1)
    cpu.memory[0x10], cpu.memory[0x11] = 0xFF, 0x20
    base = UNDOCUMENTED[code[0]][1]
    assert step(cpu) == base + 1


def test_read_modify_write_combos_take_no_page_crossing_penalty():
    cpu = cpu_at([0xDF, 0xFF, 0x20], x=1)     # DCP $20FF,X
    assert step(cpu) == 7


# -- undocumented opcodes: what they do -------------------------------------------------

def test_lax_loads_the_same_byte_into_a_and_x():
    cpu = cpu_at([0xA7, 0x10])                # LAX $10
    cpu.memory[0x10] = 0x80
    step(cpu)
    assert (cpu.a, cpu.x) == (0x80, 0x80)
    assert cpu.p & N and not cpu.p & Z


def test_lax_indirect_y_loads_through_the_pointer():
    cpu = cpu_at([0xB3, 0x10], y=0x05)        # LAX ($10),Y
    cpu.memory[0x10], cpu.memory[0x11] = 0x00, 0x20
    cpu.memory[0x2005] = 0x00
    step(cpu)
    assert (cpu.a, cpu.x) == (0x00, 0x00)
    assert cpu.p & Z


def test_sax_stores_a_and_x_without_touching_the_flags():
    cpu = cpu_at([0x87, 0x10], a=0xF0, x=0x3C, p=0x30 | Z | N)   # SAX $10
    step(cpu)
    assert cpu.memory[0x10] == 0x30
    assert cpu.p == 0x30 | Z | N


def test_sax_zero_page_y_indexes_with_y():
    cpu = cpu_at([0x97, 0x10], a=0xFF, x=0x0F, y=0x02)   # SAX $10,Y
    step(cpu)
    assert cpu.memory[0x12] == 0x0F


def test_dcp_decrements_memory_then_compares_it_with_a():
    cpu = cpu_at([0xC7, 0x10], a=0x40)        # DCP $10
    cpu.memory[0x10] = 0x41
    step(cpu)
    assert cpu.memory[0x10] == 0x40
    assert cpu.a == 0x40
    assert cpu.p & Z and cpu.p & C


def test_isc_increments_memory_then_subtracts_it_from_a():
    cpu = cpu_at([0xE7, 0x10], a=0x20, p=0x30 | C)   # ISC $10
    cpu.memory[0x10] = 0x0F
    step(cpu)
    assert cpu.memory[0x10] == 0x10
    assert cpu.a == 0x10
    assert cpu.p & C and not cpu.p & (Z | N)


def test_slo_shifts_memory_left_then_ors_it_into_a():
    cpu = cpu_at([0x07, 0x10], a=0x01)        # SLO $10
    cpu.memory[0x10] = 0x81
    step(cpu)
    assert cpu.memory[0x10] == 0x02
    assert cpu.a == 0x03
    assert cpu.p & C


def test_rla_rotates_memory_left_then_ands_it_into_a():
    cpu = cpu_at([0x27, 0x10], a=0xFF, p=0x30 | C)   # RLA $10
    cpu.memory[0x10] = 0x80
    step(cpu)
    assert cpu.memory[0x10] == 0x01
    assert cpu.a == 0x01
    assert cpu.p & C


def test_sre_shifts_memory_right_then_eors_it_into_a():
    cpu = cpu_at([0x47, 0x10], a=0x80)        # SRE $10
    cpu.memory[0x10] = 0x03
    step(cpu)
    assert cpu.memory[0x10] == 0x01
    assert cpu.a == 0x81
    assert cpu.p & C and cpu.p & N


def test_rra_rotates_memory_right_and_adds_it_with_the_carry_it_shifted_out():
    cpu = cpu_at([0x67, 0x10], a=0x10)        # RRA $10
    cpu.memory[0x10] = 0x03
    step(cpu)
    assert cpu.memory[0x10] == 0x01
    assert cpu.a == 0x12                      # $10 + $01 + carry 1
    assert not cpu.p & C


def test_anc_ands_and_copies_bit_7_into_carry():
    cpu = cpu_at([0x0B, 0xFF], a=0x80)        # ANC #$FF
    step(cpu)
    assert cpu.a == 0x80
    assert cpu.p & C and cpu.p & N
    cpu = cpu_at([0x2B, 0x0F], a=0x7F, p=0x30 | C)   # ANC #$0F (the other opcode)
    step(cpu)
    assert cpu.a == 0x0F
    assert not cpu.p & C


def test_alr_ands_then_shifts_right():
    cpu = cpu_at([0x4B, 0x03], a=0xFF)        # ALR #$03
    step(cpu)
    assert cpu.a == 0x01
    assert cpu.p & C and not cpu.p & N


def test_arr_ands_rotates_right_and_takes_c_from_bit_6_and_v_from_bits_6_xor_5():
    cpu = cpu_at([0x6B, 0xFF], a=0xFF, p=0x30 | C)   # ARR #$FF
    step(cpu)
    assert cpu.a == 0xFF
    assert cpu.p & C and cpu.p & N and not cpu.p & V
    cpu = cpu_at([0x6B, 0x40], a=0xFF)        # ARR #$40: result $20
    step(cpu)
    assert cpu.a == 0x20
    assert not cpu.p & C and cpu.p & V


def test_sbx_subtracts_from_a_and_x_without_borrow_or_decimal_mode():
    cpu = cpu_at([0xCB, 0x10], a=0xF0, x=0x3C, p=0x30 | D)   # SBX #$10
    step(cpu)
    assert cpu.x == 0x20
    assert cpu.a == 0xF0
    assert cpu.p & C
    cpu = cpu_at([0xCB, 0x40], a=0xF0, x=0x3C)
    step(cpu)
    assert cpu.x == 0xF0
    assert not cpu.p & C and cpu.p & N


def test_las_ands_memory_with_sp_into_a_x_and_sp():
    cpu = cpu_at([0xBB, 0x00, 0x20], y=0, sp=0x3F)   # LAS $2000,Y
    cpu.memory[0x2000] = 0xF3
    step(cpu)
    assert (cpu.a, cpu.x, cpu.sp) == (0x33, 0x33, 0x33)


def test_eb_is_sbc_immediate():
    cpu = cpu_at([0xEB, 0x01], a=0x10, p=0x30 | C)   # SBC #$01 (undocumented encoding)
    step(cpu)
    assert cpu.a == 0x0F
    assert cpu.p & C


def test_nops_change_no_register_or_flag():
    for code in ([0x1A], [0x80, 0x55], [0x04, 0x10], [0x14, 0x10], [0x0C, 0x00, 0x20], [0x1C, 0x00, 0x20]):
        cpu = cpu_at(code, a=1, x=2, y=3, p=0x30 | C)
        step(cpu)
        assert (cpu.a, cpu.x, cpu.y, cpu.p, cpu.sp) == (1, 2, 3, 0x30 | C, 0xFF)
        assert cpu.memory[0x10] == 0xAA


# -- opcodes that must stop ------------------------------------------------------------------

@pytest.mark.parametrize("opcode", [0x02, 0x12, 0x22, 0x32, 0x42, 0x52, 0x62, 0x72, 0x92, 0xB2, 0xD2, 0xF2])
def test_jam_opcodes_stop_with_a_message_naming_the_address(opcode):
    cpu = cpu_at([opcode], pc=0x1234)
    with pytest.raises(CPUStop) as stop:
        cpu.step()
    assert "JAM" in str(stop.value)
    assert "$1234" in str(stop.value)
    assert stop.value.pc == 0x1234


# -- the same stops inside a running machine: a message, never a traceback -----------------------

def run_code(code, at=0xC000):
    m = C64()
    for offset, byte in enumerate(code):
        m.poke(at + offset, byte)
    m.start(at)
    reason = m.run(max_cycles=100_000)
    return m, reason


def test_a_jam_in_a_running_program_ends_the_run_with_an_error_naming_the_address():
    m, reason = run_code([0xEA, 0xEA, 0x02])          # NOP NOP JAM
    assert reason is StopReason.ERROR
    assert "JAM" in m.error and "$C002" in m.error


def test_the_chip_dependent_opcodes_run_in_a_program():
    # LDA #$FF / LDX #$0F / ANE #$3C / STA $C100 / LDY #$F0 / SHY $C0F0,X (-> $C0FF, Y & $C1)
    m, reason = run_code([0xA9, 0xFF, 0xA2, 0x0F, 0x8B, 0x3C, 0x8D, 0x00, 0xC1,
                          0xA0, 0xF0, 0x9C, 0xF0, 0xC0, 0x02])
    assert reason is StopReason.ERROR and "JAM" in m.error and "$C00E" in m.error
    assert m.peek(0xC100) == 0x0C and m.peek(0xC0FF) == 0xC0


def test_brk_into_the_default_vector_is_reported_with_its_address():
    m, reason = run_code([0xEA, 0x00, 0xEA])          # NOP / BRK
    assert reason is StopReason.ERROR
    assert "BRK" in m.error and "$C001" in m.error


def test_a_jump_into_rom_filler_is_reported_as_a_jump_into_nowhere():
    m, reason = run_code([0x4C, 0x00, 0xE0])          # JMP $E000 (no routine there)
    assert reason is StopReason.ERROR
    assert "$E000" in m.error and "no routine" in m.error


def test_a_jump_into_basic_rom_filler_is_reported_too():
    m, reason = run_code([0x20, 0x00, 0xB0])          # JSR $B000
    assert reason is StopReason.ERROR
    assert "$B000" in m.error


def test_the_trap_opcode_in_ram_at_a_kernal_address_is_a_jam_not_a_kernal_call():
    # KERNAL banked out ($01 = $35): $E544 is RAM, and a $02 there must not clear the screen.
    m = C64()
    m.mem.ram[0xE544] = 0x02
    for offset, byte in enumerate([0x78, 0xA9, 0x35, 0x85, 0x01, 0x4C, 0x44, 0xE5]):
        m.poke(0xC000 + offset, byte)          # SEI / LDA #$35 / STA $01 / JMP $E544
    m.poke(0x0400, 0x01)
    m.start(0xC000)
    reason = m.run(max_cycles=100_000)
    assert reason is StopReason.ERROR
    assert "JAM" in m.error and "$E544" in m.error
    assert m.peek(0x0400) == 0x01


def test_the_trap_opcode_traps_until_something_replaces_its_handler(monkeypatch):
    from c64.cpu import trap_opcode_traps
    from kernal.rom import TRAP_OPCODE
    assert trap_opcode_traps()
    instruct = list(CPU.instruct)
    instruct[TRAP_OPCODE] = MPU.instruct[0xEA]                              # a NOP instead
    monkeypatch.setattr(CPU, "instruct", instruct)
    assert not trap_opcode_traps()
