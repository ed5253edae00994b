"""The 6502 instruction set as the translator sees it: the documented opcodes, their groups,
the branch conditions, the flags each instruction reads and writes (for liveness), and the
decoded instruction (Insn) with the helpers that measure it.
"""

from py65.devices.mpu6502 import MPU

from c64.cpu import CPU


# Liveness: which of the flags N, Z, C, V a later instruction may still read (sets of these
# bits; they are the translator's own, not the 6502's status-register bits).
LIVE_N, LIVE_Z, LIVE_C, LIVE_V = 1, 2, 4, 8


LIVE_ALL = LIVE_N | LIVE_Z | LIVE_C | LIVE_V


LIVE_BIT = {"fn": LIVE_N, "fz": LIVE_Z, "fc": LIVE_C, "fv": LIVE_V}    # flag cell -> its bit


# The branches: mnemonic -> (the flag cell it tests, whether it is taken when the test is
# true).  The tests: fn & 128 (N), fv & 128 (V), fc (C), fz (true: Z clear).
BRANCHES = {"BPL": ("fn", False), "BMI": ("fn", True), "BVC": ("fv", False), "BVS": ("fv", True),
             "BCC": ("fc", False), "BCS": ("fc", True), "BNE": ("fz", True), "BEQ": ("fz", False)}


LOADS = {"LDA": "a", "LDX": "x", "LDY": "y"}


STORES = {"STA": "a", "STX": "x", "STY": "y"}


TRANSFERS = {"TAX": ("x", "a"), "TAY": ("y", "a"), "TXA": ("a", "x"), "TYA": ("a", "y"),
              "TSX": ("x", "sp")}


INCDEC_REG = {"INX": ("x", "+"), "INY": ("y", "+"), "DEX": ("x", "-"), "DEY": ("y", "-")}


LOGIC = {"ORA": "|", "AND": "&", "EOR": "^"}


COMPARES = {"CMP": "a", "CPX": "x", "CPY": "y"}


RMW = ("ASL", "LSR", "ROL", "ROR", "INC", "DEC")


FLAG_OPS = {"CLI": "fp &= 251", "SEI": "fp |= 4", "CLD": "fp &= 247", "SED": "fp |= 8"}


OPERAND_BYTES = {"imp": 0, "acc": 0, "imm": 1, "zpg": 1, "zpx": 1, "zpy": 1, "rel": 1,
                  "inx": 1, "iny": 1, "abs": 2, "abx": 2, "aby": 2, "ind": 2}


def _documented_opcodes():
    """opcode -> (name, mode) for the NMOS opcodes py65 implements (plus $EB SBC)."""
    table = {}
    for op in range(256):
        function = CPU.instruct[op]
        if function is MPU.instruct[op] and function is not MPU.inst_not_implemented:
            table[op] = MPU.disassemble[op]
    if CPU.instruct[0xEB] is MPU.instruct[0xE9]:
        table[0xEB] = ("SBC", "imm")
    return table


OPCODES = _documented_opcodes()


# What a branch may skip inside a block: anything but jumps, calls, returns, PLP and a
# change of the D flag (a branch in there is a side exit as usual).
SKIPPABLE = frozenset(name for name, _ in OPCODES.values()) - {
    "JMP", "JSR", "RTS", "RTI", "BRK", "PLP", "CLI", "SED", "CLD"}


# The instructions that clear the I flag after the CPU has looked at the IRQ line (so one
# more instruction runs before a waiting IRQ is taken): a block leaves before them while an
# IRQ waits for the flag (the cell iw: FastCPU._run_masked steps them alone).  RTI's I
# counts at once: a block ends with it, and the IRQ is taken after it.
UNMASKING = frozenset(("CLI", "PLP"))


# -- flag effects (read, written) for liveness ------------------------------------------
def flag_effect(name):
    if name in ("ADC", "SBC"):
        return LIVE_C, LIVE_ALL
    if name in ("ROL", "ROR"):
        return LIVE_C, LIVE_N | LIVE_Z | LIVE_C
    if name in ("ASL", "LSR") or name in COMPARES:
        return 0, LIVE_N | LIVE_Z | LIVE_C
    if name == "BIT":
        return 0, LIVE_N | LIVE_Z | LIVE_V
    if name in ("CLC", "SEC"):
        return 0, LIVE_C
    if name == "CLV":
        return 0, LIVE_V
    if name in ("PLP", "RTI"):
        return 0, LIVE_ALL
    if name in ("PHP", "BRK", "TRAP"):
        if name == "TRAP":
            return LIVE_ALL, LIVE_ALL
        return LIVE_ALL, 0
    if name in BRANCHES:
        return LIVE_BIT[BRANCHES[name][0]], 0
    if (name in LOADS or name in TRANSFERS or name in INCDEC_REG or name in LOGIC
            or name in ("INC", "DEC", "PLA")):
        return 0, LIVE_N | LIVE_Z
    return 0, 0


# Modes whose operand a block can read from RAM when it runs (Insn.fixed), for
# instructions the program keeps rewriting.
DYNAMIC_MODES = ("imm", "zpg", "abs", "abx", "aby")


class Insn:
    __slots__ = ("addr", "op", "name", "mode", "operand", "length", "next", "cycles", "extra",
                 "chain", "ret", "skip", "fixed")

    def __init__(self, addr, op, name, mode, operand, length, cycles, extra):
        self.addr, self.op, self.name, self.mode = addr, op, name, mode
        self.operand, self.length, self.cycles, self.extra = operand, length, cycles, extra
        self.next = (addr + length) & 0xFFFF
        self.chain = False       # JMP/JSR/RTS whose target the block goes on with
        self.ret = None          # for a chained RTS: the return address it expects
        self.skip = None         # a branch over a few plain instructions: its target (see _skippable)
        # The bytes the translation takes as they are now: all of them, or only the opcode
        # when the program keeps rewriting the operand (read from RAM when the block runs).
        self.fixed = length

    @property
    def dynamic(self):
        """True if the block reads this instruction's operand from RAM when it runs."""
        return self.fixed < self.length


def branch_target(insn):
    """Where a taken branch goes."""
    offset = insn.operand
    base = insn.addr + 2
    target = base - (offset ^ 0xFF) - 1 if offset & 0x80 else base + offset
    return target & 0xFFFF


def taken_branch_cycles(insn):
    """A taken branch's cycles as py65 counts them: its own, one more, and one more again
    when the target is on another page than the next instruction."""
    base = insn.addr + 2
    raw = base - (insn.operand ^ 0xFF) - 1 if insn.operand & 0x80 else base + insn.operand
    return insn.cycles + 1 + (1 if (base & 0xFF00) != (raw & 0xFF00) else 0)


def vector_bytes(insn):
    """The two vector bytes a chained JMP (vector) reads, if both are at $0200 or above
    (a block may then be translated with the vector's value and watch it like its code);
    else ()."""
    if not (insn.chain and insn.name == "JMP" and insn.mode == "ind"):
        return ()
    lo = insn.operand
    hi = (lo & 0xFF00) | ((lo + 1) & 0xFF)
    return (lo, hi) if lo >= 0x200 and hi >= 0x200 else ()


def code_ranges(insns, vectors=True):
    """The bytes of some instructions as sorted, merged (start, end) ranges (with the
    vector bytes of their chained JMP (vector)s: they steer the block like its code)."""
    spans = [(insn.addr, insn.addr + insn.fixed) for insn in insns]
    if vectors:
        spans += [(addr, addr + 1) for insn in insns for addr in vector_bytes(insn)]
    spans.sort()
    merged = []
    for lo, hi in spans:
        if merged and lo <= merged[-1][1]:
            if hi > merged[-1][1]:
                merged[-1] = (merged[-1][0], hi)
        else:
            merged.append((lo, hi))
    return merged
