"""The C64 memory map: 64 KB of RAM, the processor port $00/$01, ROM overlays and I/O.

Reads see whatever the processor port banks in (BASIC ROM $A000-$BFFF,
I/O or character ROM $D000-$DFFF, KERNAL ROM $E000-$FFFF); writes always
reach the RAM underneath a ROM, and reach the chips when I/O is banked in.
The ROM contents are our own stub image (kernal.rom.build_rom): no
Commodore ROM is used.

The public interface (what a CPU, the KERNAL and a test may use):

    mem[addr], mem[addr] = value, len(mem), read_word(addr)
                        every access as the CPU makes it (banking, I/O, the port)
    ram, rom, io        the 64 KB of RAM, the 64 KB ROM image, the chips ($D000-$DFFF)
    ddr, port, rebank() the processor port $00/$01; after setting them, rebank()
    port_value(), clock, port_fade_at, fade_port(now)
                        what $01 reads; the fading of its floating bits (PORT_FLOATING)
    config(), visible(), rom_visible(addr)
                        the banking now
    bank_listeners      functions called (no argument) after every bank change
    code_map, code_listeners, code_written(addr)
                        translated-code watch: a CPU that translates code marks the
                        RAM bytes it read in code_map and registers a listener; a
                        store to a marked byte calls code_written(addr), which calls
                        every listener with addr (a store into ram directly must call
                        it too when code_map[addr] is set)
    page_sources, page_writes_io
                        per 256-byte page: where reads come from (ram, rom, or None
                        for I/O) and whether writes reach the chips; read-only for
                        callers, for CPUs and KERNAL paths that index RAM directly

The bank table is kept as one entry per 256-byte page so that a read is a
list look-up plus an index, which is what py65 does millions of times a
second.
"""

# $01 & 7 -> (BASIC ROM visible, I/O visible, char ROM visible, KERNAL visible).
# The PLA's banking as documented for the 6510 port's LORAM/HIRAM/CHAREN bits (docs/c64.md).
BANK_TABLE = {
    7: (True, True, False, True),
    6: (False, True, False, True),
    5: (False, True, False, False),
    4: (False, False, False, False),
    3: (True, False, True, True),
    2: (False, False, True, True),
    1: (False, False, True, False),
    0: (False, False, False, False),
}

# The processor port's pins when the data direction register ($00) makes them inputs.
# On a C64 bits 0-2 (LORAM, HIRAM, CHAREN) and bit 4 (cassette sense: 1, no datasette
# key down) have pull-up resistors, bit 5 (cassette motor) a pull-down transistor, and
# bits 3 (cassette write), 6 and 7 are not pulled either way: they read the level they
# were last driven to until its charge leaks away, after about 350 ms (real chips
# vary, 65 ms to a second, with temperature).  $01 reads $37 after IOINIT.
PORT_PULLED_UP = 0x17
PORT_FLOATING = 0xC8
PORT_FALL_OFF_CYCLES = 350_000


class C64Memory:
    """CPU-visible memory of a C64.

    `ram` is the raw 64 KB; `rom` a 64 KB image holding the BASIC, character
    and KERNAL ROM areas at their addresses; `io` the chip dispatcher (an
    object with `read(addr)` and `write(addr, value)` for $D000-$DFFF).
    """

    def __init__(self, rom, io=None):
        # A list of ints, not a bytearray: CPython 3.11 indexes and stores into a list in
        # its specialised fast path, about twice as fast -- what the translated blocks do
        # most (ryg23's search 6 % faster).  Every store must be a byte (0-255): the
        # list, unlike a bytearray, would not refuse another value.
        self.ram = [0] * 0x10000
        self.rom = rom
        self.io = io
        self.ddr = 0x2F           # $00 after IOINIT
        self.port = 0x37          # $01 output latch after IOINIT
        # The floating bits (PORT_FLOATING): the level each was last driven to, and for
        # each one that is 1 and no longer driven, the cycle its charge is gone.
        # `clock` (a function giving the CPU's cycle count) times that; without one, or
        # until fade_port() is called at or after port_fade_at, the level stays.
        self.clock = None
        self.port_held = 0
        self.port_fade_at = float("inf")
        self._fading = {}
        self._driven = self.ddr
        self.bank_listeners = []  # called with no argument after a bank change
        # Translated-code watch (c64.fastcpu): a non-zero entry here marks RAM that a
        # translated block was made from; writing it calls code_written(addr).
        # A list, not a bytearray: list indexing is the faster one in CPython.
        self.code_map = [0] * 0x10000
        self.code_listeners = []  # called with the address when a store hits translated code
        self.page_sources = [self.ram] * 256   # per page: a 64 KB buffer, or None for I/O
        self.page_writes_io = [False] * 256    # per page: True if writes go to the chips
        self.rebank()

    # -- processor port ----------------------------------------------------
    def port_value(self):
        """What the CPU reads at $01: the latch where DDR is 1; where it is 0, 1 for the
        pulled-up bits, 0 for bit 5, the held level for the floating bits 3, 6, 7."""
        inputs = ~self.ddr & 0xFF
        return (self.port & self.ddr) | (inputs & (PORT_PULLED_UP | self.port_held))

    def _port_changed(self):
        """After a write of $00 or $01: the floating bits driven now take the latch's level;
        the ones just released keep theirs and start fading."""
        driven = self.ddr & PORT_FLOATING
        released = self._driven & ~self.ddr & PORT_FLOATING
        self._driven = self.ddr
        self.port_held = (self.port_held & ~driven) | (self.port & driven)
        fading = self._fading
        for bit in (0x08, 0x40, 0x80):
            if driven & bit:
                fading.pop(bit, None)
            elif released & bit and self.port_held & bit and self.clock is not None:
                fading[bit] = self.clock() + PORT_FALL_OFF_CYCLES
        self.port_fade_at = min(fading.values(), default=float("inf"))

    def fade_port(self, now):
        """The floating bits whose charge is gone by cycle `now` read 0 from now on (the
        machine calls this once its clock passes port_fade_at)."""
        fading = self._fading
        for bit, due in list(fading.items()):
            if due <= now:
                del fading[bit]
                self.port_held &= ~bit
        self.port_fade_at = min(fading.values(), default=float("inf"))
        self.ram[1] = self.port_value()

    def config(self):
        """The three bank bits (LORAM, HIRAM, CHAREN) as the PLA sees them."""
        # An input bit floats high, so a bit with DDR=0 counts as 1.
        return (self.port | (~self.ddr & 0xFF)) & 7

    def visible(self):
        """(basic, io, charrom, kernal) visibility for the current configuration."""
        return BANK_TABLE[self.config()]

    def rebank(self):
        basic, io, char, kernal = self.visible()
        ram, rom = self.ram, self.rom
        src = self.page_sources
        wio = self.page_writes_io
        for page in range(0xA0, 0xC0):
            src[page] = rom if basic else ram
        for page in range(0xD0, 0xE0):
            src[page] = None if io else (rom if char else ram)
            wio[page] = io
        for page in range(0xE0, 0x100):
            src[page] = rom if kernal else ram
        self._port_changed()
        # RAM at $00/$01 mirrors what the CPU reads there, so translated code can read
        # zero page straight from `ram` (a real C64 leaves bus garbage in these two bytes).
        ram[0] = self.ddr
        ram[1] = self.port_value()
        for listener in self.bank_listeners:
            listener()

    def rom_visible(self, addr):
        """True if a read of addr currently sees ROM (not RAM or I/O)."""
        return self.page_sources[addr >> 8] is self.rom

    # -- access --------------------------------------------------------------
    def __getitem__(self, addr):
        src = self.page_sources[addr >> 8]
        if src is not None:
            return src[addr]          # RAM $00/$01 hold the port's DDR and value (see rebank)
        return self.io.read(addr)

    def __setitem__(self, addr, value):
        if self.page_writes_io[addr >> 8]:
            self.io.write(addr, value)
            return
        self.ram[addr] = value
        if self.code_map[addr]:
            self.code_written(addr)
        if addr < 2:
            if addr == 1:
                self.port = value
            else:
                self.ddr = value
            self.rebank()

    def code_written(self, addr):
        """A store hit RAM marked in code_map: tell the code listeners (the translating CPU)."""
        for listener in self.code_listeners:
            listener(addr)

    def __len__(self):
        return 0x10000

    def read_word(self, addr):
        return self[addr] | (self[(addr + 1) & 0xFFFF] << 8)
