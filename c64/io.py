"""The I/O area $D000-$DFFF: routes CPU accesses to the chips and the 4-bit colour RAM."""

from kernal.locations import COLOUR_RAM


class IO:
    """`access`: a function(write, addr) -> (bus cycle, dummy write's cycle or None) of the CPU's
    access being made (c64.cpu.CPU.access_cycle), so that the CIAs see each access in its
    own cycle; None: they take their clock's cycle."""

    def __init__(self, vic, sid, cia1, cia2, access=None):
        self.vic, self.sid, self.cia1, self.cia2 = vic, sid, cia1, cia2
        self.colour_ram = bytearray(1024)     # low nibbles only
        self.access = access
        self.last_read = 0                    # the last value read from a CIA (an RMW's old value)

    def _cia_read(self, cia, addr):
        access = self.access
        self.last_read = cia.read(addr, None if access is None else access(False, addr)[0])
        return self.last_read

    def _cia_write(self, cia, addr, value):
        access = self.access
        if access is None:
            cia.write(addr, value)
            return
        at, dummy = access(True, addr)
        if dummy is not None:
            cia.write(addr, self.last_read, dummy)  # a read-modify-write writes the old value first
        cia.write(addr, value, at)

    def read(self, addr):
        page = addr >> 8
        if page < 0xD4:
            return self.vic.read(addr)
        if page < 0xD8:
            return self.sid.read(addr)
        if page < 0xDC:
            # Colour RAM is 4 bits wide: the upper nibble is not connected and
            # reads as 1s here (programs mask it off, as on the real machine).
            return 0xF0 | self.colour_ram[addr - COLOUR_RAM]
        if page == 0xDC:
            return self._cia_read(self.cia1, addr)
        if page == 0xDD:
            return self._cia_read(self.cia2, addr)
        return 0xFF                           # $DE00-$DFFF: open I/O areas, nothing there

    def write(self, addr, value):
        page = addr >> 8
        if page < 0xD4:
            self.vic.write(addr, value)
        elif page < 0xD8:
            self.sid.write(addr, value)
        elif page < 0xDC:
            self.colour_ram[addr - COLOUR_RAM] = value & 0x0F
        elif page == 0xDC:
            self._cia_write(self.cia1, addr, value)
        elif page == 0xDD:
            self._cia_write(self.cia2, addr, value)
