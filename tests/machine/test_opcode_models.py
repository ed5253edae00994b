"""Opcodes over all their inputs, on both cores, against models written from the documentation.

The models below are written from the published descriptions, not from c64/cpu.py:
decimal ADC and SBC after Bruce Clark's "Decimal Mode" tutorial (its sequences for the
NMOS 6502: the accumulator and carry, N and V from the intermediate result, Z from
the binary sum; SBC's flags all binary), and the undocumented opcodes after "No More
Secrets" (NMOS 6510 Unintended Opcodes): ARR in both modes, ISC and RRA as their two
halves, ANE and LXA with their "magic" constant, SHA/SHX/SHY/TAS without DMA.

The reference CPU is stepped through the inputs.  The fast core runs a 6502 loop
over the accumulator's 256 values for each operand and carry (so its translated
blocks, compiled for decimal mode where D is set, do the arithmetic), and the
SHA/SHX/SHY/TAS cases in small programs of their own.  The arithmetic takes every
A and carry with a sample of operands by default, every operand under `-m slow`.
"""

import random

import pytest

from c64.cpu import ANE_CONSTANT, CPU, LXA_CONSTANT
from c64.fastcpu import FastCPU

N, V, D, Z, C = 0x80, 0x40, 0x08, 0x02, 0x01
CODE, LOOP_END = 0x1000, 0x1100
RESULT_A, RESULT_P, RESULT_M = 0x2000, 0x2100, 0x2200
ZP = 0xFB


# -- the models ---------------------------------------------------------------------------------

def nz(value):
    return (value & N) | (0 if value else Z)


def adc_model(a, m, c, decimal):
    """(A, flags) of ADC: binary, or decimal per Clark's sequences 1 and 2 (NMOS)."""
    binary = a + m + c
    overflow = V if ~(a ^ m) & (a ^ binary) & 0x80 else 0
    if not decimal:
        return binary & 0xFF, nz(binary & 0xFF) | overflow | (C if binary > 0xFF else 0)
    low = (a & 0x0F) + (m & 0x0F) + c                  # 1a
    if low >= 0x0A:
        low = ((low + 0x06) & 0x0F) + 0x10             # 1b
    total = (a & 0xF0) + (m & 0xF0) + low               # 1c
    if total >= 0xA0:
        total += 0x60                                   # 1e
    signed = _signed(a & 0xF0) + _signed(m & 0xF0) + low    # 2c, two's complement
    flags = (signed & N) | (V if not -128 <= signed <= 127 else 0)
    flags |= 0 if binary & 0xFF else Z                  # Z from the binary sum on the 6502
    return total & 0xFF, flags | (C if total >= 0x100 else 0)


def _signed(byte):
    return byte - 0x100 if byte & 0x80 else byte


def sbc_model(a, m, c, decimal):
    """(A, flags) of SBC: the flags binary; the decimal result per Clark's sequence 3."""
    binary = a - m - (1 - c)
    result = binary & 0xFF
    overflow = V if (a ^ m) & (a ^ result) & 0x80 else 0
    flags = nz(result) | overflow | (C if binary >= 0 else 0)
    if not decimal:
        return result, flags
    low = (a & 0x0F) - (m & 0x0F) + c - 1               # 3a
    if low < 0:
        low = ((low - 0x06) & 0x0F) - 0x10              # 3b
    total = (a & 0xF0) - (m & 0xF0) + low               # 3c
    if total < 0:
        total -= 0x60                                   # 3d
    return total & 0xFF, flags


def arr_model(a, m, c, decimal):
    """ARR (No More Secrets): A AND #imm, then ROR.  Binary: C = bit 6, V = bit 6 XOR bit 5
    of the result.  Decimal: N = the old carry, Z from the ROR's result, V when bit 6
    changed; then each nibble of the AND's value whose (nibble + its bit 0) exceeds 5 is
    corrected by 6, the high one setting C."""
    anded = a & m
    result = (anded >> 1) | (c << 7)
    if not decimal:
        return result, nz(result) | (C if result & 0x40 else 0) | (V if (result ^ (result << 1)) & 0x40 else 0)
    flags = (N if c else 0) | (0 if result else Z) | (V if (anded ^ result) & 0x40 else 0)
    low, high = anded & 0x0F, anded >> 4
    if low + (low & 1) > 5:
        result = (result & 0xF0) | ((result + 6) & 0x0F)
    if high + (high & 1) > 5:
        result = (result + 0x60) & 0xFF
        flags |= C
    return result, flags


def isc_model(a, m, c, decimal):
    """ISC: INC memory, then SBC it.  Returns (A, flags, memory)."""
    m = (m + 1) & 0xFF
    return sbc_model(a, m, c, decimal) + (m,)


def rra_model(a, m, c, decimal):
    """RRA: ROR memory (its bit 0 is the carry), then ADC it."""
    rotated = (m >> 1) | (c << 7)
    return adc_model(a, rotated, m & 1, decimal) + (rotated,)


# -- the reference CPU, stepped ---------------------------------------------------------------------

def step_each(code, cases, setup):
    """Step `code` at CODE once for each case; setup(cpu, memory, case) sets the inputs.
    Yields (case, cpu, memory) after the step."""
    memory = [0] * 0x10000
    memory[CODE:CODE + len(code)] = code
    cpu = CPU(memory, pc=CODE)
    for case in cases:
        cpu.pc = CODE
        setup(cpu, memory, case)
        cpu.step()
        yield case, cpu, memory


ARITHMETIC = {
    # name: (the instruction for an operand m, model, writes memory): zero page $FB holds m
    "ADC": (lambda m: [0x65, ZP], adc_model, False), "SBC": (lambda m: [0xE5, ZP], sbc_model, False),
    "ISC": (lambda m: [0xE7, ZP], isc_model, True), "RRA": (lambda m: [0x67, ZP], rra_model, True),
    "ARR": (lambda m: [0x6B, m], arr_model, False),
}
# Every operand under `-m slow`; by default the 0-9/A-F nibble corners and a fixed sample.
EVERY_OPERAND = range(256)
SOME_OPERANDS = sorted({0x00, 0x01, 0x09, 0x0A, 0x0F, 0x10, 0x19, 0x50, 0x59, 0x5A, 0x90, 0x99, 0x9A,
                        0xA0, 0xAF, 0xF0, 0xF9, 0xFA, 0xFF} | set(random.Random(6510).sample(range(256), 8)))


def _check(expected, got, case, name, decimal):
    assert got == expected, "%s%s A=$%02X M=$%02X C=%d: got %s, the model %s" % (
        name, " (decimal)" if decimal else "", case[0], case[1], case[2],
        " ".join("$%02X" % v for v in got), " ".join("$%02X" % v for v in expected))


def reference_sweep(name, decimal, operands):
    """Step the opcode on the reference CPU for every A and carry, each operand given."""
    instruction, model, writes = ARITHMETIC[name]
    memory = [0] * 0x10000
    cpu = CPU(memory, pc=CODE)
    status = 0x30 | (D if decimal else 0)
    for m in operands:
        code = instruction(m)
        memory[CODE:CODE + len(code)] = code
        for a in range(256):
            for c in (0, 1):
                cpu.pc, cpu.a, cpu.p = CODE, a, status | c
                memory[ZP] = m
                cpu.step()
                got = (cpu.a, cpu.p & (N | V | Z | C)) + ((memory[ZP],) if writes else ())
                expected = model(a, m, c, decimal)
                if got != expected:
                    _check(expected, got, (a, m, c), name, decimal)


# -- the fast core, a 6502 loop over A -------------------------------------------------------------

def loop_program(operation, m, c, decimal, writes):
    """CODE: SED/CLD, then for Y = 0..255: [LDA #m / STA $FB]  TYA  CLC|SEC  operation
    STA RESULT_A,Y  PHP  PLA  STA RESULT_P,Y  [LDA $FB / STA RESULT_M,Y]  INY  BNE;
    then JMP LOOP_END (a JMP to itself)."""
    body = [0xA9, m, 0x85, ZP] if writes else []
    body += [0x98, 0x38 if c else 0x18] + operation
    body += [0x99, RESULT_A & 0xFF, RESULT_A >> 8, 0x08, 0x68, 0x99, RESULT_P & 0xFF, RESULT_P >> 8]
    if writes:
        body += [0xA5, ZP, 0x99, RESULT_M & 0xFF, RESULT_M >> 8]
    body += [0xC8]
    body += [0xD0, (-(len(body) + 2)) & 0xFF]
    code = [0xF8 if decimal else 0xD8, 0xA0, 0x00] + body + [0x4C, LOOP_END & 0xFF, LOOP_END >> 8]
    return code


class FastRunner:
    """One fast core over one memory, running loop programs one after another (code
    written behind its back between runs: run() finds and retranslates it)."""

    def __init__(self):
        self.memory = [0] * 0x10000
        self.memory[LOOP_END:LOOP_END + 3] = [0x4C, LOOP_END & 0xFF, LOOP_END >> 8]
        self.cpu = FastCPU(self.memory, pc=CODE)

    def run(self, code):
        self.memory[CODE:CODE + len(code)] = code
        cpu = self.cpu
        cpu.pc = CODE
        while cpu.pc != LOOP_END:
            cpu.run(cpu.processorCycles + 2000)       # (then the JMP to itself spins a little)
        return cpu


def fast_sweep(name, decimal, operands):
    """Run the loop for each operand and carry on one fast core; check every A."""
    instruction, model, writes = ARITHMETIC[name]
    runner = FastRunner()
    memory = runner.memory
    for m in operands:
        for c in (0, 1):
            memory[ZP] = m
            runner.run(loop_program(instruction(m), m, c, decimal, writes))
            for a in range(256):
                got = (memory[RESULT_A + a], memory[RESULT_P + a] & (N | V | Z | C))
                if writes:
                    got += (memory[RESULT_M + a],)
                expected = model(a, m, c, decimal)
                if got != expected:
                    _check(expected, got, (a, m, c), name, decimal)


SWEEPS = {"reference": reference_sweep, "fast": fast_sweep}


@pytest.mark.parametrize("decimal", (False, True), ids=("binary", "decimal"))
@pytest.mark.parametrize("name", sorted(ARITHMETIC))
@pytest.mark.parametrize("core", sorted(SWEEPS))
def test_arithmetic_opcodes_match_the_model_for_every_a_and_carry(core, name, decimal):
    SWEEPS[core](name, decimal, SOME_OPERANDS)


@pytest.mark.slow
@pytest.mark.parametrize("decimal", (False, True), ids=("binary", "decimal"))
@pytest.mark.parametrize("name", sorted(ARITHMETIC))
@pytest.mark.parametrize("core", sorted(SWEEPS))
def test_arithmetic_opcodes_match_the_model_for_every_input(core, name, decimal):
    SWEEPS[core](name, decimal, EVERY_OPERAND)


# -- ANE and LXA ----------------------------------------------------------------------------------

def ane_model(a, x, imm):
    value = (a | ANE_CONSTANT) & x & imm
    return value, x, nz(value)


def lxa_model(a, x, imm):
    value = (a | LXA_CONSTANT) & imm
    return value, value, nz(value)


MAGIC = {"ANE": (0x8B, ane_model), "LXA": (0xAB, lxa_model)}


def test_the_magic_constant_is_what_the_suites_read_back():
    # The Emulator Test Suite reads the constant as A=0, X=$FF, ANE #$FF (LXA #$FF alike).
    for name, (opcode, _) in MAGIC.items():
        cpu = next(step_each([opcode, 0xFF], [None], lambda cpu, memory, case: setattr(cpu, "x", 0xFF)))[1]
        assert cpu.a == (ANE_CONSTANT if name == "ANE" else LXA_CONSTANT)
    assert ANE_CONSTANT == LXA_CONSTANT == 0xEE


@pytest.mark.parametrize("name", sorted(MAGIC))
def test_ane_and_lxa_on_the_reference_cpu_for_every_a_and_immediate(name):
    opcode, model = MAGIC[name]
    cases = [(a, x, imm) for imm in range(256) for a in range(256) for x in (0xFF, 0x5A)]
    cases += [(a, x, 0xFF) for a in (0x00, 0x11, 0xFF) for x in range(256)]

    def setup(cpu, memory, case):
        cpu.a, cpu.x, cpu.p = case[0], case[1], 0x30 | N | Z
        memory[CODE + 1] = case[2]
    for case, cpu, _ in step_each([opcode, 0], cases, setup):
        assert (cpu.a, cpu.x, cpu.p & (N | Z)) == model(*case), (name, case)
        assert cpu.p & (V | C | D) == 0 and cpu.processorCycles % 2 == 0


@pytest.mark.parametrize("name", sorted(MAGIC))
def test_ane_and_lxa_on_the_fast_core_for_every_a(name):
    opcode, model = MAGIC[name]
    runner = FastRunner()
    memory = runner.memory
    for imm in (0x00, 0x0F, 0x5A, 0xA5, 0xF0, 0xFF):
        for x in (0xFF, 0x3C):
            operation = [0xA2, x, opcode, imm]          # LDX #x / ANE|LXA #imm
            runner.run(loop_program(operation, 0, 0, False, False))
            for a in range(256):
                value, _, flags = model(a, x, imm)
                assert (memory[RESULT_A + a], memory[RESULT_P + a] & (N | Z)) == (value, flags), (name, a, x, imm)


# -- SHA, SHX, SHY, TAS: stores ANDed with the address's high byte + 1 ----------------------------

def sh_model(value, base, index):
    """(address written, value written) for a register value stored by SHA/SHX/SHY/TAS:
    value AND (high byte of the base address + 1); when the index crosses a page, the
    address's high byte becomes that value (No More Secrets, the case without DMA)."""
    stored = value & ((base >> 8) + 1) & 0xFF
    if (base & 0xFF) + index > 0xFF:
        return (stored << 8) | ((base + index) & 0xFF), stored
    return (base + index) & 0xFFFF, stored


SH_OPS = {
    # name: (opcode, mode, the value stored from (a, x, y), index register)
    "SHA abs,Y": (0x9F, "aby", lambda a, x, y: a & x, "y"),
    "SHA (zp),Y": (0x93, "iny", lambda a, x, y: a & x, "y"),
    "SHX abs,Y": (0x9E, "aby", lambda a, x, y: x, "y"),
    "SHY abs,X": (0x9C, "abx", lambda a, x, y: y, "x"),
    "TAS abs,Y": (0x9B, "aby", lambda a, x, y: a & x, "y"),
}
SH_POINTER = 0x80


def sh_cases(rng, count):
    """(a, x, y, base) cases: every high byte of the base, indexes that cross and that don't."""
    cases = []
    for high in range(256):
        for _ in range(count):
            low = rng.randrange(256)
            cases.append((rng.randrange(256), rng.randrange(256), rng.randrange(256), (high << 8) | low))
    return cases


def sh_code(opcode, mode, base):
    if mode == "iny":
        return [opcode, SH_POINTER]
    return [opcode, base & 0xFF, base >> 8]


def _sh_expected(name, case):
    opcode, mode, value_of, _ = SH_OPS[name]
    a, x, y, base = case
    return sh_model(value_of(a, x, y), base, x if mode == "abx" else y)


@pytest.mark.parametrize("name", sorted(SH_OPS))
def test_sha_shx_shy_tas_on_the_reference_cpu_over_every_high_byte(name):
    opcode, mode, _, _ = SH_OPS[name]
    rng = random.Random(name)
    for case in sh_cases(rng, 24):
        a, x, y, base = case
        memory = bytearray(0x10000)
        code_at = 0x0300 if base >> 8 == 0x02 else 0x0200
        code = sh_code(opcode, mode, base)
        memory[code_at:code_at + len(code)] = bytes(code)
        memory[SH_POINTER], memory[SH_POINTER + 1] = base & 0xFF, base >> 8
        before = bytes(memory)
        cpu = CPU(memory, pc=code_at)
        cpu.a, cpu.x, cpu.y = a, x, y
        cpu.step()
        address, stored = _sh_expected(name, case)
        assert memory[address] == stored, (name, case, hex(address))
        memory[address] = before[address]
        assert memory == before, (name, case)                 # nothing else was written
        assert (cpu.a, cpu.x, cpu.y) == (a, x, y)
        assert cpu.sp == (a & x if name.startswith("TAS") else 0xFF)
        assert cpu.processorCycles == (6 if mode == "iny" else 5) and cpu.pc == code_at + len(code)


@pytest.mark.parametrize("name", sorted(SH_OPS))
def test_sha_shx_shy_tas_on_the_fast_core_in_a_running_program(name):
    """LDA/LDX/LDY, the store, then the JMP the fast core compiles: a sample of high bytes."""
    opcode, mode, _, _ = SH_OPS[name]
    rng = random.Random(name + "fast")
    runner = FastRunner()
    memory = runner.memory
    checked = 0
    for case in sh_cases(rng, 1):
        a, x, y, base = case
        address, stored = _sh_expected(name, case)
        if {address >> 8, base >> 8} & {0x00, 0x01, CODE >> 8, LOOP_END >> 8}:
            continue                                  # (it would store over the test's own code)
        memory[SH_POINTER], memory[SH_POINTER + 1] = base & 0xFF, base >> 8
        memory[address] = stored ^ 0xFF
        cpu = runner.run([0xA9, a, 0xA2, x, 0xA0, y] + sh_code(opcode, mode, base)
                         + [0x4C, LOOP_END & 0xFF, LOOP_END >> 8])
        assert memory[address] == stored, (name, case)
        if name.startswith("TAS"):
            assert cpu.sp == a & x
        checked += 1
    assert checked > 150
