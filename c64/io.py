"""The I/O area $D000-$DFFF: routes CPU accesses to the chips and the 4-bit colour RAM."""

from kernal.locations import COLOUR_RAM


class IO:
    def __init__(self, vic, sid, cia1, cia2):
        self.vic, self.sid, self.cia1, self.cia2 = vic, sid, cia1, cia2
        self.colour_ram = bytearray(1024)     # low nibbles only

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
            return self.cia1.read(addr)
        if page == 0xDD:
            return self.cia2.read(addr)
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
            self.cia1.write(addr, value)
        elif page == 0xDD:
            self.cia2.write(addr, value)
