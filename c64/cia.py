"""The two CIA 6526 chips as far as programs read them.

CIA1 ($DC00): the keyboard matrix (write the column mask to $DC00, read the
keys down in those lines at $DC01), timer A that gives the KERNAL its 60 Hz
IRQ, timer B, the interrupt control register and the time-of-day clock.
CIA2 ($DD00): the VIC bank bits.  Timers are computed from the cycle count
instead of being stepped, so they cost nothing between reads.
"""


_NEVER = float("inf")


def _bcd(value):
    return ((value // 10) << 4) | (value % 10)


class Timer:
    """A 16-bit down-counter clocked by the CPU clock (phi2)."""

    def __init__(self, clock):
        self.clock = clock
        self.latch = 0xFFFF
        self.running = False
        self.one_shot = False
        self.start_cycle = 0      # cycle at which the counter held `start_value`
        self.start_value = 0xFFFF

    def value(self):
        if not self.running:
            return self.start_value
        elapsed = self.clock() - self.start_cycle
        if elapsed <= self.start_value:
            return self.start_value - elapsed
        period = self.latch + 1
        return self.latch - ((elapsed - self.start_value - 1) % period)

    def next_underflow(self):
        """Cycle of the next underflow, or None when stopped."""
        if not self.running:
            return None
        now = self.clock()
        first = self.start_cycle + self.start_value + 1
        if now < first:
            return first
        period = self.latch + 1
        return first + ((now - first) // period + 1) * period

    def control(self, value):
        now = self.clock()
        current = self.value()
        self.one_shot = bool(value & 0x08)
        if value & 0x10:                   # force load
            current = self.latch
        self.running = bool(value & 0x01)
        self.start_cycle, self.start_value = now, current


class CIA1:
    def __init__(self, clock, keyboard_matrix, clock_hz=985248):
        self.clock = clock
        self.keyboard_matrix = keyboard_matrix   # callable(column_mask) -> rows byte (0 = key down)
        self.clock_hz = clock_hz
        self.timer_a = Timer(clock)
        self.timer_b = Timer(clock)
        # Called after a register write that may move the next interrupt (timers, ICR):
        # the machine uses it to end the CPU's current run slice, which was planned
        # with the old timing, so a newly programmed interrupt is not taken late.
        self.on_reschedule = None
        self.reset()

    def reset(self):
        self.pra = 0xFF
        self.prb = 0xFF
        self.ddra = 0xFF
        self.ddrb = 0x00
        self.icr_mask = 0
        self.icr_flags = 0
        self.cra = 0
        self.crb = 0
        self._next_a = None
        self._next_b = None
        self._next_due = _NEVER
        self.tod_offset = 0           # tenths added to emulated time
        self.tod_latched = None
        self.tod_stopped_at = None

    # -- timer A interrupt ---------------------------------------------------
    def _schedule(self):
        self._next_a = self.timer_a.next_underflow()
        # Timer B counts phi2 cycles only when CRB bits 5-6 are 00; the other modes
        # (CNT pin, timer A underflows) are not modelled and never underflow here.
        self._next_b = self.timer_b.next_underflow() if not self.crb & 0x60 else None
        # The sooner of the two, for poll()'s quick "nothing due yet" test.
        dues = [due for due in (self._next_a, self._next_b) if due is not None]
        self._next_due = min(dues) if dues else _NEVER

    def _underflow(self, timer, flag):
        self.icr_flags |= flag
        if timer.one_shot:
            timer.running = False
            timer.start_value = timer.latch
            if timer is self.timer_a:
                self.cra &= ~0x01
            else:
                self.crb &= ~0x01

    def poll(self):
        """Bring the interrupt flags up to date; returns True while the IRQ line is pulled."""
        now = self.clock()
        if now < self._next_due:
            return bool(self.icr_flags & self.icr_mask & 0x1F)
        due_a = self._next_a is not None and now >= self._next_a
        due_b = self._next_b is not None and now >= self._next_b
        if due_a:
            self._underflow(self.timer_a, 0x01)
        if due_b:
            self._underflow(self.timer_b, 0x02)
        if due_a or due_b:
            self._schedule()
        return bool(self.icr_flags & self.icr_mask & 0x1F)

    def next_irq_cycle(self):
        """Cycle at which an enabled timer will next pull the IRQ line, or None."""
        due_a = self._next_a if self.icr_mask & 0x01 else None
        due_b = self._next_b if self.icr_mask & 0x02 else None
        if due_a is None or (due_b is not None and due_b < due_a):
            return due_b
        return due_a

    def acknowledge(self):
        """What reading $DC0D does: return the flags and clear them."""
        self.poll()
        flags = self.icr_flags
        if flags & self.icr_mask & 0x1F:
            flags |= 0x80
        self.icr_flags = 0
        return flags

    # -- time of day -------------------------------------------------------------
    def _tod_tenths(self):
        if self.tod_stopped_at is not None:
            return self.tod_stopped_at
        return self.clock() * 10 // self.clock_hz + self.tod_offset

    def _tod_registers(self):
        tenths = self._tod_tenths() % (24 * 36000)
        hours, rest = divmod(tenths, 36000)
        minutes, rest = divmod(rest, 600)
        seconds, tenth = divmod(rest, 10)
        pm = 0x80 if hours >= 12 else 0
        hours12 = hours % 12 or 12
        return (tenth, _bcd(seconds), _bcd(minutes), _bcd(hours12) | pm)

    # -- registers ----------------------------------------------------------------
    def read(self, reg):
        reg &= 0x0F
        if reg == 0x00:
            return (self.pra | ~self.ddra) & 0xFF
        if reg == 0x01:
            columns = self.pra | (~self.ddra & 0xFF)
            return self.keyboard_matrix(columns) & ((self.prb | self.ddrb) & 0xFF | ~self.ddrb & 0xFF)
        if reg == 0x02:
            return self.ddra
        if reg == 0x03:
            return self.ddrb
        if reg in (0x04, 0x05, 0x06, 0x07):
            timer = self.timer_a if reg < 6 else self.timer_b
            value = timer.value()
            return value & 0xFF if reg % 2 == 0 else value >> 8
        if 0x08 <= reg <= 0x0B:
            if self.tod_latched is None and reg == 0x0B:
                self.tod_latched = self._tod_registers()
            values = self.tod_latched or self._tod_registers()
            if reg == 0x08:
                self.tod_latched = None
            return values[reg - 0x08]
        if reg == 0x0D:
            return self.acknowledge()
        if reg == 0x0E:
            return (self.cra & ~0x10) | (0x01 if self.timer_a.running else 0)
        if reg == 0x0F:
            return (self.crb & ~0x10) | (0x01 if self.timer_b.running else 0)
        return 0xFF

    def peek(self, reg):
        """What read(reg) returns, without side effects (the monitor's view): the ICR is
        neither brought up to date (poll) nor acknowledged, the time of day neither latched
        nor released."""
        reg &= 0x0F
        if reg == 0x0D:
            return self.icr_flags | (0x80 if self.icr_flags & self.icr_mask & 0x1F else 0)
        if 0x08 <= reg <= 0x0B:
            return self._tod_registers()[reg - 0x08]
        return self.read(reg)

    def write(self, reg, value):
        reg &= 0x0F
        self._write(reg, value)
        if 0x04 <= reg <= 0x07 or reg >= 0x0D:
            if self.on_reschedule is not None:
                self.on_reschedule()

    def _write(self, reg, value):
        if reg == 0x00:
            self.pra = value
        elif reg == 0x01:
            self.prb = value
        elif reg == 0x02:
            self.ddra = value
        elif reg == 0x03:
            self.ddrb = value
        elif reg in (0x04, 0x05, 0x06, 0x07):
            timer = self.timer_a if reg < 6 else self.timer_b
            if reg % 2 == 0:
                timer.latch = (timer.latch & 0xFF00) | value
            else:
                timer.latch = (timer.latch & 0x00FF) | (value << 8)
                if not timer.running:      # writing the high byte of a stopped timer loads it
                    timer.start_value = timer.latch
                    timer.start_cycle = self.clock()
                self._schedule()
        elif 0x08 <= reg <= 0x0B:
            self._write_tod(reg - 0x08, value)
        elif reg == 0x0D:
            if value & 0x80:
                self.icr_mask |= value & 0x1F
            else:
                self.icr_mask &= ~value & 0x1F
        elif reg == 0x0E:
            self.poll()
            self.cra = value
            self.timer_a.control(value)
            self._schedule()
        elif reg == 0x0F:
            self.poll()
            self.crb = value
            self.timer_b.control(value)
            self._schedule()

    def _write_tod(self, index, value):
        if self.crb & 0x80:
            return                          # alarm registers: no alarm IRQ modelled
        fields = list(self._tod_registers())
        fields[index] = value
        if index == 3:
            self.tod_stopped_at = self._tod_tenths()   # writing hours stops the clock
        tenth = fields[0] & 0x0F
        seconds = (fields[1] >> 4) * 10 + (fields[1] & 0x0F)
        minutes = (fields[2] >> 4) * 10 + (fields[2] & 0x0F)
        hours = ((fields[3] & 0x10) >> 4) * 10 + (fields[3] & 0x0F)
        hours = hours % 12 + (12 if fields[3] & 0x80 else 0)
        target = ((hours * 60 + minutes) * 60 + seconds) * 10 + tenth
        if index == 0:                              # writing tenths starts it again
            self.tod_stopped_at = None
            self.tod_offset = target - self.clock() * 10 // self.clock_hz
        elif self.tod_stopped_at is not None:
            self.tod_stopped_at = target
        else:
            self.tod_offset = target - self.clock() * 10 // self.clock_hz


class CIA2:
    """CIA2: only port A's VIC bank bits matter to a text program."""

    def __init__(self):
        self.regs = bytearray(0x10)
        self.reset()

    def reset(self):
        self.regs[:] = bytes(0x10)
        self.regs[0x00] = 0x03
        self.regs[0x02] = 0x3F

    def read(self, reg):
        reg &= 0x0F
        if reg == 0x00:
            return (self.regs[0] | ~self.regs[2]) & 0xFF
        if reg == 0x0D:
            return 0
        return self.regs[reg]

    def peek(self, reg):
        """What read(reg) returns (CIA2's reads have no side effects here)."""
        return self.read(reg)

    def write(self, reg, value):
        self.regs[reg & 0x0F] = value

    def vic_bank_base(self):
        """$DD00 bits 0-1: bank = 3 - value; base = bank * $4000."""
        bits = (self.regs[0] | ~self.regs[2]) & 0x03
        return (3 - bits) * 0x4000
