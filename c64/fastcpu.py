"""A fast 6510 core: 6502 code translated into cached Python functions.

FastCPU behaves like c64.cpu.CPU (py65 stepping plus our opcode table):
same registers, flags, memory accesses, cycle counts and trap calls.  What
differs is how: instead of decoding one instruction at a time, it turns a
run of instructions (a *block*) into Python source once, compiles it, and
calls the compiled function every time the program gets there again.

How a block works
* The registers live in closure cells shared by every block of one CPU, so
  a block reads and writes them as fast as local variables; FastCPU's a, x,
  y, sp, pc, p and processorCycles attributes are properties over the same
  cells.  The flags are kept apart (fn: bit 7 is N, fz: zero means Z, fc:
  carry, fv: bit 7 is V, fp: the D, I, B and unused bits) and are *pending*:
  an instruction only records the expression of each flag it sets, a
  branch tests that expression, and the cells are assigned only where the
  block is left.
* A block follows JMP, JSR (again into a subroutine it already holds), the
  RTS back from such a JSR (checked against the stack at run time, unless
  the block pushed that return address itself and nothing since may have
  touched the stack) and JMP (vector) to where the vector pointed when it
  was translated (checked too, or watched like code when the vector is in
  RAM), into ROM as well; it calls a KERNAL trap it
  reaches that way itself - the routine's direct version first, if the
  KERNAL gave it one (set_fast_trap: CHROUT's common case is one Python
  call) - and goes on after it if the routine returned to that JSR and did
  not call stop().  An RTS (or a trap's return) past the block's start is
  followed to where the stack pointed when the block was translated (checked
  at run time like the others: a subroutine called from elsewhere leaves the
  block there).  A forward branch over at most MAX_SKIP bytes of plain
  code stays inside the block (the skipped code is an else arm); other
  conditional branches are side exits.  A block ends at RTS, RTI, BRK, PLP,
  after MAX_INSNS instructions, or before anything it does not translate
  (undocumented opcodes, code in
  zero page, stack or I/O): those run on a plain CPU (the shadow), at
  py65's speed.  A branch back to the block's start becomes a loop that
  gives control back to run() once the cycle limit is reached.
* Code is compiled the second time it runs (HOT_COUNT); the first time it is
  interpreted, so run-once code costs no compilation.
* A zero-page pointer used by (zp),Y is read once per block (once before a
  loop that cannot change it); a store that may reach zero page through a
  computed address leaves the block then.
* Blocks are compiled for D clear; a block with ADC/SBC checks D on entry
  and runs its decimal-mode version (py65's BCD arithmetic) when D is set.
* Each block is compiled for one memory configuration (which of BASIC,
  KERNAL, I/O and character ROM are visible), so RAM, ROM and I/O accesses
  are decided at translation time; addresses only known at run time are
  checked against the configuration's RAM range.  While a chip is accessed
  the cycle counter shows exactly what py65's would.
* Writing a byte a block was translated from - or a RAM vector a JMP (vector)
  in it went through, at $0200 or above - invalidates that block (the
  per-byte map `code_map` is checked on every RAM store outside zero page
  and stack, which never hold translated code; C64Memory checks it too).  A
  block that rewrites its own later bytes stops right after the store.  A
  block rewritten over and over (REWRITE_LIMIT) is interpreted from then
  on.  Writes made behind the CPU's back (a loader or a test writing the
  RAM directly) are caught when run() starts, by comparing each code page's
  code bytes with a snapshot (c64.machine does that at the first slice of
  each of its runs: within one, only the CPU and the KERNAL write RAM, and
  the KERNAL tells the CPU about code it overwrites).
* Timing: a block adds its cycle count where it is left (page-crossing and
  branch extras as py65 counts them), so at block boundaries the cycle
  counter is exactly py65's.  run(limit) returns at the first block
  boundary at or after the limit, or after a trap called stop().

FastCPU works over a C64Memory (banking, I/O, processor port) or over a
plain 64 KB list (all RAM), as py65's own tests use.  step() translates the
one instruction at pc on its own, so py65's test suite exercises the
translator.
"""

import operator
import re
import sys
import types

from py65.devices.mpu6502 import MPU

from c64.cpu import CPU
from c64.memory import C64Memory
from kernal.rom import TRAP_OPCODE

# Closure cells shared by the blocks of one CPU.
CELL_NAMES = ("a", "x", "y", "sp", "pc", "cyc", "fn", "fz", "fc", "fv", "fp",
              "lim", "tbl", "ram", "rom", "mem", "cm", "inv", "cpu", "dv", "trap", "ftr", "rk")
# The cells that hold the registers and flags (FastCPU.with_registers).
REGISTER_CELLS = CELL_NAMES[:11]
# What a trap routine's direct version may share with the blocks (set_fast_trap): the
# registers, and rk, where the RTS goes if the calling block knows it (else -1).
DIRECT_CELLS = REGISTER_CELLS + ("rk",)
MAX_INSNS = 48
# A block invalidated this many times by the program's own stores is interpreted from then on.
REWRITE_LIMIT = 6
# Code is compiled the HOT_COUNT-th time it runs (run-once code is only interpreted).
HOT_COUNT = 2

# A forward branch over at most this many bytes of plain instructions stays inside the block.
MAX_SKIP = 16

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
# A temporary of a block (instruction index in its name; never a register).
TEMPORARY = re.compile(r"[a-z]+[0-9]+(_[0-9]+)?")
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
    "JMP", "JSR", "RTS", "RTI", "BRK", "PLP", "SED", "CLD"}


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


# -- decimal mode, exactly as py65 computes it ----------------------------------------------
def _adc_decimal(a, data, carry):
    """py65's decimal ADC: returns (a, fn, fz, fc, fv)."""
    halfcarry = decimalcarry = adjust0 = adjust1 = 0
    nibble0 = (data & 0xF) + (a & 0xF) + carry
    if nibble0 > 9:
        adjust0 = 6
        halfcarry = 1
    nibble1 = ((data >> 4) & 0xF) + ((a >> 4) & 0xF) + halfcarry
    if nibble1 > 9:
        adjust1 = 6
        decimalcarry = 1
    nibble0 &= 0xF
    nibble1 &= 0xF
    aluresult = (nibble1 << 4) + nibble0
    nibble0 = (nibble0 + adjust0) & 0xF
    nibble1 = (nibble1 + adjust1) & 0xF
    overflow = 0x80 if (~(a ^ data) & (a ^ aluresult)) & 0x80 else 0
    return (nibble1 << 4) + nibble0, aluresult, aluresult, decimalcarry, overflow


def _sbc_decimal(a, data, carry):
    """py65's decimal SBC: returns (a, fn, fz, fc, fv)."""
    halfcarry = 1
    adjust0 = adjust1 = 0
    nibble0 = (a & 0xF) + (~data & 0xF) + carry
    if nibble0 <= 0xF:
        halfcarry = 0
        adjust0 = 10
    nibble1 = ((a >> 4) & 0xF) + ((~data >> 4) & 0xF) + halfcarry
    if nibble1 <= 0xF:
        adjust1 = 10 << 4
    aluresult = a + (~data & 0xFF) + carry
    decimalcarry = 1 if aluresult > 0xFF else 0
    aluresult &= 0xFF
    nibble0 = (aluresult + adjust0) & 0xF
    nibble1 = ((aluresult + adjust1) >> 4) & 0xF
    overflow = 0x80 if ((a ^ data) & (a ^ aluresult)) & 0x80 else 0
    return (nibble1 << 4) + nibble0, aluresult, aluresult, decimalcarry, overflow


_MASK_BYTES = bytes([0] + [0xFF] * 255)     # code_map byte -> mask byte

BLOCK_GLOBALS = {"adcd": _adc_decimal, "sbcd": _sbc_decimal, "__builtins__": __builtins__}
_CODE_CACHE = {}


def compile_block(body, nonlocals):
    """Compile a block body into a code object with free variables from CELL_NAMES (cached by text)."""
    key = (body, nonlocals)
    code = _CODE_CACHE.get(key)
    if code is None:
        head = "def _outer():\n    %s = None\n    def blk():\n" % " = ".join(CELL_NAMES)
        if nonlocals:
            head += "        nonlocal %s\n" % ", ".join(nonlocals)
        source = head + body + "    return blk\n"
        module = compile(source, "<6502 block>", "exec")
        outer = next(c for c in module.co_consts if isinstance(c, types.CodeType))
        code = next(c for c in outer.co_consts if isinstance(c, types.CodeType))
        if len(_CODE_CACHE) > 50000:      # a program that keeps writing new code: start afresh
            _CODE_CACHE.clear()
        _CODE_CACHE[key] = code
    return code


def declines():
    """The direct version of a trap routine that has none: the trap handler runs."""
    return False


LOOP_CODE = compile_block("        while cyc < lim:\n            tbl[pc]()\n", ())


class Span:
    """A stretch of bytes for code_ranges (as if an instruction)."""
    __slots__ = ("addr", "length", "chain")

    def __init__(self, lo, hi):
        self.addr, self.length, self.chain = lo, hi - lo, False


class Insn:
    __slots__ = ("addr", "op", "name", "mode", "operand", "length", "next", "cycles", "extra",
                 "chain", "ret", "skip")

    def __init__(self, addr, op, name, mode, operand, length, cycles, extra):
        self.addr, self.op, self.name, self.mode = addr, op, name, mode
        self.operand, self.length, self.cycles, self.extra = operand, length, cycles, extra
        self.next = (addr + length) & 0xFFFF
        self.chain = False       # JMP/JSR/RTS whose target the block goes on with
        self.ret = None          # for a chained RTS: the return address it expects
        self.skip = None         # a branch over a few plain instructions: its target (see _skippable)


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
    spans = [(insn.addr, insn.addr + insn.length) for insn in insns]
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


class MemoryView:
    """What the translator knows about memory under one configuration."""

    def __init__(self, cpu):
        memory = cpu.memory
        self.c64 = cpu._c64
        if self.c64:
            ram, rom = memory.ram, memory.rom
            self.read_kind = ["ram" if s is ram else "rom" if s is rom else "io"
                              for s in memory.page_sources]
            self.write_kind = ["io" if w else "ram" for w in memory.page_writes_io]
            self.sources = list(memory.page_sources)
        else:
            self.read_kind = ["ram"] * 256
            self.write_kind = ["ram"] * 256
            self.sources = [memory] * 256
        self.read_top = self._top(self.read_kind)     # reads of 2..read_top-1 are plain RAM
        self.write_top = self._top(self.write_kind)

    @staticmethod
    def _top(kinds):
        page = 0
        while page < 256 and kinds[page] == "ram":
            page += 1
        return page << 8

    def range_kind(self, kinds, lo, hi):
        """'ram', 'rom' or 'mem' (mixed or I/O) for every address of lo..hi (hi may pass $FFFF)."""
        if self.c64 and hi >= 0x10001:
            return "mem"
        found = set()
        for page in range(lo >> 8, (hi >> 8) + 1):
            found.add(kinds[page & 0xFF])
        if len(found) == 1:
            kind = found.pop()
            return kind if kind in ("ram", "rom") else "mem"
        return "mem"


    def write_range_kind(self, lo, hi):
        """Like range_kind for stores: the processor port $00/$01 needs C64Memory."""
        if self.c64 and lo <= 1:
            return "mem"
        return self.range_kind(self.write_kind, lo, hi)


class BlockBuilder:
    """Generates the Python source of one block.

    Flags are *pending*: an instruction records the expression of each flag it
    sets (`pending`), the next writer of that flag simply replaces it, and a
    branch tests the expression directly.  The flag cells are only assigned
    where the block can be left (`materialize`), or when a register an
    expression refers to is about to change.  Temporaries an expression refers
    to carry the instruction's index in their name, so they stay valid.
    """

    def __init__(self, cpu, view, insns, single, decimal=False):
        self.cpu, self.view, self.insns, self.single = cpu, view, insns, single
        self.c64 = view.c64
        self.lines = []
        self.depth = 2
        self.assigned = set()
        self.static = 0          # cycles of the instructions emitted so far (this pass through the block)
        self.start = insns[0].addr
        self.loop = False
        self.pending = {}        # flag cell -> expression
        self.decimal = decimal   # the D flag, known for the whole block
        # Zero-page bytes ($02-$FF) whose value a temporary holds at this point of the block
        # (a pointer read for (zp),Y, a read-modify-write result): later reads use the
        # temporary.  RAM is still written at once; this only saves reading it back, so it
        # is forgotten wherever zero page may change otherwise (stores through a computed
        # address that may reach it, traps).
        self.known = {}
        self.pointers = {}       # (low, high byte temporaries) -> the pointer's temporary
        self.later_ranges = {}   # index -> code_ranges of the instructions from there on
        # The stack as this block left it, top last: for each JSR it went through, the
        # return address it pushed (None for a byte PHA/PHP pushed).  An RTS back to the top
        # one needs no look at the stack; anything that may change the stack otherwise
        # (a store that may reach page 1, TXS, a trap) forgets them.
        self.frames = []
        self.n = 0               # index of the instruction being emitted (temporaries' suffix)

    # -- output helpers ----------------------------------------------------------------
    def emit(self, line):
        line = "    " * self.depth + line
        if line.endswith("a >>= 1") and self.lines and self.lines[-1][:-1] == line[:-1]:
            shift = int(self.lines[-1][-1]) + 1       # LSR LSR ...: one shift
            if shift < 8:
                self.lines[-1] = line[:-1] + str(shift)
                return
        self.lines.append(line)

    def set(self, *names):
        self.assigned.update(names)

    def flag(self, name):
        """Expression for reading a flag cell now."""
        expr = self.pending.get(name)
        if expr is None:
            return name
        return expr if expr.isdigit() else "(%s)" % expr

    def define(self, expr, *names):
        for name in names:
            self.pending[name] = expr

    def kill(self, *names):
        for name in names:
            self.pending.pop(name, None)

    def materialize(self, live=LIVE_ALL):
        """Assign every pending flag (of those in `live`) to its cell (stays pending for the
        code that follows)."""
        groups = {}
        for name, expr in self.pending.items():
            if not live & LIVE_BIT[name]:
                continue
            groups.setdefault(expr, []).append(name)
        for expr, names in groups.items():
            self.emit("%s = %s" % (" = ".join(names), expr))
            self.set(*names)

    def flush(self, register):
        """Before `register` changes: assign the pending flags whose expression reads it."""
        pattern = re.compile(r"\b%s\b" % register)
        hit = {name: expr for name, expr in self.pending.items() if pattern.search(expr)}
        if hit:
            saved = self.pending
            self.pending = hit
            self.materialize()
            self.pending = {name: expr for name, expr in saved.items() if name not in hit}

    def assign(self, register, expr, op="="):
        self.flush(register)
        self.emit("%s %s %s" % (register, op, expr))
        self.set(register)

    def exit_lines(self, cycles, pc_expr):
        self.materialize()
        if cycles:
            self.emit("cyc += %d" % cycles)
            self.set("cyc")
        self.emit("pc = %s" % pc_expr)
        self.set("pc")
        self.emit("return")

    def nz(self, value):
        self.define(value, "fn", "fz")

    # -- memory ---------------------------------------------------------------------------
    def io_access(self, line):
        """An access that may reach a chip: the cycle counter shows py65's count meanwhile."""
        if self.c64 and self.static:
            self.emit("cyc += %d" % self.static)
            self.emit(line)
            self.emit("cyc -= %d" % self.static)
            self.set("cyc")
        else:
            self.emit(line)

    def io_read(self, where):
        self.reads = getattr(self, "reads", 0) + 1
        value = "i%d_%d" % (self.n, self.reads)
        self.io_access("%s = mem[%s]" % (value, where))
        return value

    def read_const(self, addr):
        addr &= 0xFFFF
        known = self.known.get(addr)
        if known is not None:
            return known
        kind = self.view.read_kind[addr >> 8]
        if kind == "io":
            return self.io_read(str(addr))
        return "%s[%d]" % (kind, addr)

    def read_any(self, var, target):
        """Emit `target = byte at var` for an address only known at run time."""
        if not self.c64:
            self.emit("%s = ram[%s]" % (target, var))
            return
        self.emit("if %s < %d:" % (var, self.view.read_top))
        self.emit("    %s = ram[%s]" % (target, var))
        self.emit("else:")
        self.depth += 1
        self.emit("%s &= 65535" % var)
        self.io_access("%s = mem[%s]" % (target, var))
        self.depth -= 1

    def address(self, insn, register):
        """Emit code for the effective address of an indexed/indirect operand.

        Returns (expression or variable, lo, hi, extra): the possible address range
        (None for any) and the page-crossing cycle line to emit after the access.
        """
        mode, operand = insn.mode, insn.operand
        if mode in ("zpx", "zpy"):
            if insn.name in LOADS or insn.name in LOGIC or insn.name in COMPARES \
                    or insn.name in ("ADC", "SBC", "BIT"):
                return "(%d + %s) & 255" % (operand, register), 0, 255, None
            self.emit("e = (%d + %s) & 255" % (operand, register))
            return "e", 0, 255, None
        if mode in ("abx", "aby"):
            extra = None
            if insn.extra and operand & 0xFF:
                extra = "if %s > %d: cyc += 1" % (register, 0xFF - (operand & 0xFF))
                self.set("cyc")
            if operand + 255 > 0xFFFF:
                self.emit("e = (%d + %s) & 65535" % (operand, register))
                return "e", operand, operand + 255, extra
            return "%d + %s" % (operand, register), operand, operand + 255, extra
        if mode == "iny":
            lo = self.pointer_byte(operand)
            hi = self.pointer_byte((operand + 1) & 0xFF)
            extra = None
            if self.c64 and TEMPORARY.fullmatch(lo) and TEMPORARY.fullmatch(hi):
                # Both bytes in temporaries: the pointer as one number, made once for all
                # the accesses through it (the slow path masks: e may pass $FFFF).
                pointer = self.pointers.get((lo, hi))
                if pointer is None:
                    pointer = self.pointers[(lo, hi)] = "w%d_%d" % (self.n, operand)
                    self.emit("%s = (%s << 8) + %s" % (pointer, hi, lo))
                self.emit("e = %s + y" % pointer)
                if insn.extra:
                    extra = "if %s + y > 255: cyc += 1" % lo
                    self.set("cyc")
                return "e", None, None, extra
            self.emit("t = %s + y" % lo)
            if self.c64:                   # the slow path masks: only there can e pass $FFFF
                self.emit("e = (%s << 8) + t" % hi)
            else:
                self.emit("e = ((%s << 8) + t) & 65535" % hi)
            if insn.extra:
                extra = "if t > 255: cyc += 1"
                self.set("cyc")
            return "e", None, None, extra
        if mode == "inx":
            self.emit("t = (%d + x) & 255" % operand)
            self.emit("if t < 255:")
            self.emit("    e = ram[t] | (ram[t + 1] << 8)")
            self.emit("else:")
            self.emit("    e = ram[255] | (ram[0] << 8)")
            return "e", None, None, None
        raise AssertionError(mode)

    def pointer_byte(self, addr):
        """A byte of a zero-page pointer, read into a temporary that later uses share."""
        if addr < 2 or addr in self.known:
            return self.read_const(addr)
        name = "z%d_%d" % (self.n, addr)
        self.emit("%s = ram[%d]" % (name, addr))
        self.known[addr] = name
        return name

    def load(self, insn):
        """Emit code reading the operand of a read instruction; returns the value expression.

        The expression must be used by the very next emitted line (it may read a chip).
        """
        mode, operand = insn.mode, insn.operand
        if mode == "imm":
            return str(operand)
        if mode in ("zpg", "abs"):
            return self.read_const(operand)
        register = "y" if mode in ("zpy", "aby", "iny") else "x"
        where, lo, hi, extra = self.address(insn, register)
        if mode in ("zpx", "zpy"):
            return "ram[%s]" % where       # C64Memory keeps RAM $00/$01 equal to the port's value
        if lo is None and self.c64 is False:
            if extra:
                self.emit(extra)
            return "ram[%s]" % where
        if lo is None:
            self.read_any(where, "v")
            if extra:
                self.emit(extra)
            return "v"
        kind = self.view.range_kind(self.view.read_kind, lo, hi)
        if kind == "mem":
            value = self.io_read(where)
            if extra:
                self.emit(extra)
            return value
        if extra:
            self.emit(extra)               # RAM and ROM reads have no side effects: order is free
        return "%s[%s]" % (kind, where)

    def store(self, insn, index, value):
        """Emit a store of `value` (an expression without side effects) to the operand."""
        mode, operand = insn.mode, insn.operand
        if mode in ("zpg", "abs"):
            self.store_const(operand, value)
            return
        register = "y" if mode in ("zpy", "aby", "iny") else "x"
        where, lo, hi, _ = self.address(insn, register)
        self.store_dynamic(insn, index, where, lo, hi, value)

    def store_const(self, addr, value):
        if self.c64 and addr < 2:
            self.emit("mem[%d] = %s" % (addr, value))      # the block ends here (bank switch)
            return
        if self.view.write_kind[addr >> 8] == "io":
            self.io_access("mem[%d] = %s" % (addr, value))
            return
        self.emit("ram[%d] = %s" % (addr, value))
        if 0x100 <= addr < 0x200:
            self.frames = []
        if addr < 0x100:
            if TEMPORARY.fullmatch(value):
                self.known[addr] = value
            else:
                self.known.pop(addr, None)
        if addr >= 0x200:
            self.emit("if cm[%d]:" % addr)
            self.emit("    inv(%d)" % addr)

    def later_hits(self, index, lo, hi):
        """Ranges of the block's bytes after instruction `index` that a store to lo..hi may hit."""
        if self.single:
            return []
        # In a loop every byte of the block is "later": the next pass runs it again.
        key = 0 if self.loop else index + 1
        later = self.later_ranges.get(key)
        if later is None:
            later = self.later_ranges[key] = code_ranges(self.insns[key:])
        if lo is None or hi > 0xFFFF:
            return later
        return [(a, b) for a, b in later if a <= hi and b > lo]

    def store_dynamic(self, insn, index, where, lo, hi, value):
        """Store through a computed address; leaves the block if it rewrote the block's own later bytes."""
        hits = self.later_hits(index, lo, hi)
        if insn.mode in ("zpx", "zpy"):
            self.known.clear()
            if self.c64:
                self.emit("if %s > 1:" % where)
                self.emit("    ram[%s] = %s" % (where, value))
                self.emit("else:")
                self.emit("    mem[%s] = %s" % (where, value))
                self.depth += 1
                self.exit_lines(self.static + insn.cycles, str(insn.next))
                self.depth -= 1
            else:
                self.emit("ram[%s] = %s" % (where, value))
            return
        kind = "mem" if lo is None else self.view.write_range_kind(lo, hi)
        may_reach_zero_page = lo is None or lo < 0x100 or hi > 0xFFFF
        if lo is None or lo < 0x200 or hi > 0xFFFF:
            self.frames = []                       # it may reach the stack page
        if kind == "ram":
            if may_reach_zero_page:
                self.known.clear()
            self.emit("ram[%s] = %s" % (where, value))
            self.code_check(insn, where, hits)
            return
        if where != "e":
            self.emit("e = %s" % where)
        if not self.c64:
            if may_reach_zero_page:
                self.known.clear()
            self.emit("ram[e] = %s" % value)
            self.code_check(insn, "e", hits)
            return
        # Zero page goes the slow way and leaves the block, so what `known` holds stays true.
        low = 0xFF if may_reach_zero_page and self.known else 1
        self.emit("if %d < e < %d:" % (low, self.view.write_top))
        self.depth += 1
        self.emit("ram[e] = %s" % value)
        self.code_check(insn, "e", hits)
        self.depth -= 1
        self.emit("else:")
        self.depth += 1
        self.emit("e &= 65535")
        self.io_access("mem[e] = %s" % value)   # C64Memory invalidates code it overwrites itself
        self.emit("if %s:" % " or ".join(["e < %d" % (low + 1)] + ["%d <= e < %d" % r for r in hits]))
        self.depth += 1
        self.exit_lines(self.static + insn.cycles, str(insn.next))
        self.depth -= 2

    def code_check(self, insn, where, hits):
        self.emit("if cm[%s]:" % where)
        self.depth += 1
        self.emit("inv(%s)" % where)
        if hits:
            self.emit("if %s:" % " or ".join("%d <= %s < %d" % (a, where, b) for a, b in hits))
            self.depth += 1
            self.exit_lines(self.static + insn.cycles, str(insn.next))
            self.depth -= 1
        self.depth -= 1

    def may_exit(self, insn, index):
        """True if a store of this instruction can leave the block early (all flags must be live)."""
        name, mode = insn.name, insn.mode
        if not (name in STORES or (name in RMW and mode != "acc")):
            return False
        if mode in ("zpx", "zpy"):
            return self.c64
        if mode in ("iny", "inx"):
            return True
        if mode in ("abx", "aby"):
            lo, hi = insn.operand, insn.operand + 255
            if self.c64 and (lo <= 1 or hi > 0xFFFF):
                return True
            if self.view.write_range_kind(lo, hi) != "ram" and self.c64:
                return True
            return bool(self.later_hits(index, lo, hi))
        return False

    # -- the block ----------------------------------------------------------------------------
    def build(self):
        insns = self.insns
        count = len(insns)
        last = insns[-1]
        names = {insn.name for insn in insns}
        own = code_ranges(insns)
        rewrites_itself = any(
            (insn.name in STORES or (insn.name in RMW and insn.mode != "acc"))
            and insn.mode in ("zpg", "abs") and any(lo <= insn.operand < hi for lo, hi in own)
            for insn in insns)
        self.loop = (not self.single and last.name in BRANCHES
                     and branch_target(last) == self.start
                     and not names & {"SED", "CLD", "PLP", "TRAP"} and not rewrites_itself)
        # Flag liveness, backwards, for flags computed eagerly: everything is live where
        # the block can be left.
        live_after = [0] * count
        live = LIVE_ALL
        for i in range(count - 1, -1, -1):
            insn = insns[i]
            if (self.may_exit(insn, i) or insn.name in BRANCHES or insn.name == "RTS"
                    or (insn.name == "JMP" and insn.mode == "ind") or insn.name == "TRAP"):
                live = LIVE_ALL
            live_after[i] = live
            reads, writes = flag_effect(insn.name)
            live = (live & ~writes) | reads
        if not self.single and names & {"ADC", "SBC"}:
            # Blocks are compiled for D clear; with D set the decimal version runs instead.
            self.emit("if fp & 8:" if not self.decimal else "if not fp & 8:")
            self.emit("    return dv(%d)" % (0 if self.decimal else 1))
        if self.loop:
            hoisted = self.loop_pointers()
            for addr in hoisted:
                # Read once before the loop: nothing in it changes them without leaving.
                name = "zh%d" % addr
                self.emit("%s = ram[%d]" % (name, addr))
                self.known[addr] = name
            for addr in hoisted:
                if addr + 1 in hoisted:
                    name = self.pointers[("zh%d" % addr, "zh%d" % (addr + 1))] = "zw%d" % addr
                    self.emit("%s = (zh%d << 8) + zh%d" % (name, addr + 1, addr))
            self.emit("while True:")
            self.depth += 1
        self.dead = False
        i = 0
        while i < count:
            insn = insns[i]
            self.n = i
            join = self.skip_join(insn, i)
            if join is not None:
                self.skip_branch(insn, insns[i + 1:join], i, live_after)
                i = join
                continue
            self.instruction(insn, i, live_after[i], i == count - 1)
            if self.dead:                       # an always-taken branch: the rest is unreachable
                break
            i += 1
        if self.dead:
            pass
        elif last.name == "TRAP":
            self.exit_lines(self.static, str(last.ret))   # the routine returned where expected
        elif last.name not in ("JMP", "JSR", "RTS", "RTI", "BRK") and last.name not in BRANCHES:
            self.exit_lines(self.static, str(last.next))
        nonlocals = tuple(sorted(self.assigned))
        return "\n".join(self.lines) + "\n", nonlocals

    def loop_pointers(self):
        """The zero-page pointer bytes the loop reads for (zp),Y and nothing in it can change
        without leaving the block: no zp,X / zp,Y store, no indexed store that may reach
        zero page, no store or read-modify-write of those bytes.  (A store through a
        pointer that lands in zero page leaves the block while they are known.)"""
        if not self.c64:
            return []
        pointers = set()
        for insn in self.insns:
            if insn.mode == "iny" and 2 <= insn.operand < 0xFF:
                pointers.update((insn.operand, insn.operand + 1))
        for insn in self.insns:
            writes = insn.name in STORES or (insn.name in RMW and insn.mode != "acc")
            if not writes:
                continue
            if insn.mode in ("zpx", "zpy"):
                return []
            if insn.mode in ("abx", "aby") and (insn.operand < 0x100 or insn.operand + 255 > 0xFFFF):
                return []
            if insn.mode in ("zpg", "abs"):
                pointers.discard(insn.operand)
        return sorted(pointers)

    def skip_join(self, insn, index):
        """For a branch over a few plain instructions (Insn.skip) that this block goes on
        after: the index of the instruction where both ways meet, else None."""
        if insn.skip is None or self.single:
            return None
        if self.flag(BRANCHES[insn.name][0]).isdigit():
            return None                         # decided at translation time: branch() does it
        for j in range(index + 1, len(self.insns)):
            if self.insns[j].addr == insn.skip:
                return j
            if not insn.addr < self.insns[j].addr < insn.skip:
                return None
        return None

    def skip_branch(self, insn, skipped, index, live_after):
        """A branch over `skipped` inside the block: the skipped instructions run in an else
        arm, and the cycle count is made to agree where both ways meet.  The flags are in
        their cells on both ways at the join (nothing pending), and what is known about zero
        page there is what was known before the branch and not changed in the arm."""
        flag, wanted = BRANCHES[insn.name]
        test = self.flag(flag)
        if flag in ("fn", "fv"):
            test = "(%s) & 128" % test
        taken = self.static + taken_branch_cycles(insn)
        # Where both ways meet only the flags live there must be in their cells.
        live = live_after[index + len(skipped)]
        known = dict(self.known)
        pointers = dict(self.pointers)
        frames = list(self.frames)
        self.emit("if %s(%s):" % ("" if wanted else "not ", test))
        self.depth += 1
        self.materialize(live)
        taken_at = len(self.lines)               # the taken way's cycle line, once known
        self.depth -= 1
        self.emit("else:")
        self.depth += 1
        self.static += insn.cycles
        for offset, skipped_insn in enumerate(skipped, index + 1):
            self.n = offset
            self.instruction(skipped_insn, offset, live_after[offset], False)
        self.materialize(live)
        self.depth -= 1
        self.pending = {}
        self.dead = False                        # (an always-taken branch in the arm ends only the arm)
        difference = taken - self.static
        line = "    " * (self.depth + 1)
        line += "cyc += %d" % difference if difference >= 0 else "cyc -= %d" % -difference
        self.lines.insert(taken_at, line)
        self.set("cyc")
        self.known = {addr: value for addr, value in known.items() if self.known.get(addr) == value}
        self.pointers = pointers                  # (the ones made in the arm exist only there)
        if self.frames != frames:
            self.frames = []                      # the arm pushed or pulled: not known after it

    def temp(self, prefix):
        return "%s%d" % (prefix, self.n)

    def instruction(self, insn, index, live, is_last):
        name, mode = insn.name, insn.mode
        cycles = insn.cycles
        if name in BRANCHES:
            self.branch(insn, is_last)
            return
        if name in LOADS:
            value = self.load(insn)
            self.kill("fn", "fz")
            register = LOADS[name]
            self.assign(register, value)
            self.nz(register)
        elif name in STORES:
            self.store(insn, index, STORES[name])
        elif name in TRANSFERS:
            dest, src = TRANSFERS[name]
            self.kill("fn", "fz")
            self.assign(dest, src)
            self.nz(dest)
        elif name == "TXS":
            self.assign("sp", "x")
            self.frames = []
        elif name in INCDEC_REG:
            register, sign = INCDEC_REG[name]
            self.kill("fn", "fz")
            self.assign(register, "(%s %s 1) & 255" % (register, sign))
            self.nz(register)
        elif name in LOGIC:
            value = self.load(insn)
            self.kill("fn", "fz")
            self.assign("a", value, LOGIC[name] + "=")
            self.nz("a")
        elif name in COMPARES:
            value = self.load(insn)
            self.kill("fn", "fz", "fc")
            result = self.temp("c")
            self.emit("%s = %s - %s" % (result, COMPARES[name], value))
            self.nz(result)
            self.define("%s >= 0" % result, "fc")
        elif name == "BIT":
            value = self.load(insn)
            self.kill("fn", "fz", "fv")
            operand = self.temp("b")
            self.emit("%s = %s" % (operand, value))
            self.define(operand, "fn")
            self.define("%s << 1" % operand, "fv")
            self.define("a & %s" % operand, "fz")
        elif name in ("ADC", "SBC"):
            self.arith(insn, live)
        elif name in RMW:
            self.rmw(insn, index, live)
        elif name in ("CLC", "SEC"):
            self.kill("fc")
            self.define("0" if name == "CLC" else "1", "fc")
        elif name == "CLV":
            self.kill("fv")
            self.define("0", "fv")
        elif name in FLAG_OPS:            # CLI SEI CLD SED
            self.emit(FLAG_OPS[name])
            self.set("fp")
            if name in ("SED", "CLD"):
                self.decimal = name == "SED"
        elif name == "NOP":
            pass
        elif name == "PHA":
            self.push("a")
            self.frames.append(None)
        elif name == "PHP":
            self.push(self.p_expr() + " | 48")
            self.frames.append(None)
        elif name in ("PLA", "PLP"):
            if self.frames and self.frames[-1] is None:
                self.frames.pop()
            else:
                self.frames = []                  # pulls what the block did not push: forget
            self.assign("sp", "(sp + 1) & 255")
            if name == "PLA":
                self.kill("fn", "fz")
                self.assign("a", "ram[256 + sp]")
                self.nz("a")
            else:
                self.unpack_p("ram[256 + sp]")
        else:
            self.flow(insn, index, live, is_last)
            return
        self.static += cycles

    def flow(self, insn, index, live, is_last):
        """Traps, jumps, calls, returns, BRK and RTI (the rest of instruction())."""
        name, mode = insn.name, insn.mode
        cycles = insn.cycles
        if name == "TRAP":
            # What CPU.step does with the trap opcode, inside the block.  If this block
            # pushed the return address itself and nothing since touched the stack, the
            # routine's RTS goes to insn.ret for sure: the direct version is told (rk).
            known_return = insn.chain and self.frames[-1:] == [insn.ret]
            self.frames = []
            self.materialize()
            self.pending = {}                     # the routine may change any flag
            self.known = {}                       # and any memory
            self.pointers = {}
            if self.static:
                self.emit("cyc += %d" % self.static)
                self.set("cyc")
            self.static = 0
            # The routine's direct version first (FastCPU.set_fast_trap); when it declines,
            # the trap handler, as CPU.step calls it.
            if known_return:
                self.emit("rk = %d" % insn.ret)
                self.set("rk")
            self.emit("if not ftr[%d]():" % insn.addr)
            if known_return:
                self.emit("    rk = -1")
            self.emit("    pc = %d" % ((insn.addr + 1) & 0xFFFF))
            self.emit("    trap(%d)" % insn.addr)
            self.emit("    pc &= 65535")
            self.set("pc")
            if known_return:
                # (The direct version returns there and never calls stop().)
                self.emit("    if pc != %d or lim < 0:" % insn.ret)
                self.emit("        return")
            elif insn.chain:
                self.emit("if pc != %d or lim < 0:" % insn.ret)   # (lim < 0: stop() was called)
                self.emit("    return")
            else:
                self.emit("return")
                self.dead = True
            return
        elif insn.chain and name == "JMP" and mode == "abs":
            pass                                  # the block goes on at the target
        elif insn.chain and name == "JMP" and self.cpu._watches(self.view, insn):
            pass                                  # the vector is watched like code: unchanged
        elif insn.chain and name == "JMP":
            ta = insn.operand
            lo = self.read_const(ta)
            hi = self.read_const((ta & 0xFF00) | ((ta + 1) & 0xFF))
            self.emit("if %s != %d or %s != %d:" % (lo, insn.ret & 0xFF, hi, insn.ret >> 8))
            self.depth += 1
            self.exit_lines(self.static + cycles, "%s | (%s << 8)" % (lo, hi))
            self.depth -= 1
        elif insn.chain and name == "JSR":
            self.push_return(insn)
            self.assign("sp", "(sp - 2) & 255")
            self.frames.append(insn.next)
        elif insn.chain and name == "RTS" and self.frames and self.frames[-1] == insn.ret:
            self.frames.pop()                     # the JSR's push is still on top
            self.assign("sp", "(sp + 2) & 255")
        elif insn.chain and name == "RTS":
            # Returning to the JSR this block went through, if the stack still says so.
            self.frames = []
            ret = (insn.ret - 1) & 0xFFFF
            self.emit("if ram[256 + ((sp + 1) & 255)] != %d or ram[256 + ((sp + 2) & 255)] != %d:"
                      % (ret & 0xFF, ret >> 8))
            self.depth += 1
            self.emit("t = ram[256 + ((sp + 1) & 255)]")
            self.emit("sp = (sp + 2) & 255")
            self.set("sp")
            self.exit_lines(self.static + cycles, "((ram[256 + sp] << 8) + t + 1) & 65535")
            self.depth -= 1
            self.assign("sp", "(sp + 2) & 255")
        elif name == "JMP":
            if mode == "abs":
                target = str(insn.operand)
            else:
                ta = insn.operand
                target = "%s | (%s << 8)" % (self.read_const(ta),
                                             self.read_const((ta & 0xFF00) | ((ta + 1) & 0xFF)))
            self.exit_lines(self.static + cycles, target)
        elif name == "JSR":
            self.push_return(insn)
            self.assign("sp", "(sp - 2) & 255")
            self.exit_lines(self.static + cycles, str(insn.operand))
        elif name == "RTS":
            self.emit("t = ram[256 + ((sp + 1) & 255)]")
            self.assign("sp", "(sp + 2) & 255")
            self.exit_lines(self.static + cycles, "((ram[256 + sp] << 8) + t + 1) & 65535")
        elif name == "BRK":
            self.push_return(insn)
            self.emit("fp |= 16")
            self.emit("ram[256 + ((sp - 2) & 255)] = %s | 48" % self.p_expr())
            self.emit("fp |= 4")
            self.set("fp")
            self.assign("sp", "(sp - 3) & 255")
            self.exit_lines(self.static + cycles,
                            "%s | (%s << 8)" % (self.read_const(0xFFFE), self.read_const(0xFFFF)))
        elif name == "RTI":
            self.assign("sp", "(sp + 1) & 255")
            self.unpack_p("ram[256 + sp]")
            self.emit("t = ram[256 + ((sp + 1) & 255)]")
            self.assign("sp", "(sp + 2) & 255")
            self.exit_lines(self.static + cycles, "(ram[256 + sp] << 8) + t")
        else:
            raise AssertionError("untranslated instruction " + name)
        self.static += cycles

    def p_expr(self):
        """The status register as an expression of the flags (B and bit 5 as fp has them)."""
        return "((%s & 128) | ((%s & 128) >> 1) | fp | %s | (0 if %s else 2))" % (
            self.flag("fn"), self.flag("fv"), self.flag("fc"), self.flag("fz"))

    def unpack_p(self, value):
        status = self.temp("p")
        self.emit("%s = %s" % (status, value))
        self.kill("fn", "fz", "fc", "fv")
        self.define(status, "fn")
        self.define("%s << 1" % status, "fv")
        self.define("(%s & 2) ^ 2" % status, "fz")
        self.define("%s & 1" % status, "fc")
        self.emit("fp = (%s & 60) | 48" % status)
        self.set("fp")

    def push_return(self, insn):
        """The two bytes JSR and BRK push: the address of their last byte (+1 for BRK's
        padding byte), high byte first; the stack pointer is moved by the caller."""
        ret = (insn.addr + 2) & 0xFFFF
        self.emit("ram[256 + sp] = %d" % (ret >> 8))
        self.emit("ram[256 + ((sp - 1) & 255)] = %d" % (ret & 0xFF))

    def push(self, value):
        self.emit("ram[256 + sp] = %s" % value)
        self.assign("sp", "(sp - 1) & 255")

    def branch(self, insn, is_last):
        target = branch_target(insn)
        after = (insn.addr + 2) & 0xFFFF
        taken = self.static + taken_branch_cycles(insn)
        flag, wanted = BRANCHES[insn.name]
        test = self.flag(flag)
        if test.isdigit() and not (self.loop and is_last):
            if bool(int(test)) != wanted:               # never taken (SEC / BCC and the like)
                self.static += insn.cycles
                if is_last:
                    self.exit_lines(self.static, str(after))
                return
            self.exit_lines(taken, str(target))         # always taken (CLC / BCC)
            self.static += insn.cycles
            self.dead = True
            return
        if flag in ("fn", "fv"):
            test = "%s & 128" % test
        self.emit("if %s%s:" % ("" if wanted else "not ",
                                 test if wanted or flag not in ("fn", "fv") else "(%s)" % test))
        self.depth += 1
        if self.loop and is_last:
            self.materialize()
            self.emit("cyc += %d" % taken)
            self.set("cyc")
            self.emit("if cyc >= lim:")
            self.emit("    pc = %d" % target)
            self.emit("    return")
            self.set("pc")
            self.emit("continue")
        else:
            self.exit_lines(taken, str(target))
        self.depth -= 1
        self.static += insn.cycles
        if is_last:
            self.exit_lines(self.static, str(after))

    def arith(self, insn, live):
        value = self.load(insn)
        carry = self.flag("fc")
        if not value.isdigit():
            operand = self.temp("v")
            self.emit("%s = %s" % (operand, value))
            value = operand
        self.kill("fn", "fz", "fc", "fv")
        if self.decimal:
            self.flush("a")
            self.emit("a, fn, fz, fc, fv = %s(a, %s, %s)"
                      % ("adcd" if insn.name == "ADC" else "sbcd", value, carry))
            self.set("a", "fn", "fz", "fc", "fv")
            return
        old, total = self.temp("o"), self.temp("s")
        self.emit("%s = a" % old)
        plus_carry = "" if carry == "0" else " + " + carry
        if insn.name == "ADC":
            self.emit("%s = a + %s%s" % (total, value, plus_carry))
            self.define("~(%s ^ %s) & (%s ^ %s)" % (old, value, old, total), "fv")
        else:
            self.emit("%s = a + (%s ^ 255)%s" % (total, value, plus_carry))
            self.define("(%s ^ %s) & (%s ^ %s)" % (old, value, old, total), "fv")
        self.define("%s >> 8" % total, "fc")
        self.assign("a", "%s & 255" % total)
        self.nz("a")

    def rmw(self, insn, index, live):
        name, mode = insn.name, insn.mode
        carry = self.flag("fc")
        if mode == "acc":
            self.kill("fn", "fz", "fc")
            wide = self.temp("r")
            if name == "ASL":
                self.emit("%s = a << 1" % wide)
                self.define("%s >> 8" % wide, "fc")
                self.assign("a", "%s & 255" % wide)
            elif name == "LSR":
                if live & LIVE_C:
                    self.emit("%s = a" % wide)
                    self.define("%s & 1" % wide, "fc")
                self.assign("a", "1", ">>=")
            elif name == "ROL":
                self.emit("%s = (a << 1) | %s" % (wide, carry))
                self.define("%s >> 8" % wide, "fc")
                self.assign("a", "%s & 255" % wide)
            else:
                self.emit("%s = a | (%s << 8)" % (wide, carry))
                self.define("%s & 1" % wide, "fc")
                self.assign("a", "%s >> 1" % wide)
            self.nz("a")
            return
        if mode in ("zpg", "abs"):
            where = None
            value = self.read_const(insn.operand)
        else:
            where, lo, hi, _ = self.address(insn, "x")
            if where != "e":
                self.emit("e = %s" % where)
                where = "e"
            if mode == "zpx":
                value = "ram[e]"
            else:
                kind = self.view.range_kind(self.view.read_kind, lo, hi)
                value = self.io_read("e") if kind == "mem" else "%s[e]" % kind
        old, result = self.temp("o"), self.temp("m")
        if name in ("INC", "DEC"):
            self.kill("fn", "fz")
            self.emit("%s = (%s %s 1) & 255" % (result, value, "+" if name == "INC" else "-"))
        else:
            self.kill("fn", "fz", "fc")
            self.emit("%s = %s" % (old, value))
            if name == "ASL":
                self.emit("%s = (%s << 1) & 255" % (result, old))
                self.define("%s >> 7" % old, "fc")
            elif name == "LSR":
                self.emit("%s = %s >> 1" % (result, old))
                self.define("%s & 1" % old, "fc")
            elif name == "ROL":
                self.emit("%s = ((%s << 1) | %s) & 255" % (result, old, carry))
                self.define("%s >> 7" % old, "fc")
            else:
                self.emit("%s = (%s >> 1) | (%s << 7)" % (result, old, carry))
                self.define("%s & 1" % old, "fc")
        self.nz(result)
        if where is None:
            self.store_const(insn.operand, result)
        else:
            self.store_dynamic(insn, index, where, lo, hi, result)


class FastCPU(CPU):
    """CPU with the same observable behaviour, running translated blocks."""

    # Blocks call KERNAL traps they reach through JSR/JMP themselves (False: every trap
    # is its own step, as tests that replay blocks on the reference CPU need).
    inline_traps = True

    def __init__(self, memory, trap_handler=None, pc=0x0000):
        self._cells = {name: types.CellType(0) for name in CELL_NAMES}
        for name, cell in (("a", "a"), ("x", "x"), ("y", "y"), ("sp", "sp"), ("pc", "pc"),
                           ("processorCycles", "cyc"), ("fn", "fn"), ("fz", "fz"), ("fc", "fc"),
                           ("fv", "fv"), ("fp", "fp")):
            # (interned: attribute look-ups of a non-interned key miss CPython's fast path)
            self.__dict__[sys.intern("_cell_" + name)] = self._cells[cell]
        self._bound = None
        self.translated_steps = 0      # step() calls that ran translated code (for tests)
        # addr -> the direct version of the trap routine there (set_fast_trap); `_declines`
        # where there is none.  Shared with the blocks (cell ftr).
        self._fast_traps = [declines] * 0x10000
        self._cells["ftr"].cell_contents = self._fast_traps
        self._cells["rk"].cell_contents = -1
        # One bound-method object each, so the tables can be compared with `is`.
        self._miss, self._interpret, self._trap = self._miss, self._interpret, self._trap
        CPU.__init__(self, memory, trap_handler, pc)
        self._bind(self.memory)

    # -- binding to a memory ---------------------------------------------------------
    def _bind(self, memory):
        """Attach to `memory` (C64Memory or a plain 64 KB list/bytearray); drops all translations."""
        self._bound = memory
        self._c64 = isinstance(memory, C64Memory)
        cells = self._cells
        if self._c64:
            ram = memory.ram
            cm = memory.code_map
            if self._code_written not in memory.code_listeners:
                memory.code_listeners.append(self._code_written)
            if self._on_bank not in memory.bank_listeners:
                memory.bank_listeners.append(self._on_bank)
            cells["rom"].cell_contents = memory.rom
        else:
            ram = memory
            cm = [0] * 0x10000
            cells["rom"].cell_contents = memory
        self._ram = ram
        self._cm = cm
        cells["ram"].cell_contents = ram
        cells["mem"].cell_contents = memory
        cells["cm"].cell_contents = cm
        cells["inv"].cell_contents = self._code_written
        cells["cpu"].cell_contents = self
        cells["dv"].cell_contents = self._variant
        self._decimal_blocks = {}  # key -> the block compiled for D set
        self._tables = {}
        self._views = {}
        self._decimal_blocks = {}
        self._blocks = {}          # key -> [(start, end, bytes)] of blocks translated from RAM
        self._covers = {}          # address -> keys of RAM blocks holding it
        self._page_blocks = {}     # page -> keys of RAM blocks touching it
        self._page_snap = {}       # page -> (mask of its code bytes, those bytes) as integers
        self._dirty_pages = set()  # pages whose snapshot must be rebuilt
        self._rewrites = {}        # key -> times the program's own stores invalidated it
        self._vectors = {}         # key -> {vector byte: vector address} of the vectors it watches
        self._changing_vectors = set()   # vectors that changed under a block: checked at run time
        self._seen = {}            # key -> visits before it was compiled
        self._shadow = CPU(memory)
        self._loop = types.FunctionType(LOOP_CODE, BLOCK_GLOBALS, "run_loop", None,
                                        tuple(cells[n] for n in LOOP_CODE.co_freevars))
        self._on_bank()

    def _config_key(self):
        return self._bound.visible() if self._c64 else ()

    def _on_bank(self):
        key = self._config_key()
        table = self._tables.get(key)
        if table is None:
            table = self._tables[key] = [self._miss] * 0x10000
        self._cells["tbl"].cell_contents = table
        self._table = table
        self._key = key

    def _view(self):
        view = self._views.get(self._key)
        if view is None:
            view = self._views[self._key] = MemoryView(self)
        return view

    # -- registers: the cells are the registers ------------------------------------------
    def _get_p(self):
        return ((self._cell_fn.cell_contents & 0x80) | ((self._cell_fv.cell_contents & 0x80) >> 1)
                | self._cell_fp.cell_contents | (0 if self._cell_fz.cell_contents else 2)
                | self._cell_fc.cell_contents)

    def _set_p(self, p):
        self._cell_fn.cell_contents = p & 0x80
        self._cell_fz.cell_contents = (p & 2) ^ 2
        self._cell_fc.cell_contents = p & 1
        self._cell_fv.cell_contents = (p & 0x40) << 1
        self._cell_fp.cell_contents = p & 0x3C

    p = property(_get_p, _set_p)

    def _set_trap_handler(self, handler):
        self.__dict__["_trap_handler"] = handler
        self._cells["trap"].cell_contents = handler
        # The direct versions belong to the handler they stand in for.
        self._fast_traps[:] = [declines] * 0x10000

    def set_fast_trap(self, addr, function):
        """Give the trap routine at `addr` a direct version, called before the trap handler.

        `function()` (no arguments; normally built with with_registers) either does the
        whole trap itself - the routine, its cycles, the RTS, exactly what the handler
        would do - and returns True, or changes nothing and returns False, and the trap
        handler runs as usual.  Translated blocks call it straight, without the handler's
        layers.  A block that pushed the routine's return address itself, with nothing
        touching the stack since, sets the cell rk to the address the RTS goes to before
        the call (-1 otherwise): the function may use it instead of reading the stack, and
        must set rk back to -1 when it reads it.  None removes it.  Setting trap_handler
        removes them all."""
        self._fast_traps[addr] = declines if function is None else function

    def fast_trap(self, addr):
        """The direct version set for the trap routine at `addr`, or None."""
        function = self._fast_traps[addr]
        return None if function is declines else function

    @property
    def fast_trap_return(self):
        """The cell rk (see set_fast_trap): where the RTS of the direct version being called
        goes when the calling block knows it, else -1."""
        return self._cells["rk"].cell_contents

    # -- inspection, for tests and tools ------------------------------------------------------
    def block_at(self, pc):
        """What runs at pc under the current memory configuration: a translated block (a
        function named block_<pc>), or the CPU's own miss/interpret/trap entry."""
        return self._table[pc]

    def decode(self, pc, limit=MAX_INSNS, single=False):
        """The instructions (Insn) the translator makes one block of, starting at pc."""
        return self._decode(pc, limit, single)

    def rewrite_counts(self):
        """Block key -> times the program's own stores invalidated that block's code."""
        return dict(self._rewrites)

    def changing_vectors(self):
        """The indirect-jump vectors that changed under a block (checked at run time since)."""
        return frozenset(self._changing_vectors)

    trap_handler = property(operator.attrgetter("_trap_handler"), _set_trap_handler)

    # -- running ---------------------------------------------------------------------------------
    def run(self, cycle_limit, verify=True):
        """Run blocks until processorCycles >= cycle_limit (at a block boundary) or stop() is called.

        verify=False skips looking for RAM written, or banking changed, behind the CPU's
        back (see the module docstring): for a caller that knows nothing but the CPU and
        stores through the memory object ran since the last run (the machine's later run
        slices)."""
        self.stop_requested = False
        if self.memory is not self._bound:
            self._bind(self.memory)
        elif verify:
            if self._c64 and self._key != self._config_key():
                self._on_bank()       # (the banking changed without rebank(); it tells us)
            self._verify()
        self._cells["lim"].cell_contents = cycle_limit
        self._loop()

    def stop(self):
        self.stop_requested = True
        self._cells["lim"].cell_contents = -1

    # -- interrupts: py65's irq() and nmi(), on the cells -----------------------------------
    def irq(self):
        if not self._cell_fp.cell_contents & 0x04:
            self._interrupt(self.IRQ)

    def nmi(self):
        self._interrupt(self.NMI)

    def _interrupt(self, vector):
        """Push PC and P (B clear, bit 5 set), set I, jump through `vector`, 7 cycles."""
        if self.memory is not self._bound:
            self._bind(self.memory)
        fp = self._cell_fp
        fp.cell_contents &= ~0x10
        pc = self._cell_pc.cell_contents
        sp = self._cell_sp.cell_contents
        ram, cm = self._ram, self._cm
        for value in ((pc >> 8) & 0xFF, pc & 0xFF, self._get_p() | 0x20):
            ram[0x100 + sp] = value              # the stack page is RAM on a C64 too
            if cm[0x100 + sp]:
                self._code_written(0x100 + sp)
            sp = (sp - 1) & 0xFF
        self._cell_sp.cell_contents = sp
        fp.cell_contents |= 0x04
        memory = self._bound
        self._cell_pc.cell_contents = memory[vector] + (memory[vector + 1] << 8)
        self._cell_processorCycles.cell_contents += 7

    def step(self):
        """Execute one instruction (translated on its own, so py65's tests exercise the translator)."""
        if self.memory is not self._bound:
            self._bind(self.memory)
        elif self._c64 and self._key != self._config_key():
            self._on_bank()
        insns = self._decode(self.pc, 1, single=True)
        if not insns:
            return CPU.step(self)
        function = self._function(insns, single=True, decimal=bool(self.p & 8))
        self.translated_steps += 1
        function()
        return self

    def _interpret(self):
        """Instructions through plain py65 stepping: undocumented opcodes, code in odd places,
        code rewritten over and over, and code not run often enough yet to be worth compiling.

        A plain CPU (the shadow) steps them, so interpreting costs what py65 costs; it goes
        on while the next instruction is to be interpreted too.
        """
        shadow = self._shadow
        shadow.a, shadow.x, shadow.y, shadow.sp = self.a, self.x, self.y, self.sp
        shadow.pc, shadow.p, shadow.processorCycles = self.pc, self.p, self.processorCycles
        cycles = self._cell_processorCycles
        lim = self._cells["lim"]
        table, key, memory = self._table, self._key, self._bound
        interpret, miss, seen = self._interpret, self._miss, self._seen
        step = CPU.step
        try:
            while True:
                step(shadow)
                cycles.cell_contents = shadow.processorCycles     # chips see the time
                if shadow.processorCycles >= lim.cell_contents or self._key is not key:
                    break
                pc = shadow.pc
                entry = table[pc]
                if entry is interpret:
                    continue
                if entry is miss and memory[pc] != TRAP_OPCODE:        # (a trap needs the real CPU)
                    count = seen.get((key, pc), 0)
                    if count < HOT_COUNT - 1:
                        seen[(key, pc)] = count + 1
                        continue
                break
        finally:
            self.a, self.x, self.y, self.sp = shadow.a, shadow.x, shadow.y, shadow.sp
            self.pc, self.p, self.processorCycles = shadow.pc, shadow.p, shadow.processorCycles
        if not self._c64:
            self._verify()       # py65 stores straight into a plain list

    def _trap(self):
        """The trap opcode fetched from ROM: what CPU.step does for it, without the decoding."""
        pc = self._cell_pc
        addr = pc.cell_contents
        if self._fast_traps[addr]():
            return
        pc.cell_contents = (addr + 1) & 0xFFFF
        self.trap_handler(addr)
        pc.cell_contents &= 0xFFFF

    def with_registers(self, function, **values):
        """`function` rebuilt to run on this CPU's registers, for KERNAL traps on a hot path.

        `function` is a nested function whose free variables are register and flag names
        (a x y sp pc cyc fn fz fc fv fp, kept as described at the top of this module; rk, see
        set_fast_trap) and the names given in `values`.  The copy shares the registers' closure cells with the
        translated blocks, so it reads and sets them as they do, as plain variables (with
        `nonlocal` for the ones it sets), without the properties."""
        code = function.__code__
        cells = []
        for name in code.co_freevars:
            if name in values:
                cells.append(types.CellType(values[name]))
            elif name in DIRECT_CELLS:
                cells.append(self._cells[name])
            else:
                raise ValueError("%s: free variable %r is neither a register nor given"
                                 % (function.__name__, name))
        return types.FunctionType(code, function.__globals__, function.__name__,
                                  function.__defaults__, tuple(cells))

    # -- translation -----------------------------------------------------------------------------
    def _miss(self):
        pc = self._cells["pc"].cell_contents
        key = (self._key, pc)
        insns = None
        if self._is_trap(pc):
            self._table[pc] = self._trap
            return self._trap()
        count = self._seen.get(key, 0)
        if count < HOT_COUNT - 1:               # first visits: interpret, compile when it comes back
            self._seen[key] = count + 1
            return self._interpret()
        if self._rewrites.get(key, 0) < REWRITE_LIMIT:
            insns = self._decode(pc, MAX_INSNS, single=False, guess=True)
        if insns:
            function = self._function(insns, single=False)
            self._register(key, insns)
        else:
            function = self._interpret
        self._table[pc] = function
        function()

    def _is_trap(self, pc):
        if self.trap_handler is None or not self._c64 or CPU.instruct[TRAP_OPCODE] is not CPU._jam:
            return False
        memory = self._bound
        return memory.rom_visible(pc) and memory.rom[pc] == TRAP_OPCODE and CPU.cycletime[TRAP_OPCODE] == 0

    def _variant(self, decimal):
        """Called by a block whose D assumption is wrong: run the other version of it."""
        pc = self._cells["pc"].cell_contents
        if not decimal:
            return self._table[pc]()
        key = (self._key, pc)
        function = self._decimal_blocks.get(key)
        if function is None:
            function = self._function(self._decode(pc, MAX_INSNS, False), False, decimal=True)
            self._decimal_blocks[key] = function
        return function()

    def _function(self, insns, single, decimal=False):
        body, nonlocals = BlockBuilder(self, self._view(), insns, single, decimal).build()
        code = compile_block(body, nonlocals)
        cells = self._cells
        return types.FunctionType(code, BLOCK_GLOBALS, "block_%04x" % insns[0].addr, None,
                                  tuple(cells[n] for n in code.co_freevars))

    def _decode(self, pc, limit, single, guess=False):
        """The instructions of the block at pc (empty if the first one is not translated).

        With `guess`, an RTS (or a trap's) back past the block's start is followed too, to
        where the stack says now: the caller the program is in at translation time (the
        block checks the stack there when it runs, as for any RTS it follows)."""
        view = self._view()
        sources = view.sources
        source = sources[pc >> 8]
        if source is None or (self._c64 and pc < 2) or (not single and pc < 0x200):
            return []
        cycletime = type(self).cycletime
        extracycles = type(self).extracycles
        insns = []
        seen = set()
        calls = []
        addr = pc
        guess = guess and not single
        stack, sp = self._ram, self._cell_sp.cell_contents
        offset = 0                 # the stack pointer then, relative to sp (pushes count down)
        while len(insns) < limit:
            source = sources[addr >> 8]
            if source is None:
                break
            op = source[addr]
            entry = OPCODES.get(op)
            if entry is None:
                break
            name, mode = entry
            length = 1 + OPERAND_BYTES[mode]
            last = addr + length - 1
            if last > 0xFFFF or sources[last >> 8] is not source:
                break
            if not single and (last >> 8) < 2:
                break
            if length == 2:
                operand = source[addr + 1]
            elif length == 3:
                operand = source[addr + 1] | (source[addr + 2] << 8)
            else:
                operand = None
            insn = Insn(addr, op, name, mode, operand, length, cycletime[op], extracycles[op])
            insns.append(insn)
            seen.add(addr)
            if not single:
                # Follow JMP, JSR, the RTS back from such a JSR, and JMP (vector) to where
                # the vector points now (both checked when the block runs).
                target = None
                if name in ("JMP", "JSR") and mode == "abs":
                    target = operand
                elif name == "RTS" and calls:
                    target = insn.ret = calls.pop()
                    offset += 2
                elif name == "RTS" and guess and offset >= 0:
                    target = insn.ret = self._return_address(stack, sp + offset)
                    offset += 2
                elif name == "JMP" and mode == "ind":
                    hi_addr = (operand & 0xFF00) | ((operand + 1) & 0xFF)
                    lo_src, hi_src = sources[operand >> 8], sources[hi_addr >> 8]
                    if lo_src is not None and hi_src is not None and operand > 1 and hi_addr > 1:
                        target = insn.ret = lo_src[operand] | (hi_src[hi_addr] << 8)
                if (target is not None and name != "RTS" and self.inline_traps
                        and self._is_trap(target)):
                    # A KERNAL trap: called from inside the block; if it returns to the
                    # JSR this block went through, the block goes on there.
                    insn.chain = True
                    trap = Insn(target, TRAP_OPCODE, "TRAP", "imp", None, 1, 0, 0)
                    insns.append(trap)
                    if name == "JSR":
                        ret = insn.next            # the routine's RTS comes back right here
                    elif calls:
                        ret = calls.pop()          # a JMP: it returns from the JSR before
                        offset += 2
                    elif guess and offset >= 0:
                        ret = self._return_address(stack, sp + offset)
                        offset += 2
                        if ret < 0x200 or sources[ret >> 8] is None:
                            break
                    else:
                        break
                    trap.chain = True
                    trap.ret = ret
                    addr = ret
                    continue
                # (A subroutine already in the block is followed again: the block grows by
                # its instructions, up to MAX_INSNS, but cannot loop - its RTS comes back.)
                if (target is not None and target >= 0x200
                        and (target not in seen or name == "JSR"
                             or (name == "JMP" and self._jumps_to_trap(sources, target)))
                        and sources[target >> 8] is not None):
                    insn.chain = True
                    if name == "JSR":
                        calls.append(insn.next)
                        offset -= 2
                    addr = target
                    continue
            if name in ("JMP", "JSR", "RTS", "RTI", "BRK", "PLP"):
                break                              # (after PLP the D flag is not known)
            if name in ("PHA", "PHP"):
                offset -= 1
            elif name == "PLA":
                offset += 1
            elif name == "TXS":
                guess = False
            if name in STORES or (name in RMW and mode in ("zpg", "abs")):
                if mode in ("zpg", "abs"):
                    target = operand
                    if self._c64 and target < 2:
                        break                      # the memory configuration changes
            if name in BRANCHES and not single:
                target = branch_target(insn)
                if target == pc:
                    break                          # a loop back to the start: the block is the loop body
                if self._skippable(sources, insn.next, target):
                    insn.skip = target
            addr = insn.next
            if addr == 0:
                break
        # A store to a constant address inside the block's later bytes: end right after it
        # (the first such store; `later` holds the bytes after instruction i).
        later, cut = set(), None
        for i in range(len(insns) - 1, -1, -1):
            insn = insns[i]
            if ((insn.name in STORES or insn.name in RMW) and insn.mode in ("zpg", "abs")
                    and insn.operand in later):
                cut = i
            later.update(range(insn.addr, insn.addr + insn.length))
            later.update(vector_bytes(insn))
        if cut is not None:
            del insns[cut + 1:]
        if insns and insns[-1].chain and insns[-1].name != "TRAP":
            insns[-1].chain = False                # the last instruction leaves the block itself
            insns[-1].ret = None
        return insns

    @staticmethod
    def _return_address(stack, sp):
        """Where an RTS with the stack pointer at sp goes, by the stack page now."""
        return (stack[0x100 + ((sp + 1) & 0xFF)] | (stack[0x100 + ((sp + 2) & 0xFF)] << 8)) + 1 & 0xFFFF

    def _jumps_to_trap(self, sources, addr):
        """True if the code at addr is a JMP or JMP (vector) to a KERNAL trap (a jump-table
        entry such as CHROUT's $FFD2): a block may jump there again, it ends or returns."""
        if not self.inline_traps:
            return False
        source = sources[addr >> 8]
        if source is None or addr > 0xFFFD or sources[(addr + 2) >> 8] is not source:
            return False
        operand = source[addr + 1] | (source[addr + 2] << 8)
        if source[addr] == 0x4C:
            return self._is_trap(operand)
        if source[addr] == 0x6C:
            hi_addr = (operand & 0xFF00) | ((operand + 1) & 0xFF)
            lo_src, hi_src = sources[operand >> 8], sources[hi_addr >> 8]
            if lo_src is None or hi_src is None or operand <= 1 or hi_addr <= 1:
                return False
            return self._is_trap(lo_src[operand] | (hi_src[hi_addr] << 8))
        return False

    @staticmethod
    def _skippable(sources, start, target):
        """True if start..target-1 holds a few instructions a forward branch can skip inside
        a block (both ways then meet at target): ones that neither store, jump nor leave."""
        if not 0 < target - start <= MAX_SKIP:
            return False
        addr = start
        while addr < target:
            source = sources[addr >> 8]
            if source is None:
                return False
            entry = OPCODES.get(source[addr])
            if entry is None or entry[0] not in SKIPPABLE:
                return False
            addr += 1 + OPERAND_BYTES[entry[1]]
            if sources[(addr - 1) >> 8] is not source:
                return False
        return addr == target

    def _watches(self, view, insn):
        """True if the block reads the vector of this chained JMP (vector) from RAM it
        watches like code (writing it invalidates the block), so it needs no check when it
        runs.  A vector that has changed under a block once is checked at run time instead
        (programs that switch $0314 at every interrupt)."""
        vector = vector_bytes(insn)
        return (bool(vector) and vector[0] not in self._changing_vectors
                and view.read_kind[vector[0] >> 8] == "ram" and view.read_kind[vector[1] >> 8] == "ram")

    def _register(self, key, insns):
        """Remember which RAM bytes a block came from, so that writing them invalidates it."""
        view = self._view()
        kinds = view.read_kind
        spans = [(insn.addr, insn.addr + insn.length) for insn in insns
                 if kinds[insn.addr >> 8] == "ram"]
        vectors = {}
        for insn in insns:
            if self._watches(view, insn):
                for addr in vector_bytes(insn):
                    vectors[addr] = insn.operand
                    spans.append((addr, addr + 1))
        if not spans:
            return                                 # ROM does not change
        if vectors:
            self._vectors[key] = vectors
        ram = self._ram
        ranges = code_ranges([Span(lo, hi) for lo, hi in spans], vectors=False)
        self._blocks[key] = [(lo, hi, ram[lo:hi]) for lo, hi in ranges]
        covers, cm = self._covers, self._cm
        for lo, hi in ranges:
            for addr in range(lo, hi):
                holders = covers.get(addr)
                if holders is None:
                    holders = covers[addr] = set()
                    cm[addr] = 1
                holders.add(key)
            for page in range(lo >> 8, ((hi - 1) >> 8) + 1):
                self._page_blocks.setdefault(page, set()).add(key)
                self._dirty_pages.add(page)

    def _drop(self, key):
        ranges = self._blocks.pop(key)
        self._vectors.pop(key, None)
        self._decimal_blocks.pop(key, None)
        table = self._tables.get(key[0])
        if table is not None:
            table[key[1]] = self._miss
        covers, cm = self._covers, self._cm
        for lo, hi, _ in ranges:
            for addr in range(lo, hi):
                holders = covers.get(addr)
                if holders is not None:
                    holders.discard(key)
                    if not holders:
                        del covers[addr]
                        cm[addr] = 0
            for page in range(lo >> 8, ((hi - 1) >> 8) + 1):
                keys = self._page_blocks.get(page)
                if keys is not None:
                    keys.discard(key)
                    if not keys:
                        del self._page_blocks[page]
                self._dirty_pages.add(page)

    def _changed(self, key):
        ram = self._ram
        return any(ram[lo:hi] != code for lo, hi, code in self._blocks[key])

    def _code_written(self, addr):
        """A store hit a byte of translated code: forget the blocks holding it."""
        holders = self._covers.get(addr)
        if not holders:
            return
        rewrites = self._rewrites
        for key in list(holders):
            vector = self._vectors.get(key, {}).get(addr)
            if vector is None:
                rewrites[key] = rewrites.get(key, 0) + 1
            else:
                self._changing_vectors.add(vector)   # (not the code: no rewrite counted)
            self._drop(key)

    def _verify(self):
        """Drop blocks whose bytes changed without a store the CPU saw (a loader, a test, a trap).

        Each page holding translated RAM code keeps its code bytes (other bytes masked
        out) as one big integer, so checking a page is two conversions and a compare.
        """
        ram, cm = self._ram, self._cm
        snaps = self._page_snap
        dirty = self._dirty_pages
        while dirty:
            page = dirty.pop()
            for key in list(self._page_blocks.get(page, ())):
                if key in self._blocks and self._changed(key):
                    self._drop(key)              # marks its pages dirty again
            if page in self._page_blocks:
                lo = page << 8
                mask = int.from_bytes(bytes(cm[lo:lo + 256]).translate(_MASK_BYTES), "little")
                snaps[page] = (mask, int.from_bytes(bytes(ram[lo:lo + 256]), "little") & mask)
            else:
                snaps.pop(page, None)
        for page, (mask, snap) in list(snaps.items()):
            lo = page << 8
            if int.from_bytes(bytes(ram[lo:lo + 256]), "little") & mask != snap:
                dirty.add(page)
        if dirty:
            self._verify()


def _register_property(name):
    slot = "_cell_" + name
    namespace = {}
    exec("def put(self, value):\n    self.%s.cell_contents = value\n" % slot, namespace)
    return property(operator.attrgetter(slot + ".cell_contents"), namespace["put"],
                    doc="the %s register (a closure cell shared with the blocks)" % name)


for _name in ("a", "x", "y", "sp", "pc", "processorCycles"):
    setattr(FastCPU, _name, _register_property(_name))
