"""VIC-II registers as a text program sees them ($D000-$D3FF, mirrored every $40).

Only what a text-mode program touches is modelled: the control registers
($D011, $D016, $D018), the raster counter $D012 (derived from the cycle
count, so busy-waits on it terminate), border $D020 and background $D021,
and the raster interrupt latch: $D019 bit 0 is set when the raster reaches
the compare line written to $D012 (bit 8 in $D011 bit 7), $D01A bit 0
enables it as an IRQ, writing 1 bits to $D019 acknowledges.  `poll()` and
`next_irq_cycle()` give a run loop what it needs to deliver that IRQ.
No picture is generated here: front ends draw the screen from RAM.
"""

from c64.vic_dma import BadLines

# Bits that read as 1 because they are not connected (VICE vicii-mem.c).
_READ_OR = {0x16: 0xC0, 0x18: 0x01, 0x19: 0x70, 0x1A: 0xF0}
for _reg in range(0x20, 0x2F):
    _READ_OR[_reg] = 0xF0

PAL = dict(clock_hz=985248, lines=312, cycles_per_line=63)
NTSC = dict(clock_hz=1022727, lines=263, cycles_per_line=65)


class VIC:
    """VIC-II register file; `clock()` returns the CPU cycle count."""

    def __init__(self, clock, video=PAL, dma=True):
        self.clock = clock
        self.lines = video["lines"]
        self.cycles_per_line = video["cycles_per_line"]
        self.regs = bytearray(0x40)
        # Called after a write that may move the next raster interrupt ($D011, $D012, $D01A),
        # so a run loop can end a CPU slice planned with the old timing (as CIA1's hook).
        self.on_reschedule = None
        # What bad lines take from the CPU: the map between its cycles and the bus's (the
        # clock's).  dma=False: the VIC never takes the bus.
        self.dma = BadLines(self.lines, self.cycles_per_line, enabled=dma)
        self._powered = False
        self.reset()
        self._powered = True

    def reset(self):
        self.irq_latch = 0                 # $D019 bits 0-3
        self._polled_until = None          # compares up to this cycle are latched (None: none yet)
        self._due = None                   # the first compare after _polled_until (None: not known)
        old = self.regs[0x11]
        self.regs[:] = bytes(0x40)
        self.regs[0x11] = 0x1B
        self.regs[0x16] = 0xC8
        self.regs[0x18] = 0x14
        self.regs[0x20] = 0x0E
        self.regs[0x21] = 0x06
        if self._powered:
            self.dma.rebase(self.clock(), old, self.regs[0x11])

    def raster(self):
        return (self.clock() // self.cycles_per_line) % self.lines

    # -- raster interrupt ------------------------------------------------------------
    def compare_line(self):
        """The raster line written to $D012 / $D011 bit 7."""
        return self.regs[0x12] | ((self.regs[0x11] & 0x80) << 1)

    def _next_compare_after(self, cycle):
        """First cycle > `cycle` at which the compare line starts, or None if it never does."""
        line = self.compare_line()
        if line >= self.lines:
            return None
        frame = self.lines * self.cycles_per_line
        start = cycle - cycle % frame + line * self.cycles_per_line
        if start <= cycle:
            start += frame
        return start

    def poll(self, now=None):
        """Latch raster compares up to now (the clock's, when not given); returns True while
        the VIC pulls the IRQ line."""
        if now is None:
            now = self.clock()
        due = self._due
        if due is None:
            if self._polled_until is None:
                self._polled_until = now
            due = self._next_compare_after(self._polled_until)
        if due is not None and due <= now:
            self.irq_latch |= 0x01
            due = self._next_compare_after(now)
        # Still the first compare after `now` (it was after _polled_until and is not yet
        # reached), so the run loop's frequent polls need no arithmetic.
        self._due = due
        self._polled_until = now
        return bool(self.irq_latch & self.regs[0x1A] & 0x0F)

    def next_irq_cycle(self):
        """Cycle of the next raster interrupt when it is enabled in $D01A, or None."""
        if not self.regs[0x1A] & 0x01:
            return None
        if self._due is None:
            if self._polled_until is None:
                self._polled_until = self.clock()
            self._due = self._next_compare_after(self._polled_until)
        return self._due

    # -- registers ----------------------------------------------------------------------
    def read(self, reg):
        reg &= 0x3F
        if reg == 0x12:
            return self.raster() & 0xFF
        if reg == 0x11:
            return (self.regs[0x11] & 0x7F) | ((self.raster() >> 1) & 0x80)
        if reg == 0x19:
            self.poll()
            pending = 0x80 if self.irq_latch & self.regs[0x1A] & 0x0F else 0
            return self.irq_latch | pending | 0x70
        if reg >= 0x2F:
            return 0xFF
        return self.regs[reg] | _READ_OR.get(reg, 0)

    def peek(self, reg):
        """What read(reg) returns, without side effects (the monitor's view): $D019 is not
        brought up to date with the raster first."""
        reg &= 0x3F
        if reg == 0x19:
            pending = 0x80 if self.irq_latch & self.regs[0x1A] & 0x0F else 0
            return self.irq_latch | pending | 0x70
        return self.read(reg)

    def write(self, reg, value):
        reg &= 0x3F
        if reg in (0x11, 0x12, 0x1A):
            self.poll()                    # compares before the change count with the old line
        if reg == 0x19:
            self.poll()
            self.irq_latch &= ~value & 0x0F   # writing 1 acknowledges
            return
        if reg == 0x11:
            self.dma.rebase(self.clock(), self.regs[0x11], value)
        self.regs[reg] = value
        if reg in (0x11, 0x12, 0x1A):
            self._due = None               # the compare line may have moved
            if self.on_reschedule is not None:
                self.on_reschedule()

    # -- what front ends need ------------------------------------------------
    def border(self):
        return self.regs[0x20] & 0x0F

    def background(self):
        return self.regs[0x21] & 0x0F

    def lower_case(self):
        """True when $D018 selects the lower/upper-case character set ($1800)."""
        return bool(self.regs[0x18] & 0x02)

    def screen_offset(self):
        """Screen base within the VIC bank: ($D018 >> 4) * $400."""
        return (self.regs[0x18] >> 4) * 0x400

    def display_enabled(self):
        return bool(self.regs[0x11] & 0x10)
