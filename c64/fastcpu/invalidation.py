"""Invalidation of translated code: which RAM bytes each block came from, dropping a
block when they are written (through the memory, or behind the CPU's back), and the
vectors a JMP (vector) block watches.
"""

from c64.fastcpu.instructions import DYNAMIC_MODES, OPCODES, OPERAND_BYTES, RMW, STORES, vector_bytes


_MASK_BYTES = bytes([0] + [0xFF] * 255)     # code_map byte -> mask byte


# A byte of translated code that the program's own stores rewrite this many times is
# volatile from then on: an operand there is read when the block runs, an opcode there
# runs on its own (FastCPU._rewritten_at), so rewriting it invalidates nothing.  Once: a
# block made again for each of a few runs costs more than it saves (bench_kinds' "new
# code spread": 256 routines each rewritten and called once a pass, 0.8x py65 at 2).
VOLATILE_AFTER = 1


# The RAM bytes kept at a block's first visit (interpreted: FastCPU._interpret), compared
# with RAM when the block is made at its next one (_changed_since_first_visit).
FIRST_VISIT_BYTES = 16


class Invalidation:
    """FastCPU's watch on the RAM its blocks came from."""

    def watches(self, view, insn):
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
        spans = [(insn.addr, insn.addr + insn.fixed) for insn in insns
                 if kinds[insn.addr >> 8] == "ram"]
        vectors = {}
        for insn in insns:
            if insn.mode == "ind" and insn.chain and self.watches(view, insn):
                for addr in vector_bytes(insn):
                    vectors[addr] = insn.operand
                    spans.append((addr, addr + 1))
        if not spans:
            return                                 # ROM does not change
        if vectors:
            self._vectors[key] = vectors
        ram = self._ram
        spans.sort()
        ranges = [spans[0]]
        for lo, hi in spans:
            last_lo, last_hi = ranges[-1]
            if lo <= last_hi:
                if hi > last_hi:
                    ranges[-1] = (last_lo, hi)
            else:
                ranges.append((lo, hi))
        self._blocks[key] = [(lo, hi, ram[lo:hi]) for lo, hi in ranges]
        covers, cm = self._covers, self._cm
        page_blocks, dirty = self._page_blocks, self._dirty_pages
        for lo, hi in ranges:
            for addr in range(lo, hi):
                holders = covers.get(addr)
                if holders is None:
                    covers[addr] = {key}
                    cm[addr] = 1
                else:
                    holders.add(key)
            for page in range(lo >> 8, ((hi - 1) >> 8) + 1):
                keys = page_blocks.get(page)
                if keys is None:
                    page_blocks[page] = {key}
                else:
                    keys.add(key)
                dirty.add(page)

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

    def _code_rewritten(self, addr):
        """A store made by translated code hit a byte of translated code (the blocks'
        `inv`): the blocks it drops keep their bytes as they were, so that the bytes the
        program changed are counted when the block is made again (_count_rewrites).  A
        store of the byte every block there was made from changes nothing: no block is
        dropped (a program that writes the same opcode back before each run of it)."""
        value = self._ram[addr]
        if all(self._made_from(key, addr) == value for key in self._covers.get(addr, ())):
            return
        for key in self._covers.get(addr, ()):
            if addr not in self._vectors.get(key, ()):
                self._before[key] = self._blocks[key]
        self._code_written(addr)

    def _made_from(self, key, addr):
        """The byte at addr when the block `key` was made (it covers addr)."""
        for lo, hi, code in self._blocks[key]:
            if lo <= addr < hi:
                return code[addr - lo]
        return None

    def _count_rewrites(self, key):
        """Before a block dropped by the program's own store is made again: each of its
        bytes that changed since counts towards VOLATILE_AFTER."""
        before = self._before.pop(key, None)
        if before is None:
            return
        ram, counts = self._ram, self._rewritten_bytes
        for lo, hi, code in before:
            now = ram[lo:hi]
            if now == code:
                continue
            for offset in range(hi - lo):
                if now[offset] != code[offset]:
                    addr = lo + offset
                    counts[addr] = count = counts.get(addr, 0) + 1
                    if count >= VOLATILE_AFTER:
                        self._make_volatile(addr)

    def _make_volatile(self, addr):
        """The byte at addr is volatile from now on.  A block that ended right after a
        store to it (then a byte of the block's own later code: Decoder._decode) is made
        again at its next visit, without that end: a test program's block that writes the
        instruction it runs next, made before that instruction was seen to change."""
        self._volatile.add(addr)
        for key in self._ended_at_store.pop(addr, ()):
            if key in self._blocks:
                self._drop(key)

    def _note_end(self, key, insns):
        """Remember a block that ends with a store to a constant address (_make_volatile)."""
        last = insns[-1]
        if (last.name in STORES or last.name in RMW) and last.mode in ("zpg", "abs") and not last.dynamic:
            self._ended_at_store.setdefault(last.operand, set()).add(key)

    def _first_visit(self, key):
        """The block at key's address runs for the first time (it is interpreted): keep the
        RAM bytes there for _changed_since_first_visit."""
        pc = key[1]
        if self._view().read_kind[pc >> 8] == "ram":
            self._first_code[key] = self._ram[pc:min(pc + FIRST_VISIT_BYTES, (pc | 0xFF) + 1)]

    def _changed_since_first_visit(self, key):
        """Before the block at key's address is made (at its second visit): an operand the
        program rewrote since the first visit, under the same opcode, in a mode a block
        reads from RAM when it runs (DYNAMIC_MODES), counts as a rewrite (VOLATILE_AFTER),
        as if a block made at the first visit had been dropped for it.  A test program
        writing new code at one address after another, with a new operand every pass, then
        gets one translation of each routine, not a first one that its next store drops.
        The instructions are taken in address order from there, up to the first changed
        opcode or jump."""
        first = self._first_code.pop(key, None)
        if first is None:
            return
        pc = key[1]
        end = pc + len(first)
        now = self._ram[pc:end]
        if now == first:
            return
        counts = self._rewritten_bytes
        addr = pc
        while addr < end:
            op = now[addr - pc]
            entry = OPCODES.get(op)
            if entry is None or first[addr - pc] != op:
                return                     # (a new instruction: what follows is not known)
            name, mode = entry
            length = 1 + OPERAND_BYTES[mode]
            if mode in DYNAMIC_MODES:
                for byte in range(addr + 1, min(addr + length, end)):
                    if first[byte - pc] != now[byte - pc]:
                        counts[byte] = count = counts.get(byte, 0) + 1
                        if count >= VOLATILE_AFTER:
                            self._make_volatile(byte)
            if name in ("JMP", "JSR", "RTS", "RTI", "BRK"):
                return
            addr += length

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

    def code_loaded(self, start, end):
        """A program was loaded at start..end-1 (the KERNAL's LOAD): new code, so what was
        learnt of the code there before is forgotten -- the bytes a program kept rewriting
        (volatile), the blocks dropped so often that they were no longer translated.  Else
        a machine that LOADs program after program at the same addresses (the Emulator
        Test Suite, each test LOADing the next) ends up stepping every instruction of the
        later ones.  The visits counted before a block is made (_seen, _first_code) are
        kept: forgetting them too made the suite's icr01 and imr, chained after cpuport,
        print what py65 does not (not understood yet)."""
        if end <= start:
            return
        volatile, counts = self._volatile, self._rewritten_bytes
        for addr in range(start, end):
            volatile.discard(addr)
            counts.pop(addr, None)
        rewrites = self._rewrites
        for key in [key for key in rewrites if start <= key[1] < end]:
            del rewrites[key]
        miss, interpret = self._miss, self._interpret
        for table in self._tables.values():
            for pc in range(start, end):
                entry = table[pc]
                if entry is interpret or getattr(entry, "__name__", "") == "rewritten":
                    table[pc] = miss

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
