"""Code generation, memory accesses: addressing modes, loads and stores decided by the
memory configuration at translation time (RAM, ROM or I/O), self-modifying stores.
"""

import re

from c64.fastcpu.instructions import COMPARES, LOADS, LOGIC, RMW, STORES, code_ranges

# A temporary of a block (instruction index in its name; never a register).
TEMPORARY = re.compile(r"[a-z]+[0-9]+(_[0-9]+)?")


class MemoryAccess:
    """BlockBuilder's memory accesses."""

    # -- memory ---------------------------------------------------------------------------
    def io_access(self, line, access="last", cross=None):
        """An access that may reach a chip: the cycle counter shows py65's count meanwhile
        (the instruction's first cycle), and the cell ao the access's own cycle in the
        instruction (c64.cpu.CPU.access_cycle): `access` "read" / "dummy" / "last" for a
        read-modify-write's read, its write of the old value, anything else; `cross`: the
        condition of an indexed read crossing a page (one cycle later)."""
        if not self.c64:
            self.emit(line)
            return
        insn = self.insns[self.n]
        offset = insn.cycles - {"read": 3, "dummy": 2, "last": 1}[access]
        if self.static:
            self.emit("cyc += %d" % self.static)
        self.emit("ao = %d" % offset if cross is None else "ao = %d + (%s)" % (offset, cross))
        self.emit(line)
        self.emit("ao = 0")
        if self.static:
            self.emit("cyc -= %d" % self.static)
            self.set("cyc")
        self.set("ao")

    def io_read(self, where, access="last", cross=None):
        self.reads = getattr(self, "reads", 0) + 1
        value = "i%d_%d" % (self.n, self.reads)
        self.io_access("%s = mem[%s]" % (value, where), access, cross)
        return value

    @staticmethod
    def crossing(extra):
        """The condition of a page-crossing cycle line ("if COND: cyc += 1"), or None."""
        return extra[3:-len(": cyc += 1")] if extra else None

    def read_const(self, addr, access="last"):
        addr &= 0xFFFF
        known = self.known.get(addr)
        if known is not None:
            return known
        kind = self.view.read_kind[addr >> 8]
        if kind == "io":
            return self.io_read(str(addr), access)
        return "%s[%d]" % (kind, addr)

    def read_any(self, var, target, access="last", cross=None):
        """Emit `target = byte at var` for an address only known at run time."""
        if not self.c64:
            self.emit("%s = ram[%s]" % (target, var))
            return
        self.emit("if %s < %d:" % (var, self.view.read_top))
        self.emit("    %s = ram[%s]" % (target, var))
        self.emit("else:")
        self.depth += 1
        self.emit("%s &= 65535" % var)
        self.io_access("%s = mem[%s]" % (target, var), access, cross)
        self.depth -= 1

    def address(self, insn, register):
        """Emit code for the effective address of an indexed/indirect operand.

        Returns (expression or variable, lo, hi, extra): the possible address range
        (None for any) and the page-crossing cycle line to emit after the access.
        """
        mode, operand = insn.mode, insn.operand
        if insn.dynamic:
            return self.dynamic_address(insn, register)
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

    def operand_bytes(self, insn):
        """The operand of an instruction the program keeps rewriting, read from RAM."""
        lo = (insn.addr + 1) & 0xFFFF
        if insn.length == 2:
            return "ram[%d]" % lo
        return "(ram[%d] | (ram[%d] << 8))" % (lo, (lo + 1) & 0xFFFF)

    def dynamic_address(self, insn, register):
        """address() for an operand read when the block runs (Insn.fixed): zero page
        (0..255, as zp,X gives), or any address (None: checked when used)."""
        mode = insn.mode
        if mode == "zpg":
            self.emit("e = %s" % self.operand_bytes(insn))
            return "e", 0, 255, None
        base = self.operand_bytes(insn)
        extra = None
        if mode == "abs":
            self.emit("e = %s" % base)
        else:
            self.emit("e = %s + %s" % (base, register))
            if not self.c64:
                self.emit("e &= 65535")    # (on a C64 the slow path masks)
            if insn.extra:
                extra = "if ram[%d] + %s > 255: cyc += 1" % ((insn.addr + 1) & 0xFFFF, register)
                self.set("cyc")
        return "e", None, None, extra

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
            return self.operand_bytes(insn) if insn.dynamic else str(operand)
        if mode in ("zpg", "abs") and not insn.dynamic:
            return self.read_const(operand)
        register = "y" if mode in ("zpy", "aby", "iny") else "x"
        where, lo, hi, extra = self.address(insn, register)
        if mode in ("zpx", "zpy", "zpg"):
            return "ram[%s]" % where       # C64Memory keeps RAM $00/$01 equal to the port's value
        if lo is None and self.c64 is False:
            if extra:
                self.emit(extra)
            return "ram[%s]" % where
        if lo is None:
            self.read_any(where, "v", cross=self.crossing(extra))
            if extra:
                self.emit(extra)
            return "v"
        kind = self.view.range_kind(self.view.read_kind, lo, hi)
        if kind == "mem":
            value = self.io_read(where, cross=self.crossing(extra))
            if extra:
                self.emit(extra)
            return value
        if extra:
            self.emit(extra)               # RAM and ROM reads have no side effects: order is free
        return "%s[%s]" % (kind, where)

    def store(self, insn, index, value):
        """Emit a store of `value` (an expression without side effects) to the operand."""
        mode, operand = insn.mode, insn.operand
        if mode in ("zpg", "abs") and not insn.dynamic:
            self.store_const(operand, value)
            return
        register = "y" if mode in ("zpy", "aby", "iny") else "x"
        where, lo, hi, _ = self.address(insn, register)
        self.store_dynamic(insn, index, where, lo, hi, value)

    def store_const(self, addr, value, old=None):
        """`old`: a read-modify-write's old value (written back first, as the 6502 does)."""
        if self.c64 and addr < 2:
            self.emit("mem[%d] = %s" % (addr, value))      # the block ends here (bank switch)
            return
        if self.view.write_kind[addr >> 8] == "io":
            if old is not None:
                self.io_access("mem[%d] = %s" % (addr, old), "dummy")
            self.io_access("mem[%d] = %s" % (addr, value))
            self.leave_if_stopped()
            return
        if 0x100 <= addr < 0x200:
            self.frames = []
        if addr < 0x100:
            if TEMPORARY.fullmatch(value):
                self.known[addr] = value
            else:
                self.known.pop(addr, None)
        if addr >= 0x200 or self.low:
            self.store_checked(str(addr), value, [])
        else:
            self.emit("ram[%d] = %s" % (addr, value))

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

    def leave_if_stopped(self):
        """After a store to a chip: leave the block if it called stop() (a reprogrammed timer:
        the machine plans the next interrupt again before anything else runs)."""
        insn = self.insns[self.n]
        self.emit("if lim < 0:")
        self.depth += 1
        self.exit_lines(self.static + insn.cycles, str(insn.next))
        self.depth -= 1

    def store_dynamic(self, insn, index, where, lo, hi, value, old=None):
        """Store through a computed address; leaves the block if it rewrote the block's own later bytes."""
        hits = self.later_hits(index, lo, hi)
        if insn.mode in ("zpx", "zpy", "zpg"):
            self.known.clear()
            if self.c64:
                self.emit("if %s > 1:" % where)
                self.depth += 1
                if self.low:
                    self.code_check(insn, where, value, hits)
                else:
                    self.emit("ram[%s] = %s" % (where, value))
                self.depth -= 1
                self.emit("else:")
                self.emit("    mem[%s] = %s" % (where, value))
                self.depth += 1
                self.exit_lines(self.static + insn.cycles, str(insn.next))
                self.depth -= 1
            else:
                if self.low:
                    self.code_check(insn, where, value, hits)
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
            self.code_check(insn, where, value, hits)
            return
        if where != "e":
            self.emit("e = %s" % where)
        if not self.c64:
            if may_reach_zero_page:
                self.known.clear()
            self.code_check(insn, "e", value, hits)
            return
        # Zero page goes the slow way and leaves the block, so what `known` holds stays true.
        low = 0xFF if may_reach_zero_page and self.known else 1
        self.emit("if %d < e < %d:" % (low, self.view.write_top))
        self.depth += 1
        self.code_check(insn, "e", value, hits)
        self.depth -= 1
        self.emit("else:")
        self.depth += 1
        self.emit("e &= 65535")
        if old is not None:
            self.io_access("mem[e] = %s" % old, "dummy")
        self.io_access("mem[e] = %s" % value)   # C64Memory invalidates code it overwrites itself
        self.emit("if %s:" % " or ".join(["e < %d" % (low + 1), "lim < 0"] + ["%d <= e < %d" % r for r in hits]))
        self.depth += 1
        self.exit_lines(self.static + insn.cycles, str(insn.next))
        self.depth -= 2

    def code_check(self, insn, where, value, hits):
        """A store of `value` to RAM at `where` checked against code_map; leaves the block
        if it changed the block's own later bytes (`hits`)."""
        exit_if = None
        if hits:
            exit_if = (" or ".join("%d <= %s < %d" % (a, where, b) for a, b in hits),
                       self.static + insn.cycles, str(insn.next))
        self.store_checked(where, value, exit_if)

    def store_checked(self, where, value, exit_if):
        """`ram[where] = value`, telling the CPU (`inv`) when it changes a byte of translated
        code.  A store of the byte already there changes no code: no call (a test program
        writing the same opcodes before each run of new code), and no way out either.
        (Within a run slice RAM's code bytes are what the blocks were made from: a write
        behind the CPU's back is caught when run() starts, FastCPU._verify.)"""
        self.emit("if cm[%s] and ram[%s] != %s:" % (where, where, value))
        self.depth += 1
        self.emit("ram[%s] = %s" % (where, value))
        self.emit("inv(%s)" % where)
        if exit_if:
            condition, cycles, pc = exit_if
            self.emit("if %s:" % condition)
            self.depth += 1
            self.exit_lines(cycles, pc)
            self.depth -= 1
        self.depth -= 1
        self.emit("else:")
        self.emit("    ram[%s] = %s" % (where, value))

    def may_exit(self, insn, index):
        """True if a store of this instruction can leave the block early (all flags must be live)."""
        name, mode = insn.name, insn.mode
        if name in ("PHA", "PHP", "JSR") and self.low and self.later_hits(index, 0x100, 0x1FF):
            return True                            # a push over the block's own code
        if not (name in STORES or (name in RMW and mode != "acc")):
            return False
        if insn.dynamic and mode in ("abs", "abx", "aby"):
            return True
        if mode == "abs" and self.c64 and self.view.write_kind[insn.operand >> 8] == "io":
            return True                            # (leave_if_stopped)
        if mode in ("zpx", "zpy") or (insn.dynamic and mode == "zpg"):
            return self.c64 or (self.low and bool(self.later_hits(index, 0, 255)))
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
