"""Code generation: the Python source of one block (BlockBuilder).

The memory accesses are in codegen_memory, the branches, jumps, calls, returns and
traps in codegen_flow; this module has the flags, the block's frame (loops, exits,
liveness) and the ordinary instructions.
"""

import re

from c64.fastcpu.codegen_flow import ControlFlow
from c64.fastcpu.codegen_memory import TEMPORARY, MemoryAccess
from c64.fastcpu.instructions import (BRANCHES, COMPARES, FLAG_OPS, INCDEC_REG, LIVE_ALL, LIVE_BIT,
                                      LIVE_C, LOADS, LOGIC, RMW, STORES, TRANSFERS, UNMASKING, branch_target,
                                      code_ranges, flag_effect)


class BlockBuilder(MemoryAccess, ControlFlow):
    """Generates the Python source of one block.

    Flags are *pending*: an instruction records the expression of each flag it
    sets (`pending`), the next writer of that flag simply replaces it, and a
    branch tests the expression directly.  The flag cells are only assigned
    where the block can be left (`materialize`), or when a register an
    expression refers to is about to change.  Temporaries an expression refers
    to carry the instruction's index in their name, so they stay valid.
    """

    def __init__(self, cpu, view, insns, single, decimal=False, exact=False):
        self.cpu, self.view, self.insns, self.single = cpu, view, insns, single
        # The exact version of a block (FastCPU._run_to): it leaves before any instruction
        # that could end at or past lim, so that the CPU steps to the limit from there.
        self.exact = exact
        self.c64 = view.c64
        # Stores and pushes to zero page and the stack page are checked against code_map
        # only once code there has been translated (FastCPU.low_code).
        self.low = cpu.low_code
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
        # The stack pointer is moved at translation time: the 6502's is (sp + spo) & 255,
        # and the cell is brought up to date only where something reads it (exits, traps,
        # TSX, loop passes, the join of a branch kept inside the block).
        self.spo = 0
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

    def sp_value(self, k=0):
        """Expression of the 6502's stack pointer plus k."""
        d = self.spo + k
        if d == 0:
            return "sp"
        return "(sp %s %d) & 255" % ("+" if d > 0 else "-", abs(d))

    def stack(self, k=0):
        """Expression of the address of the stack byte at the 6502's stack pointer plus k."""
        return "256 + %s" % (self.sp_value(k) if self.spo + k == 0 else "(%s)" % self.sp_value(k))

    def sync_sp(self):
        """Bring the cell sp up to date (see spo) for the code that follows."""
        if self.spo:
            self.assign("sp", self.sp_value())
            self.spo = 0

    def exit_lines(self, cycles, pc_expr):
        self.materialize()
        if self.spo:                  # (only on this way out: spo stays for the code after)
            self.emit("sp = %s" % self.sp_value())
            self.set("sp")
        if cycles:
            self.emit("cyc += %d" % cycles)
            self.set("cyc")
        self.emit("pc = %s" % pc_expr)
        self.set("pc")
        self.emit("return")

    def nz(self, value):
        self.define(value, "fn", "fz")

    # -- the block ----------------------------------------------------------------------------
    def build(self):
        insns = self.insns
        count = len(insns)
        last = insns[-1]
        names = {insn.name for insn in insns}
        own = code_ranges(insns)
        rewrites_itself = any(
            (insn.name in STORES or (insn.name in RMW and insn.mode != "acc"))
            and insn.mode in ("zpg", "abs") and not insn.dynamic
            and any(lo <= insn.operand < hi for lo, hi in own)
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
            if (self.exact or self.may_exit(insn, i) or insn.name in BRANCHES or insn.name == "RTS"
                    or (insn.name == "JMP" and insn.mode == "ind") or insn.name == "TRAP"):
                live = LIVE_ALL
            live_after[i] = live
            reads, writes = flag_effect(insn.name)
            live = (live & ~writes) | reads
            if insn.name in UNMASKING:
                live = LIVE_ALL                 # (the block may leave before it: iw)
        # The flags the loop's body may read (or leave with) before setting them: only
        # those go to their cells where a pass loops back (ControlFlow.branch).
        self.loop_live = live
        if self.exact and names & {"ADC", "SBC"}:
            self.emit("if fp & 8:")
            self.emit("    return")                # (decimal mode: stepped instead)
        elif not self.single and names & {"ADC", "SBC"}:
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
            if self.exact:
                worst = insn.cycles + (1 if insn.extra else 0) + (2 if insn.name in BRANCHES else 0)
                self.emit("if cyc >= lim - %d:" % (self.static + worst))
                self.depth += 1
                self.exit_lines(self.static, str(insn.addr))
                self.depth -= 1
            if insn.name in UNMASKING:
                # An IRQ waits for I (iw 1): leave before what clears it (a PLP only if it
                # pulls I clear); FastCPU._run_masked steps it.
                self.emit("if iw:" if insn.name == "CLI" else
                          "if iw and not ram[%s] & 4:" % self.stack(1))
                self.depth += 1
                self.emit("iw = 2")
                self.set("iw")
                self.exit_lines(self.static, str(insn.addr))
                self.depth -= 1
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
            if insn.mode in ("zpx", "zpy") or insn.dynamic:
                return []
            if insn.mode in ("abx", "aby") and (insn.operand < 0x100 or insn.operand + 255 > 0xFFFF):
                return []
            if insn.mode in ("zpg", "abs"):
                pointers.discard(insn.operand)
        return sorted(pointers)

    def temp(self, prefix):
        return "%s%d" % (prefix, self.n)

    def instruction(self, insn, index, live, is_last):
        name = insn.name
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
            self.assign(dest, self.sp_value() if src == "sp" else src)
            self.nz(dest)
        elif name == "TXS":
            self.assign("sp", "x")
            self.spo = 0
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
            self.push("a", insn)
            self.frames.append(None)
        elif name == "PHP":
            self.push(self.p_expr() + " | 48", insn)
            self.frames.append(None)
        elif name in ("PLA", "PLP"):
            if self.frames and self.frames[-1] is None:
                self.frames.pop()
            else:
                self.frames = []                  # pulls what the block did not push: forget
            self.spo += 1
            if name == "PLA":
                self.kill("fn", "fz")
                self.assign("a", "ram[%s]" % self.stack())
                self.nz("a")
            else:
                self.unpack_p("ram[%s]" % self.stack())
        else:
            self.flow(insn, index, live, is_last)
            return
        self.static += cycles

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
        if mode in ("zpg", "abs") and not insn.dynamic:
            where = None
            value = self.read_const(insn.operand, "read")
        else:
            where, lo, hi, _ = self.address(insn, "x")
            if where != "e":
                self.emit("e = %s" % where)
                where = "e"
            if mode in ("zpx", "zpg"):
                value = "ram[e]"
            elif lo is None:
                self.read_any("e", "v", "read")  # (an operand read when the block runs)
                value = "v"
            else:
                kind = self.view.range_kind(self.view.read_kind, lo, hi)
                value = self.io_read("e", "read") if kind == "mem" else "%s[e]" % kind
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
        old = value if value == "v" or TEMPORARY.fullmatch(value) else None
        if name not in ("INC", "DEC"):
            old = self.temp("o")
        if where is None:
            self.store_const(insn.operand, result, old)
        else:
            self.store_dynamic(insn, index, where, lo, hi, result, old)
