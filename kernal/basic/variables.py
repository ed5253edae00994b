"""Variables, arrays and strings where a C64 keeps them (VARTAB $2D .. MEMSIZ $37).

Part of the Interpreter (kernal/basic/interpreter.py): PTRGET's search and creation,
arrays (DIM, BAD SUBSCRIPT), string space growing down from MEMSIZ and its garbage
collection, CLR and RESTORE.
"""

from kernal.basic import cycles, mbf
from kernal.basic.definitions import BasicError, MEMSIZ, is_digit, is_letter, literal
from kernal.basic.mbf import MathError
from kernal.locations import ARYTAB, DATLIN, DATPTR, FRESPC, FRETOP, STREND, TXTTAB, VARPNT, VARTAB


class Variables:
    """Simple variables, arrays and strings in C64 memory (PTRGET, ISARY, GETSPA, GARBAG)."""

    # -- clearing ------------------------------------------------------------------------
    def clear_variables(self):
        """CLR: no variables, arrays or strings; DATA from the start; the stack emptied
        (STKINI: no CONT after it)."""
        end = self.w(VARTAB)
        self.set_w(ARYTAB, end)
        self.set_w(STREND, end)
        top = self.w(MEMSIZ)
        self.set_w(FRETOP, top)
        self.var_cache.clear()
        self.var_cache_vartab = None
        self.restore_data()
        self.stack.clear()
        self.stack_used = 0
        self.constants.clear()
        self.cont_ok = False

    def restore_data(self):
        self.set_w(DATPTR, self.w(TXTTAB) - 1)
        self.set_w(DATLIN, 0)

    # -- variables ------------------------------------------------------------------------------
    def name(self):
        """PTRGET's name ($B08B): (n1, n2, kind) with kind 'f', 'i' or 's'; the text after it.

        PTRGET reads the name with CHRGET, which skips spaces: `A B` is AB, `A B%` is AB%,
        `A 1` is A1, `A $` is A$."""
        c = self.peek()
        if not is_letter(c):
            raise BasicError("SYNTAX")
        ram = self.ram
        p = self.pos + 1
        try:
            while ram[p] == 0x20:
                p += 1
            n1, n2 = c, 0
            if is_letter(ram[p]) or is_digit(ram[p]):
                n2 = ram[p]
                # ISSEC / EATEM: a second letter 27 cycles more than a one-letter name (its
                # ISLETC, TAX, the loop's tests), a digit 4; each further letter 27, digit 3
                spent = cycles.NAME_LETTER if is_letter(n2) else cycles.NAME_DIGIT_SECOND
                p += 1
                while True:
                    while ram[p] == 0x20:
                        p += 1
                    if not (is_letter(ram[p]) or is_digit(ram[p])):
                        break
                    spent += cycles.NAME_LETTER if is_letter(ram[p]) else cycles.NAME_DIGIT
                    p += 1
                self.cost += spent
        except IndexError:                              # the name runs past $FFFF
            return self.name_wrapped()
        kind = "f"
        if ram[p] == 0x24:
            kind = "s"
            n2 |= 0x80
            p += 1
        elif ram[p] == 0x25:
            kind = "i"
            n1 |= 0x80
            n2 |= 0x80
            p += 1
        self.pos = p
        c = self.peek()                 # ISLETC on the byte after the name ($ and % below 'A')
        self.cost += (cycles.PTRGET + cycles.PTRGET_NEXT[0] + cycles.PTRGET_STRING if kind != "f"
                      else cycles.PTRGET + cycles.PTRGET_NEXT[c >= 0x41])
        if c == 0 or c == 0x3A:
            self.cost += cycles.CHRGET_HIGH if c else cycles.CHRGET_LOW       # its CHRGET on the end
        return n1, n2, kind

    def name_wrapped(self):
        """name() for a name that runs past $FFFF: CHRGET goes on at $0000."""
        c = self.peek()
        self.pos += 1
        n1, n2 = c, 0
        c = self.peek()
        if is_letter(c) or is_digit(c):
            n2 = c
            self.pos += 1
            while True:
                c = self.peek()
                if not (is_letter(c) or is_digit(c)):
                    break
                self.pos += 1
        kind = "f"
        if c == 0x24:
            kind = "s"
            n2 |= 0x80
            self.pos += 1
        elif c == 0x25:
            kind = "i"
            n1 |= 0x80
            n2 |= 0x80
            self.pos += 1
        c = self.peek()                 # ISLETC on the byte after the name ($ and % below 'A')
        self.cost += (cycles.PTRGET + cycles.PTRGET_NEXT[0] + cycles.PTRGET_STRING if kind != "f"
                      else cycles.PTRGET + cycles.PTRGET_NEXT[c >= 0x41])
        if c == 0 or c == 0x3A:
            self.cost += cycles.CHRGET_HIGH if c else cycles.CHRGET_LOW       # its CHRGET on the end
        return n1, n2, kind

    def var_address(self, n1, n2, create=True):
        """The address of a simple variable's value (after its two name bytes)."""
        vartab, end = self.w(VARTAB), self.w(ARYTAB)
        if self.var_cache_vartab != (vartab, end):
            self.var_cache.clear()
            self.var_cache_vartab = (vartab, end)
        key = (n1, n2)
        cached = self.var_cache.get(key)
        ram = self.ram
        if cached is not None:
            self.cost += cached[1]                  # PTRGET's search, as when it was made
            addr = cached[0]
            ram[VARPNT], ram[VARPNT + 1] = addr & 0xFF, addr >> 8               # (VARPNT)
            return addr
        # LOPFND ($B0C2) passes each variable before the one named
        p, spent, page = vartab, 0, end >> 8
        while p < end:
            if ram[p] == n1:
                if ram[(p + 1) & 0xFFFF] == n2:
                    self.var_cache[key] = (p + 2, spent)
                    self.cost += spent
                    self.set_w(VARPNT, p + 2)
                    return p + 2
                spent += cycles.VAR_NAME_MATCH
            spent += cycles.VAR_PASSED if p >> 8 == page else cycles.VAR_PASSED_OTHER_PAGE
            if (p & 0xFF) + 7 > 0xFF:
                spent += cycles.VAR_PAGE
            p += 7
        self.cost += spent
        if not create:
            return None
        strend = self.w(STREND)
        if strend + 7 >= self.w(FRETOP):
            self.garbage_collect()
            if strend + 7 >= self.w(FRETOP):
                raise BasicError("OUT OF MEMORY")
        self.put(end + 7, bytes(ram[end:strend]))       # the arrays move up (STREND + 7 < FRETOP)
        # (STREND POKEd below ARYTAB: nothing to move, and no negative time)
        self.cost += cycles.VAR_CREATE + self.bltu_cycles(end, strend - end)
        self.put(end, bytes((n1, n2, 0, 0, 0, 0, 0)))
        self.set_w(ARYTAB, end + 7)
        self.set_w(STREND, strend + 7)
        self.var_cache.clear()
        self.var_cache_vartab = (vartab, end + 7)
        self.var_cache[key] = (end + 2, spent)
        self.set_w(VARPNT, end + 2)
        return end + 2

    @staticmethod
    def bltu_cycles(start, length):
        """BLTU ($A3B8) moving `length` bytes from `start` up: 16 cycles a byte (LDA (HIGHTR),Y,
        STA (HIGHDS),Y, DEY, BNE), one more where LDA's address crosses a page: HIGHTR's low
        byte is start's on every page, Y runs from the page's bytes down."""
        if length <= 0:
            return 0
        low = start & 0xFF
        pages, first = divmod(length, 256)
        crossings = max(0, low + first - 256) + pages * low
        return cycles.MOVE_BYTE * length + crossings

    def read_var(self, kind, addr):
        ram = self.ram
        if addr > 0xFFFA:                               # a value across $FFFF
            if kind == "f":
                return mbf.movfm(self.read(addr, 5))
            if kind == "i":
                high, low = self.read(addr, 2)
                n = (high << 8) | low
                return mbf.from_int(n - 0x10000 if n & 0x8000 else n)
            length = ram[addr & 0xFFFF]
            start = self.w(addr + 1)
            return literal(bytes(self.read(start, length)), start)
        if kind == "f":
            return mbf.movfm(ram[addr:addr + 5])
        if kind == "i":
            n = (ram[addr] << 8) | ram[addr + 1]
            return mbf.from_int(n - 0x10000 if n & 0x8000 else n)
        length = ram[addr]
        start = ram[addr + 1] | (ram[addr + 2] << 8)
        return literal(bytes(self.read(start, length)), start)

    def store(self, kind, addr, value):
        temp = getattr(value, "temp", False)
        self.free_temp(value)
        if kind == "s":
            if not isinstance(value, bytes):
                raise BasicError("TYPE MISMATCH")
            if len(value) > 255:
                raise BasicError("STRING TOO LONG")
            start = getattr(value, "addr", None)
            self.cost += cycles.STORE_STRING + cycles.FRETMS[temp]
            if start is None or not value:
                # (a string an expression made: the ROM made it in string space already,
                # GETSPA and MOVINS charged with it)
                start = self.alloc_string(value)
            self.put(addr, bytes((len(value), start & 0xFF, start >> 8)))
            return
        if isinstance(value, bytes):
            raise BasicError("TYPE MISMATCH")
        if kind == "f":
            self.cost += cycles.STORE_FLOAT
            try:
                self.put(addr, mbf.movmf(value))
            except MathError as error:
                raise BasicError(str(error)) from None
        else:
            self.cost += cycles.STORE_INT
            n = self.int16(value)
            self.put(addr, bytes(((n >> 8) & 0xFF, n & 0xFF)))

    def int16(self, value):
        try:
            return mbf.to_int16(value)
        except MathError as error:
            raise BasicError(str(error)) from None

    # -- arrays -----------------------------------------------------------------------------------
    def find_array(self, n1, n2):
        ram = self.ram
        p, end = self.w(ARYTAB), self.w(STREND)
        self.cost += cycles.ARRAY
        while p < end:
            size = ram[(p + 2) & 0xFFFF] | (ram[(p + 3) & 0xFFFF] << 8)
            if ram[p] == n1 and ram[(p + 1) & 0xFFFF] == n2:
                return p
            self.cost += cycles.ARRAY_PASSED          # LOPFDA ($B1F4)
            if size == 0:
                break
            p += size
        return None

    def make_array(self, n1, n2, kind, sizes):
        """A new array at STREND; sizes are the number of elements per dimension."""
        element = {"f": 5, "i": 2, "s": 3}[kind]
        count = 1
        for s in sizes:
            count *= s
        size = 5 + 2 * len(sizes) + element * count
        start = self.w(STREND)
        if size > 0xFFFF or start + size >= self.w(FRETOP):
            self.garbage_collect()
            if size > 0xFFFF or start + size >= self.w(FRETOP):
                raise BasicError("OUT OF MEMORY")
        header = bytearray((n1, n2, size & 0xFF, size >> 8, len(sizes)))
        for s in reversed(sizes):
            header += bytes((s >> 8, s & 0xFF))
        self.put(start, bytes(header) + bytes(size - len(header)))
        self.cost += cycles.ARRAY_CREATE + cycles.ARRAY_CLEAR_BYTE * size + cycles.ARRAY_CLEAR_PAGE * (size >> 8)
        self.set_w(STREND, start + size)
        return start

    def array_element(self, n1, n2, kind, indices):
        addr = self.find_array(n1, n2)
        if addr is None:
            addr = self.make_array(n1, n2, kind, [11] * len(indices))
        header = self.read(addr, 5 + 2 * len(indices))
        dims = header[4]
        if dims != len(indices):
            raise BasicError("BAD SUBSCRIPT")
        sizes = [(header[5 + 2 * i] << 8) | header[6 + 2 * i] for i in range(dims)]
        sizes.reverse()
        offset, scale = 0, 1
        for index, size in zip(indices, sizes):
            if index >= size:
                raise BasicError("BAD SUBSCRIPT")
            offset += index * scale
            scale *= size
        element = {"f": 5, "i": 2, "s": 3}[kind]
        self.cost += cycles.ARRAY_DIMENSION * dims
        addr = (addr + 5 + 2 * dims + offset * element) & 0xFFFF
        self.set_w(VARPNT, addr)
        return addr

    def subscripts(self, below):
        """The indices in parentheses (the '(' already taken), read `below` bytes down the
        stack, each one pushed (2 bytes) before the next is read (ISARY)."""
        indices = []
        sp = self.sp
        self.sp -= below
        while True:
            n = self.int16(self.numeric(self.expr()))
            self.sp -= 2
            if n < 0:
                raise BasicError("ILLEGAL QUANTITY")
            indices.append(n)
            c = self.take()
            if c == 0x29:
                self.sp = sp
                return indices
            if c != 0x2C:
                raise BasicError("SYNTAX")

    # -- strings ------------------------------------------------------------------------------------
    def alloc_string(self, data):
        n = len(data)
        if n == 0:
            return 0
        top = self.w(FRETOP)
        if top - n < self.w(STREND):
            self.garbage_collect()
            top = self.w(FRETOP)
            if top - n < self.w(STREND):
                raise BasicError("OUT OF MEMORY")
        top -= n
        self.put(top, bytes(data))
        self.set_w(FRETOP, top)
        self.set_w(FRESPC, top)
        return top

    def _descriptors(self):
        """Addresses of every string descriptor in the variables and arrays."""
        ram = self.ram
        p, end = self.w(VARTAB), self.w(ARYTAB)
        while p < end:
            if not ram[p] & 0x80 and ram[(p + 1) & 0xFFFF] & 0x80:
                yield (p + 2) & 0xFFFF
            p += 7
        p, end = self.w(ARYTAB), self.w(STREND)
        while p < end:
            size = ram[(p + 2) & 0xFFFF] | (ram[(p + 3) & 0xFFFF] << 8)
            if size == 0:
                break
            if not ram[p] & 0x80 and ram[(p + 1) & 0xFFFF] & 0x80:
                dims = ram[(p + 4) & 0xFFFF]
                q = p + 5 + 2 * dims
                while q < p + size:
                    yield q & 0xFFFF
                    q += 3
            p += size

    def garbage_collect(self):
        """GARBAG: the strings in use packed against MEMSIZ; FRETOP raised."""
        ram = self.ram
        low, top = self.w(STREND), self.w(MEMSIZ)
        live = {}
        descriptors = 0
        for d in self._descriptors():
            descriptors += 1
            length, start = ram[d], self.w(d + 1)
            if length and low <= start < top:
                live.setdefault((start, length), []).append(d)
        # The ROM looks through every descriptor once for each string it moves (the highest
        # one left first): its time grows with the square of the strings kept.  Each pass also
        # steps over the other simple variables (DVARS) and the arrays' headers (ARYVA2).
        others = (self.w(ARYTAB) - self.w(VARTAB)) // 7
        arrays = 0
        p, end = self.w(ARYTAB), self.w(STREND)
        while p < end:
            size = ram[(p + 2) & 0xFFFF] | (ram[(p + 3) & 0xFFFF] << 8)
            if size == 0:
                break
            arrays += 1
            p += size
        string_vars = sum(1 for q in range(self.w(VARTAB), self.w(ARYTAB), 7)
                          if not ram[q] & 0x80 and ram[(q + 1) & 0xFFFF] & 0x80)
        per_pass = (cycles.GARBAG_PASS + cycles.GARBAG_LOOK * (descriptors + 3)
                    + cycles.GARBAG_VAR * (others - string_vars) + cycles.GARBAG_ARRAY * arrays)
        self.cost += per_pass * (len(live) + 1)
        self.cost += cycles.STRING_BYTE * sum(length for _, length in live)
        new_top = top
        for (start, length) in sorted(live, reverse=True):
            data = bytes(self.read(start, length))
            new_top -= length
            self.put(new_top, data)
            for d in live[(start, length)]:
                self.set_w(d + 1, new_top)
        self.set_w(FRETOP, new_top)
