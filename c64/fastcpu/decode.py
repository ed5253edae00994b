"""Decoding: which instructions make up the block that starts at an address.

The Decoder part of FastCPU follows JMP, JSR, the RTS back from such a JSR and JMP
(vector), stops at what it does not translate, and marks the forward branches a block
can keep inside itself.  (A check that ends a block at a breakpoint address belongs in
the loop of Decoder._decode, where each instruction is taken.)
"""

from c64.cpu import CPU, trap_opcode_traps
from c64.fastcpu.instructions import (BRANCHES, DYNAMIC_MODES, Insn, OPCODES, OPERAND_BYTES, RMW,
                                      SKIPPABLE, STORES, branch_target, vector_bytes)
from kernal.rom import TRAP_OPCODE
from kernal.stack import rts_target


# The longest block.  Longer blocks are fewer calls, fewer flags put in their cells where
# a block ends: on ryg23's search 96 runs 2 % fewer Python bytecodes than 48, and beyond it
# hardly any block grows.
MAX_INSNS = 96


# A forward branch over at most this many bytes of plain instructions stays inside the block.
MAX_SKIP = 16


class Decoder:
    """FastCPU's decoding of blocks."""

    def _is_trap(self, pc):
        if self.trap_handler is None or not self._c64 or not trap_opcode_traps():
            return False
        memory = self._bound
        return memory.rom_visible(pc) and memory.rom[pc] == TRAP_OPCODE and CPU.cycletime[TRAP_OPCODE] == 0

    def _decode(self, pc, limit, single, guess=False, written=False):
        """The instructions of the block at pc (empty if the first one is not translated).

        With `guess`, an RTS (or a trap's) back past the block's start is followed too, to
        where the stack says now: the caller the program is in at translation time (the
        block checks the stack there when it runs, as for any RTS it follows).  With
        `written` (code the program has just written: _entered_by_rewritten_jsr), the
        operands of its immediate instructions are volatile from the start."""
        view = self._view()
        sources = view.sources
        source = sources[pc >> 8]
        if source is None or (self._c64 and pc < 2):
            return []
        cycletime = type(self).cycletime
        extracycles = type(self).extracycles
        insns = []
        seen = set()
        stored = set()             # the constant addresses the block's stores write so far
        calls = []
        addr = pc
        guess = guess and not single
        stack, sp = self._ram, self._cell_sp.cell_contents
        offset = 0                 # the stack pointer then, relative to sp (pushes count down)
        breakpoints = self._breakpoints
        volatile = self._volatile if not single else ()
        while len(insns) < limit:
            if addr in breakpoints and insns:
                break                              # the block ends before a breakpoint
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
            if length == 2:
                operand = source[addr + 1]
            elif length == 3:
                operand = source[addr + 1] | (source[addr + 2] << 8)
            else:
                operand = None
            insn = Insn(addr, op, name, mode, operand, length, cycletime[op], extracycles[op])
            if volatile and view.read_kind[addr >> 8] == "ram":
                # Bytes the program keeps rewriting: an opcode is run on its own (the block
                # ends before it), an operand is read when the block runs where it can be.
                if addr in volatile and insns:
                    break
                if not volatile.isdisjoint(range(addr + 1, addr + length)):
                    if mode not in DYNAMIC_MODES or name in BRANCHES:
                        break
                    insn.fixed = 1
            if written and mode == "imm" and view.read_kind[addr >> 8] == "ram":
                insn.fixed = 1
                self._make_volatile(addr + 1)
            if (stored and length > 1 and mode in DYNAMIC_MODES and name not in BRANCHES
                    and not stored.isdisjoint(range(addr + 1, addr + length))
                    and view.read_kind[addr >> 8] == "ram"):
                # The block itself stores into this operand first (a test program setting
                # up the instruction it runs next): volatile, read from RAM when the block
                # gets there, rather than ending the block at the store (see below).
                insn.fixed = 1
                for byte in stored.intersection(range(addr + 1, addr + length)):
                    self._make_volatile(byte)
            insns.append(insn)
            seen.add(addr)
            if not single:
                # Follow JMP, JSR, the RTS back from such a JSR, and JMP (vector) to where
                # the vector points now (both checked when the block runs).
                target = None
                if name in ("JMP", "JSR") and mode == "abs" and not insn.dynamic:
                    target = operand
                elif name == "RTS" and calls:
                    target = insn.ret = calls.pop()
                    offset += 2
                elif name == "RTS" and guess and offset >= 0:
                    target = self._return_address(stack, sp + offset)
                    if volatile and self._called_by_rewritten_jsr(sources, target, volatile):
                        break            # (the caller's own block goes on after its JSR)
                    insn.ret = target
                    offset += 2
                elif name == "JMP" and mode == "ind":
                    hi_addr = (operand & 0xFF00) | ((operand + 1) & 0xFF)
                    lo_src, hi_src = sources[operand >> 8], sources[hi_addr >> 8]
                    if lo_src is not None and hi_src is not None and operand > 1 and hi_addr > 1:
                        target = insn.ret = lo_src[operand] | (hi_src[hi_addr] << 8)
                if (target is not None and name != "RTS" and self.inline_traps
                        and self._is_trap(target) and target not in breakpoints):
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
                        if ret < 2 or sources[ret >> 8] is None:
                            break
                    else:
                        break
                    trap.chain = True
                    trap.ret = ret
                    addr = ret
                    continue
                # (A subroutine already in the block is followed again: the block grows by
                # its instructions, up to MAX_INSNS, but cannot loop - its RTS comes back.)
                if (target is not None and target >= 2
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
                    if not insn.dynamic:
                        stored.add(operand)
            if name in BRANCHES and not single:
                target = branch_target(insn)
                if target == pc:
                    break                          # a loop back to the start: the block is the loop body
                if self._skippable(sources, insn.next, target) and not breakpoints.intersection(
                        range(insn.next, target + 1)):
                    insn.skip = target
            addr = insn.next
            if addr == 0:
                break
        # A store to a constant address inside the block's later bytes: end right after it
        # (the first such store; `later` holds the bytes after instruction i).
        stores = {i for i, insn in enumerate(insns)
                  if (insn.name in STORES or insn.name in RMW) and insn.mode in ("zpg", "abs")
                  and not insn.dynamic}
        if stores:
            later, cut = set(), None
            for i in range(len(insns) - 1, min(stores) - 1, -1):
                insn = insns[i]
                if insn.operand in later and i in stores:
                    cut = i
                later.update(range(insn.addr, insn.addr + insn.fixed))
                later.update(vector_bytes(insn))
            if cut is not None:
                del insns[cut + 1:]
        if insns and insns[-1].chain and insns[-1].name != "TRAP":
            insns[-1].chain = False                # the last instruction leaves the block itself
            insns[-1].ret = None
        return insns

    def _entered_by_rewritten_jsr(self, pc):
        """True if the program got to pc through a JSR whose operand is volatile, just now
        (the return address on the stack is that JSR's, and it points at pc): a test
        program calling the code it has just written."""
        volatile = self._volatile
        if not volatile:
            return False
        ret = self._return_address(self._ram, self._cell_sp.cell_contents)
        sources = self._view().sources
        if not self._called_by_rewritten_jsr(sources, ret, volatile):
            return False
        low, high = sources[((ret - 2) & 0xFFFF) >> 8], sources[((ret - 1) & 0xFFFF) >> 8]
        return (low is not None and high is not None
                and low[(ret - 2) & 0xFFFF] | (high[(ret - 1) & 0xFFFF] << 8) == pc)

    @staticmethod
    def _called_by_rewritten_jsr(sources, ret, volatile):
        """True if the JSR before the return address `ret` has a volatile operand: it calls
        a new subroutine every time (a test program calling the code it just wrote), and each
        of their blocks would hold its own copy of the caller's code after the JSR, to be
        translated again for every one of them."""
        if (ret - 2) & 0xFFFF not in volatile and (ret - 1) & 0xFFFF not in volatile:
            return False
        jsr = (ret - 3) & 0xFFFF
        source = sources[jsr >> 8]
        return source is not None and source[jsr] == 0x20

    @staticmethod
    def _return_address(stack, sp):
        """Where an RTS with the stack pointer at sp goes, by the stack page now."""
        return rts_target(stack, sp)

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
            if addr > 0x10000 or sources[(addr - 1) >> 8] is not source:
                return False               # (an instruction at $FFFE/$FFFF wraps: not skipped)
        return addr == target
