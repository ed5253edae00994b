"""Code generation, control flow: branches (side exits, loops, the ones skipped inside
a block), JMP, JSR, RTS, RTI, BRK and KERNAL traps called from inside a block.
"""

from c64.fastcpu.instructions import BRANCHES, branch_target, taken_branch_cycles


class ControlFlow:
    """BlockBuilder's control flow."""

    def skip_join(self, insn, index):
        """For a branch over a few plain instructions (Insn.skip) that this block goes on
        after: the index of the instruction where both ways meet, else None."""
        if insn.skip is None or self.single or self.exact:
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
        self.sync_sp()                           # (both ways meet with the cell up to date)
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
        self.sync_sp()
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
            self.sync_sp()                        # (the routine reads the stack pointer)
            self.materialize()
            self.pending = {}                     # the routine may change any flag
            self.known = {}                       # and any memory
            self.pointers = {}
            if self.static:
                self.emit("cyc += %d" % self.static)
                self.set("cyc")
            self.static = 0
            # The trap's address is an instruction boundary: an interrupt due by now is
            # taken before the routine runs, as py65 takes it (a GETIN poll loop spinning
            # until the jiffy IRQ's scan brings a typed key must see the key on this pass).
            self.emit("if cyc >= lim:")
            self.emit("    pc = %d" % insn.addr)
            self.emit("    return")
            # The routine's direct version first (FastCPU.set_fast_trap), held inline if it
            # gives its source; when it declines, the trap handler, as CPU.step calls it.
            inline = self.cpu.inline_trap(insn.addr)
            if inline is not None:
                for line in inline[0](insn.ret if known_return else -1, self.view.write_kind):
                    self.emit(line)
                self.set("a", "x", "y", "sp", "pc", "cyc", "fn", "fz", "fc", "fv", "fp")
                self.emit("if not kd:")
                self.depth += 1
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
                self.emit("    if pc != %d or lim < 0:" % insn.ret)
                self.emit("        return")
            if inline is not None:
                self.depth -= 1
            if known_return and insn.chain:
                # (The direct version returns there and never calls stop(), but what it
                # prints may land on translated code: then lim < 0, FastCPU._code_stored.)
                self.emit("if lim < 0:")
                self.emit("    return")
            if not insn.chain:
                self.emit("return")
                self.dead = True
            elif not known_return:
                self.emit("if pc != %d or lim < 0:" % insn.ret)   # (lim < 0: stop() was called)
                self.emit("    return")
            return
        elif insn.chain and name == "JMP" and mode == "abs":
            pass                                  # the block goes on at the target
        elif insn.chain and name == "JMP" and self.cpu.watches(self.view, insn):
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
            pushed = self.push_return(insn)
            self.spo -= 2
            self.leave_if_own_code(pushed, self.static + cycles, str(insn.operand))
            self.frames.append(insn.next)
        elif insn.chain and name == "RTS" and self.frames and self.frames[-1] == insn.ret:
            self.frames.pop()                     # the JSR's push is still on top
            self.spo += 2
        elif insn.chain and name == "RTS":
            # Returning to the JSR this block went through, if the stack still says so.
            self.frames = []
            ret = (insn.ret - 1) & 0xFFFF
            self.emit("if ram[%s] != %d or ram[%s] != %d:"
                      % (self.stack(1), ret & 0xFF, self.stack(2), ret >> 8))
            self.depth += 1
            self.emit("t = ram[%s]" % self.stack(1))
            if self.spo != -2:
                self.emit("sp = %s" % self.sp_value(2))
                self.set("sp")
            spo, self.spo = self.spo, 0           # (the cell is up to date on this way out)
            self.exit_lines(self.static + cycles, "((ram[256 + sp] << 8) + t + 1) & 65535")
            self.spo = spo
            self.depth -= 1
            self.spo += 2
        elif name == "JMP":
            if insn.dynamic:
                target = self.operand_bytes(insn)
            elif mode == "abs":
                target = str(insn.operand)
            else:
                ta = insn.operand
                target = "%s | (%s << 8)" % (self.read_const(ta),
                                             self.read_const((ta & 0xFF00) | ((ta + 1) & 0xFF)))
            self.exit_lines(self.static + cycles, target)
        elif name == "JSR":
            target = str(insn.operand)
            if insn.dynamic:
                self.emit("t = %s" % self.operand_bytes(insn))    # (read before the pushes)
                target = "t"
            self.push_return(insn)
            self.spo -= 2
            self.exit_lines(self.static + cycles, target)
        elif name == "RTS":
            self.sync_sp()
            self.emit("t = ram[256 + ((sp + 1) & 255)]")
            self.assign("sp", "(sp + 2) & 255")
            self.exit_lines(self.static + cycles, "((ram[256 + sp] << 8) + t + 1) & 65535")
        elif name == "BRK":
            self.sync_sp()
            self.push_return(insn)
            self.emit("fp |= 16")
            self.emit("ram[256 + ((sp - 2) & 255)] = %s | 48" % self.p_expr())
            self.check_pushed((2,))
            self.emit("fp |= 4")
            self.set("fp")
            self.assign("sp", "(sp - 3) & 255")
            self.exit_lines(self.static + cycles,
                            "%s | (%s << 8)" % (self.read_const(0xFFFE), self.read_const(0xFFFF)))
        elif name == "RTI":
            self.sync_sp()
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
        self.emit("ram[%s] = %d" % (self.stack(), ret >> 8))
        self.emit("ram[%s] = %d" % (self.stack(-1), ret & 0xFF))
        return self.check_pushed((0, 1))

    def push(self, value, insn):
        self.emit("ram[%s] = %s" % (self.stack(), value))
        pushed = self.check_pushed((0,))
        self.spo -= 1
        self.leave_if_own_code(pushed, self.static + insn.cycles, str(insn.next))

    def check_pushed(self, offsets):
        """Once code runs from the stack page (FastCPU.low_code): the stack bytes just
        written at sp - offset checked against code_map; returns the temporaries holding
        their addresses (None otherwise)."""
        if not self.low:
            return None
        names = []
        for offset in offsets:
            name = "s%d_%d" % (self.n, offset)
            self.emit("%s = %s" % (name, self.stack(-offset)))
            self.emit("if cm[%s]:" % name)
            self.emit("    inv(%s)" % name)
            names.append(name)
        return names

    def leave_if_own_code(self, pushed, cycles, pc_expr):
        """After a push that went on (stack pointer moved): leave the block if it wrote
        over the block's own later code (possible only for code on the stack page)."""
        hits = self.later_hits(self.n, 0x100, 0x1FF) if pushed else None
        if not hits:
            return
        self.emit("if %s:" % " or ".join("%d <= %s < %d" % (lo, name, hi)
                                         for name in pushed for lo, hi in hits))
        self.depth += 1
        self.exit_lines(cycles, pc_expr)
        self.depth -= 1

    def branch(self, insn, is_last):
        if self.loop and is_last:
            self.sync_sp()                        # (every pass starts with the cell up to date)
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
            # The next pass sets the other flags before anything reads them: their cells
            # are assigned only if the block is left here.
            self.materialize(self.loop_live)
            self.emit("cyc += %d" % taken)
            self.set("cyc")
            self.emit("if cyc >= lim:")
            self.depth += 1
            self.materialize(~self.loop_live)
            self.emit("pc = %d" % target)
            self.emit("return")
            self.depth -= 1
            self.set("pc")
            self.emit("continue")
        else:
            self.exit_lines(taken, str(target))
        self.depth -= 1
        self.static += insn.cycles
        if is_last:
            self.exit_lines(self.static, str(after))
