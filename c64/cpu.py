"""The 6510 CPU: py65's 6502 with the C64's undocumented-opcode behaviour and KERNAL traps.

py65 runs every undocumented opcode as a silent 2-byte NOP.  A real 6510
does something well defined with most of them (LAX, SAX, DCP, ISC, SLO, RLA,
SRE, RRA, ANC, ALR, ARR, SBX, LAS, $EB SBC, the multi-byte NOPs), locks up
on the JAM opcodes, and with a few (ANE, LXA, SHA, SHX, SHY, TAS) gives a
result that depends on analogue effects inside the chip.  This class
implements all of them: the last group as a C64's 6510 does them when no DMA
takes the bus (docs/c64.md, "Undocumented opcodes", says where a real
machine can differ).  A JAM stops with a clear message, as VICE reports a
CPU jam.

The JAM opcode $02 (kernal.rom.TRAP_OPCODE) doubles as the trap instruction of our stub ROM: when it
is fetched from ROM at an address the KERNAL implements in Python, the trap
handler runs instead of a jam.
"""

from py65.devices.mpu6502 import MPU

from kernal.errors import CPUStop
from kernal.rom import TRAP_OPCODE

JAM_OPCODES = (TRAP_OPCODE, 0x12, 0x22, 0x32, 0x42, 0x52, 0x62, 0x72, 0x92, 0xB2, 0xD2, 0xF2)

# ANE ($8B) and LXA ($AB) OR the accumulator with a constant of the chip before the AND
# ("magic constant"; real 6510s give $00, $EE, $EF, $FE or $FF, with temperature and
# chip).  $EE is the value most often measured on C64s; programs that work on real
# machines use only cases where it does not matter (A = $FF, or an immediate of 0).
ANE_CONSTANT = 0xEE
LXA_CONSTANT = 0xEE


class CPU(MPU):
    """py65 MPU with the 6510's undocumented opcodes, JAM detection and KERNAL traps.

    `trap_handler(addr)` is called when a trap opcode is fetched from ROM at
    `addr`; it runs the routine and sets pc itself (normally as an RTS).  The
    instruction tables are copies, so plain py65 MPUs are unaffected.
    """

    instruct = list(MPU.instruct)
    cycletime = list(MPU.cycletime)
    extracycles = list(MPU.extracycles)
    disassemble = list(MPU.disassemble)

    def __init__(self, memory, trap_handler=None, pc=0x0000):
        self.trap_handler = trap_handler
        self.stop_requested = False
        self.last_step = None
        self._io_fetch = None        # [cycle, opcode] of an instruction fetched from I/O
        MPU.__init__(self, memory, pc)

    # -- run loop ----------------------------------------------------------
    def run(self, cycle_limit, verify=True, exact=False, irq_waiting=False):
        """Execute instructions until processorCycles reaches cycle_limit or stop() is called.

        Returns at the first instruction boundary at or after cycle_limit; `last_step` is
        then (pc, p, cycle) before the instruction that crossed it, else None (stopped
        early).  With `irq_waiting` (the IRQ line is active and the I flag set) it returns
        as soon as an instruction leaves I clear (CLI, PLP, RTI), last_step that
        instruction's.  (`verify` is for cores that cache translated code, c64.fastcpu;
        stepping has nothing to verify; stepping is always `exact`.)"""
        self.stop_requested = False
        self.last_step = None
        self._io_fetch = None        # [cycle, opcode] of an instruction fetched from I/O
        step = self.step
        if irq_waiting:
            while self.processorCycles < cycle_limit and not self.stop_requested and self.p & 0x04:
                self.last_step = (self.pc, self.p, self.processorCycles)
                step()
            return
        near = cycle_limit - LONGEST_INSTRUCTION
        while self.processorCycles < near and not self.stop_requested:
            step()
        while self.processorCycles < cycle_limit and not self.stop_requested:
            self.last_step = (self.pc, self.p, self.processorCycles)
            step()

    def stop(self):
        """Ask run() to return after the current instruction (used by traps that wait)."""
        self.stop_requested = True

    @property
    def irq_masked(self):
        """The I flag (nonzero: an IRQ waits)."""
        return self.p & self.INTERRUPT

    def irq(self, force=False):
        """An IRQ: taken when I is clear, or with `force` (the I flag was clear when the CPU
        looked at the line, in the instruction that set it: SEI, PLP)."""
        if self.p & self.INTERRUPT and not force:
            return
        self.stPushWord(self.pc)
        self.p &= ~self.BREAK
        self.stPush(self.p | self.UNUSED)
        self.p |= self.INTERRUPT
        self.pc = self.WordAt(self.IRQ)
        self.processorCycles += 7

    def access_cycle(self, write, addr=None):
        """The bus cycle of the data access being made now, inside an instruction (for the
        chips, c64.io): (cycle, cycle of the dummy write first or None).  A read or write
        happens in the instruction's last cycle (one later with an indexed read crossing a
        page); a read-modify-write reads two cycles before its end and writes the old value
        back in the next-to-last cycle, the new one in the last."""
        start = self.processorCycles
        sources = getattr(self.memory, "page_sources", None)
        fetch = self._io_fetch
        if fetch is not None and fetch[0] == start:
            # An instruction running from I/O (code in a chip's registers): its opcode was
            # the read before this one; its operand bytes are read in its 2nd and 3rd cycles.
            if fetch[1] is None:
                fetch[1] = self.memory.io.last_read
            if addr == self.pc:
                return start + 1, None
            if addr == (self.pc + 1) & 0xFFFF:
                return start + 2, None
            op = fetch[1]
        elif addr is not None and addr == self.pc and sources is not None and sources[addr >> 8] is None:
            self._io_fetch = [start, None]       # the opcode fetch, in the first cycle
            return start, None
        else:
            pc = (self.pc - 1) & 0xFFFF          # (py65 has moved past the opcode only)
            source = sources[pc >> 8] if sources is not None else self.memory
            if source is None:
                return start, None
            op = source[pc]
        cycles = self.cycletime[op]
        if op in RMW_OPCODES:
            if write:
                return start + cycles - 1, start + cycles - 2
            return start + cycles - 3, None
        if not cycles:
            return start, None
        return start + cycles - 1 + self.excycles, None

    # -- addresses ------------------------------------------------------------------------
    def WordAt(self, addr):
        """The word at addr, its high byte from (addr + 1) & $FFFF: py65 reads addr + 1
        unmasked, so an absolute operand at $FFFF (an instruction at $FFFE) failed."""
        memory = self.memory
        return memory[addr] | (memory[(addr + 1) & 0xFFFF] << 8)

    # -- jams and traps ------------------------------------------------------
    def _jam(self):
        addr = (self.pc - 1) & 0xFFFF
        opcode = self.memory[addr]
        # A plain 64 KB list (py65's tests, unit tests) has no ROM.
        in_rom = hasattr(self.memory, "rom_visible") and self.memory.rom_visible(addr)
        if opcode == TRAP_OPCODE and self.trap_handler is not None and in_rom:
            self.trap_handler(addr)
            return
        if in_rom:
            raise CPUStop("CPU JAM at $%04X: jumped into the ROM at an address with no routine "
                          "(this C64 has no Commodore ROM, only the KERNAL entry points)" % addr, addr)
        raise CPUStop("CPU JAM at $%04X (opcode $%02X)" % (addr, opcode), addr)



def _define(opcode, name, mode, cycles, extracycles, function):
    CPU.instruct[opcode] = function
    CPU.disassemble[opcode] = (name, mode)
    CPU.cycletime[opcode] = cycles
    CPU.extracycles[opcode] = extracycles


for _op in JAM_OPCODES:
    _define(_op, "JAM", "imp", 0, 0, CPU._jam)


def trap_opcode_traps():
    """True while the trap opcode runs CPU's JAM handler, which calls the trap handler (a
    translating core may then call the handler itself); False if something replaced it."""
    return CPU.instruct[TRAP_OPCODE] is CPU._jam


# py65 gives DEC absolute 3 cycles; the 6502 takes 6 (read-modify-write).
CPU.cycletime[0xCE] = 6

# Addressing modes: (address function name, operand bytes).
_MODES = {
    "zpg": ("ZeroPageAddr", 1), "zpx": ("ZeroPageXAddr", 1), "zpy": ("ZeroPageYAddr", 1),
    "abs": ("AbsoluteAddr", 2), "abx": ("AbsoluteXAddr", 2), "aby": ("AbsoluteYAddr", 2),
    "inx": ("IndirectXAddr", 1), "iny": ("IndirectYAddr", 1), "imm": ("ProgramCounter", 1),
    "imp": (None, 0),
}


def _rmw_combo(first, second):
    """A read-modify-write op followed by an accumulator op on the same byte (SLO, RLA, ...)."""
    def combo(self, address_function):
        addr = address_function()
        getattr(self, first)(lambda: addr)
        if second == "CMP":
            self.opCMPR(lambda: addr, self.a)
        else:
            getattr(self, second)(lambda: addr)
    return combo


def _op_sax(self, address_function):
    self.memory[address_function()] = self.a & self.x


def _op_lax(self, address_function):
    self.a = self.x = self.ByteAt(address_function())
    self.FlagsNZ(self.a)


def _op_nop(self, address_function):
    if address_function is not None:
        self.ByteAt(address_function())    # the dummy read happens on the real chip


def _op_anc(self, address_function):
    self.opAND(address_function)
    self.p = (self.p & ~self.CARRY) | (1 if self.a & 0x80 else 0)


def _op_alr(self, address_function):
    self.a &= self.ByteAt(address_function())
    self.opLSR(None)


def _op_arr(self, address_function):
    """AND, then ROR of A; C and V from bits 6 and 5 of the result.  In decimal mode the
    result is then corrected as BCD nibble by nibble, C from the high nibble's correction,
    N from the old carry and V from bit 6 changing (the NMOS 6510's ALU, documented in
    "No More Secrets")."""
    value = self.a & self.ByteAt(address_function())
    carry = 0x80 if self.p & self.CARRY else 0
    result = (value >> 1) | carry
    self.p &= ~(self.CARRY | self.OVERFLOW | self.NEGATIVE | self.ZERO)
    if not self.p & self.DECIMAL:
        self.a = result
        self.FlagsNZ(result)
        if result & 0x40:
            self.p |= self.CARRY
        if ((result >> 6) ^ (result >> 5)) & 1:
            self.p |= self.OVERFLOW
        return
    self.p |= carry | (0 if result else self.ZERO)     # N is the old carry, Z the ROR's result
    if (value ^ result) & 0x40:
        self.p |= self.OVERFLOW
    low, high = value & 0x0F, value >> 4
    if low + (low & 1) > 5:
        result = (result & 0xF0) | ((result + 6) & 0x0F)
    if high + (high & 1) > 5:
        result = (result + 0x60) & 0xFF
        self.p |= self.CARRY
    self.a = result


def _op_sbx(self, address_function):
    value = self.ByteAt(address_function())
    result = (self.a & self.x) - value
    self.p &= ~(self.CARRY | self.ZERO | self.NEGATIVE)
    if result >= 0:
        self.p |= self.CARRY
    self.x = result & 0xFF
    self.FlagsNZ(self.x)


def _op_las(self, address_function):
    value = self.ByteAt(address_function()) & self.sp
    self.a = self.x = self.sp = value
    self.FlagsNZ(value)


def _op_ane(self, address_function):
    self.a = (self.a | ANE_CONSTANT) & self.x & self.ByteAt(address_function())
    self.FlagsNZ(self.a)


def _op_lxa(self, address_function):
    self.a = self.x = (self.a | LXA_CONSTANT) & self.ByteAt(address_function())
    self.FlagsNZ(self.a)


def _unstable_store(register):
    """SHA, SHX, SHY and TAS: store `register(cpu)` ANDed with the base address's high byte
    + 1.  When adding the index crosses a page, that value also replaces the high byte of
    the address written (the 6510 forms it from the same internal bus).  This is the case
    without DMA: if the VIC takes the bus in the instruction's last cycles, the AND with
    the high byte + 1 drops out on a real C64 (not modelled: the VIC steals no cycles
    here)."""
    def store(self, base, index):
        value = register(self) & ((base >> 8) + 1) & 0xFF
        if (base & 0xFF) + index > 0xFF:
            address = (value << 8) | ((base + index) & 0xFF)
        else:
            address = (base + index) & 0xFFFF
        self.memory[address] = value
    return store


def _sha_x_a(self):
    return self.a & self.x


def _tas_value(self):
    self.sp = self.a & self.x
    return self.sp


_SHX = _unstable_store(lambda cpu: cpu.x)
_SHY = _unstable_store(lambda cpu: cpu.y)
_SHA = _unstable_store(_sha_x_a)
_TAS = _unstable_store(_tas_value)


def _absolute_indexed(store, register):
    def execute(self):
        store(self, self.WordAt(self.pc), getattr(self, register))
        self.pc += 2
    return execute


def _indirect_indexed(store):
    def execute(self):
        store(self, self.WrapAt(self.ByteAt(self.pc)), self.y)
        self.pc += 1
    return execute


def _instruction(operation, mode):
    address_name, length = _MODES[mode]

    def execute(self):
        operation(self, getattr(self, address_name) if address_name else None)
        self.pc += length
    return execute


# (name, operation, {mode: (opcode, cycles, page-cross extra)}), after the
# NMOS 6510 opcode matrix ("No More Secrets", NMOS 6510 Unintended Opcodes; cycle
# counts as measured on the real chip; docs/c64.md, "Undocumented opcodes").
_RMW_MODES = ("zpg", "zpx", "abs", "abx", "aby", "inx", "iny")
_RMW_CYCLES = (5, 6, 6, 7, 7, 8, 8)
_UNDOCUMENTED = [
    ("SLO", _rmw_combo("opASL", "opORA"), (0x07, 0x17, 0x0F, 0x1F, 0x1B, 0x03, 0x13)),
    ("RLA", _rmw_combo("opROL", "opAND"), (0x27, 0x37, 0x2F, 0x3F, 0x3B, 0x23, 0x33)),
    ("SRE", _rmw_combo("opLSR", "opEOR"), (0x47, 0x57, 0x4F, 0x5F, 0x5B, 0x43, 0x53)),
    ("RRA", _rmw_combo("opROR", "opADC"), (0x67, 0x77, 0x6F, 0x7F, 0x7B, 0x63, 0x73)),
    ("DCP", _rmw_combo("opDECR", "CMP"), (0xC7, 0xD7, 0xCF, 0xDF, 0xDB, 0xC3, 0xD3)),
    ("ISC", _rmw_combo("opINCR", "opSBC"), (0xE7, 0xF7, 0xEF, 0xFF, 0xFB, 0xE3, 0xF3)),
]
for _name, _operation, _opcodes in _UNDOCUMENTED:
    for _mode, _op, _cycles in zip(_RMW_MODES, _opcodes, _RMW_CYCLES):
        _define(_op, _name, _mode, _cycles, 0, _instruction(_operation, _mode))

for _op, _mode, _cycles, _extra in ((0x87, "zpg", 3, 0), (0x97, "zpy", 4, 0),
                                    (0x8F, "abs", 4, 0), (0x83, "inx", 6, 0)):
    _define(_op, "SAX", _mode, _cycles, _extra, _instruction(_op_sax, _mode))
for _op, _mode, _cycles, _extra in ((0xA7, "zpg", 3, 0), (0xB7, "zpy", 4, 0), (0xAF, "abs", 4, 0),
                                    (0xBF, "aby", 4, 1), (0xA3, "inx", 6, 0), (0xB3, "iny", 5, 1)):
    _define(_op, "LAX", _mode, _cycles, _extra, _instruction(_op_lax, _mode))
for _op in (0x1A, 0x3A, 0x5A, 0x7A, 0xDA, 0xFA):
    _define(_op, "NOP", "imp", 2, 0, _instruction(_op_nop, "imp"))
for _op in (0x80, 0x82, 0x89, 0xC2, 0xE2):
    _define(_op, "NOP", "imm", 2, 0, _instruction(_op_nop, "imm"))
for _op in (0x04, 0x44, 0x64):
    _define(_op, "NOP", "zpg", 3, 0, _instruction(_op_nop, "zpg"))
for _op in (0x14, 0x34, 0x54, 0x74, 0xD4, 0xF4):
    _define(_op, "NOP", "zpx", 4, 0, _instruction(_op_nop, "zpx"))
_define(0x0C, "NOP", "abs", 4, 0, _instruction(_op_nop, "abs"))
for _op in (0x1C, 0x3C, 0x5C, 0x7C, 0xDC, 0xFC):
    _define(_op, "NOP", "abx", 4, 1, _instruction(_op_nop, "abx"))
for _op, _name, _operation in ((0x0B, "ANC", _op_anc), (0x2B, "ANC", _op_anc), (0x4B, "ALR", _op_alr),
                               (0x6B, "ARR", _op_arr), (0xCB, "SBX", _op_sbx)):
    _define(_op, _name, "imm", 2, 0, _instruction(_operation, "imm"))
_define(0xEB, "SBC", "imm", 2, 0, CPU.instruct[0xE9])
_define(0x8B, "ANE", "imm", 2, 0, _instruction(_op_ane, "imm"))
_define(0xAB, "LXA", "imm", 2, 0, _instruction(_op_lxa, "imm"))
_define(0x93, "SHA", "iny", 6, 0, _indirect_indexed(_SHA))
_define(0x9F, "SHA", "aby", 5, 0, _absolute_indexed(_SHA, "y"))
_define(0x9E, "SHX", "aby", 5, 0, _absolute_indexed(_SHX, "y"))
_define(0x9C, "SHY", "abx", 5, 0, _absolute_indexed(_SHY, "x"))
_define(0x9B, "TAS", "aby", 5, 0, _absolute_indexed(_TAS, "y"))
_define(0xBB, "LAS", "aby", 4, 1, _instruction(_op_las, "aby"))

assert MPU.inst_not_implemented not in CPU.instruct, "every opcode must be defined"

# The read-modify-write opcodes on memory (their data accesses: c64.cpu.CPU.access_cycle).
RMW_OPCODES = frozenset(
    op for op, (name, mode) in enumerate(CPU.disassemble)
    if name in ("ASL", "LSR", "ROL", "ROR", "INC", "DEC", "SLO", "RLA", "SRE", "RRA", "DCP", "ISC")
    and mode not in ("acc", "imp"))

# The most cycles an instruction takes (a read-modify-write (zp),Y: 8).
LONGEST_INSTRUCTION = 9
