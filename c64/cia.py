"""The two CIA 6526 chips as far as programs read them.

Both have two timers, the interrupt control register and the time-of-day clock
with its alarm (class CIA).  CIA1 ($DC00): the keyboard matrix (write the column
mask to $DC00, read the keys down in those lines at $DC01); its interrupt output
is the CPU's IRQ line (timer A gives the KERNAL its 60 Hz IRQ).  CIA2 ($DD00):
the VIC bank bits; its interrupt output is the CPU's NMI line.  Timers are
computed from the cycle count instead of being stepped, so they cost nothing
between reads.  Timer B counts phi2 cycles or timer A's underflows (CRB bits
6-5 %10, and %11: the CNT pin is pulled high on a C64 with nothing on the user
port); a timer set to count CNT transitions (CRA bit 5, CRB %01) does not count,
as nothing drives CNT.
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

    def control(self, value, counts=True):
        """A write of its control register; `counts`: False when it counts CNT (frozen here)."""
        now = self.clock()
        current = self.value()
        self.one_shot = bool(value & 0x08)
        if value & 0x10:                   # force load
            current = self.latch
        self.running = bool(value & 0x01) and counts
        self.start_cycle, self.start_value = now, current

    def underflows(self):
        """(cycle of its next underflow after now, cycles between the following ones or
        None for a one-shot timer), or None when stopped."""
        first = self.next_underflow()
        if first is None:
            return None
        return first, None if self.one_shot else self.latch + 1

    def rebase(self):
        """Take the value now as a new start (before what it counts changes)."""
        self.start_value, self.start_cycle = self.value(), self.clock()


class CascadeTimer(Timer):
    """Timer B counting timer A's underflows: the same down-counter, one count for each of
    timer A's underflows after start_cycle."""

    def __init__(self, clock, source):
        super().__init__(clock)
        self.source = source
        self.source_times = None      # timer A's (first underflow, period) after start_cycle

    def rebase(self):
        super().rebase()
        self.source_times = self.source.underflows()

    def control(self, value, counts=True):
        super().control(value, counts)
        self.source_times = self.source.underflows()

    def _counted(self, now):
        times = self.source_times
        if times is None or now < times[0]:
            return 0
        first, period = times
        return 1 if period is None else 1 + (now - first) // period

    def value(self):
        if not self.running:
            return self.start_value
        counted = self._counted(self.clock())
        if counted <= self.start_value:
            return self.start_value - counted
        return self.latch - ((counted - self.start_value - 1) % (self.latch + 1))

    def next_underflow(self):
        times = self.source_times
        if not self.running or times is None:
            return None
        counted = self._counted(self.clock())
        needed = self.start_value + 1         # timer A's underflow that takes it past 0
        if counted >= needed:
            needed += ((counted - needed) // (self.latch + 1) + 1) * (self.latch + 1)
        first, period = times
        if period is None:
            return first if needed == 1 else None
        return first + (needed - 1) * period


class CIA:
    """A 6526: its timers, interrupt control register and time of day; the ports are the
    subclasses' (read_port, write_port for registers 0-3)."""

    def __init__(self, clock, clock_hz=985248):
        self.clock = clock
        self.clock_hz = clock_hz
        self.timer_a = Timer(clock)
        self.phi2_b = Timer(clock)
        self.cascade_b = CascadeTimer(clock, self.timer_a)
        self.timer_b = self.phi2_b
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
        self._line = False
        self.line_edges = 0           # times the interrupt output went active (NMI is an edge)
        self.cra = 0
        self.crb = 0
        self._next_a = None
        self._next_b = None
        self.next_due = _NEVER
        self._next_irq = None
        self.tod_offset = 0           # tenths added to emulated time
        self.tod_latched = None
        self.tod_stopped_at = None
        self.tod_alarm = 0            # in tenths of the day (CRB bit 7 set: TOD writes set it)
        self._next_alarm = None
        self.timer_b = self.phi2_b

    # -- timer A interrupt ---------------------------------------------------
    def _schedule(self):
        self._next_a = self.timer_a.next_underflow()
        self._next_b = self.timer_b.next_underflow()
        self._next_alarm = self._alarm_cycle()
        # The soonest, for poll()'s quick "nothing due yet" test.
        dues = [due for due in (self._next_a, self._next_b, self._next_alarm) if due is not None]
        self.next_due = min(dues) if dues else _NEVER
        self._masked_due()

    def _masked_due(self):
        """The soonest of those whose interrupt is enabled (next_irq_cycle's answer)."""
        dues = [due for due, bit in ((self._next_a, 0x01), (self._next_b, 0x02), (self._next_alarm, 0x04))
                if due is not None and self.icr_mask & bit]
        self._next_irq = min(dues) if dues else None

    def _underflow(self, timer, flag):
        self.icr_flags |= flag
        if timer.one_shot:
            if timer is self.timer_a and self.timer_b is self.cascade_b:
                self.cascade_b.rebase()       # (A stops: B counts what A gave it so far)
            timer.running = False
            timer.start_value = timer.latch
            if timer is self.timer_a:
                self.cra &= ~0x01
            else:
                self.crb &= ~0x01

    def poll(self):
        """Bring the interrupt flags up to date; returns True while the IRQ line is pulled."""
        now = self.clock()
        if now < self.next_due:
            return self._line                 # (kept by every change of the flags or the mask)
        due_a = self._next_a is not None and now >= self._next_a
        due_b = self._next_b is not None and now >= self._next_b
        due_alarm = self._next_alarm is not None and now >= self._next_alarm
        if due_b:
            self._underflow(self.timer_b, 0x02)
        if due_a:
            self._underflow(self.timer_a, 0x01)
        if due_alarm:
            self.icr_flags |= 0x04
        if due_a or due_b or due_alarm:
            self._schedule()
        return self._line_now()

    def _line_now(self):
        """The interrupt output now (True: pulled); counts its edges (line_edges)."""
        line = bool(self.icr_flags & self.icr_mask & 0x1F)
        if line and not self._line:
            self.line_edges += 1
        self._line = line
        return line

    def next_irq_cycle(self):
        """Cycle at which an enabled timer or the alarm will next pull the interrupt line, or None."""
        return self._next_irq

    def acknowledge(self):
        """What reading $DC0D does: return the flags and clear them."""
        self.poll()
        flags = self.icr_flags
        if flags & self.icr_mask & 0x1F:
            flags |= 0x80
        self.icr_flags = 0
        self._line = False
        return flags

    # -- time of day -------------------------------------------------------------
    def _tod_tenths(self):
        if self.tod_stopped_at is not None:
            return self.tod_stopped_at
        return self.clock() * 10 // self.clock_hz + self.tod_offset

    def _alarm_cycle(self):
        """The first cycle after now at which the time of day reads the alarm time."""
        if self.tod_stopped_at is not None:
            return None
        now = self.clock()
        day = 24 * 36000
        ahead = (self.tod_alarm - self._tod_tenths()) % day or day
        target = self._tod_tenths() + ahead - self.tod_offset       # in tenths of emulated time
        cycle = -(-target * self.clock_hz // 10)                    # first cycle there
        return max(cycle, now + 1)

    def _tod_registers(self):
        tenths = self._tod_tenths() % (24 * 36000)
        hours, rest = divmod(tenths, 36000)
        minutes, rest = divmod(rest, 600)
        seconds, tenth = divmod(rest, 10)
        pm = 0x80 if hours >= 12 else 0
        hours12 = hours % 12 or 12
        return (tenth, _bcd(seconds), _bcd(minutes), _bcd(hours12) | pm)

    # -- registers ----------------------------------------------------------------
    def read_port(self, reg):
        if reg == 0x00:
            return (self.pra | ~self.ddra) & 0xFF
        if reg == 0x01:
            return (self.prb | ~self.ddrb) & 0xFF
        if reg == 0x02:
            return self.ddra
        return self.ddrb

    def write_port(self, reg, value):
        if reg == 0x00:
            self.pra = value
        elif reg == 0x01:
            self.prb = value
        elif reg == 0x02:
            self.ddra = value
        else:
            self.ddrb = value

    def read(self, reg):
        reg &= 0x0F
        if reg < 4:
            return self.read_port(reg)
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
        if reg < 4:
            self.write_port(reg, value)
        elif reg in (0x04, 0x05, 0x06, 0x07):
            self.poll()
            timer = self.timer_a if reg < 6 else self.timer_b
            if timer is self.timer_a and self.timer_b is self.cascade_b:
                self.cascade_b.rebase()
            if reg % 2 == 0:
                timer.latch = (timer.latch & 0xFF00) | value
            else:
                timer.latch = (timer.latch & 0x00FF) | (value << 8)
                if not timer.running:      # writing the high byte of a stopped timer loads it
                    timer.start_value = timer.latch
                    timer.start_cycle = self.clock()
            if timer is self.timer_a and self.timer_b is self.cascade_b:
                self.cascade_b.source_times = self.timer_a.underflows()
            self._schedule()
        elif 0x08 <= reg <= 0x0B:
            self._write_tod(reg - 0x08, value)
        elif reg == 0x0D:
            self.poll()
            if value & 0x80:
                self.icr_mask |= value & 0x1F
            else:
                self.icr_mask &= ~value & 0x1F
            self._masked_due()
            self._line_now()
        elif reg == 0x0E:
            self.poll()
            if self.timer_b is self.cascade_b:
                self.cascade_b.rebase()
            self.cra = value
            self.timer_a.control(value, counts=not value & 0x20)
            if self.timer_b is self.cascade_b:
                self.cascade_b.source_times = self.timer_a.underflows()
            self._schedule()
        elif reg == 0x0F:
            self.poll()
            self.crb = value
            self._timer_b_mode(value)
            self._schedule()

    def _timer_b_mode(self, value):
        """CRB bits 6-5: phi2 (%00), CNT (%01: not counting here), timer A underflows (%1x)."""
        wanted = self.cascade_b if value & 0x40 else self.phi2_b
        if wanted is not self.timer_b:
            old = self.timer_b
            wanted.latch, wanted.start_value, wanted.one_shot = old.latch, old.value(), old.one_shot
            wanted.start_cycle, wanted.running = self.clock(), old.running
            self.timer_b = wanted
        self.timer_b.control(value, counts=(value & 0x60) != 0x20)

    def _write_tod(self, index, value):
        if self.crb & 0x80:                 # CRB bit 7: the writes set the alarm
            fields = list(self._tenths_fields(self.tod_alarm))
            fields[index] = value
            self.tod_alarm = self._fields_tenths(fields)
            self._schedule()
            return
        fields = list(self._tod_registers())
        fields[index] = value
        if index == 3:
            self.tod_stopped_at = self._tod_tenths()   # writing hours stops the clock
        target = self._fields_tenths(fields)
        if index == 0:                              # writing tenths starts it again
            self.tod_stopped_at = None
            self.tod_offset = target - self.clock() * 10 // self.clock_hz
        elif self.tod_stopped_at is not None:
            self.tod_stopped_at = target
        else:
            self.tod_offset = target - self.clock() * 10 // self.clock_hz
        self._schedule()

    @staticmethod
    def _fields_tenths(fields):
        """(tenths, seconds, minutes, hours) registers, BCD with the PM flag -> tenths of the day."""
        tenth = fields[0] & 0x0F
        seconds = (fields[1] >> 4 & 7) * 10 + (fields[1] & 0x0F)
        minutes = (fields[2] >> 4 & 7) * 10 + (fields[2] & 0x0F)
        hours = ((fields[3] & 0x10) >> 4) * 10 + (fields[3] & 0x0F)
        hours = hours % 12 + (12 if fields[3] & 0x80 else 0)
        return ((hours * 60 + minutes) * 60 + seconds) * 10 + tenth

    @staticmethod
    def _tenths_fields(tenths):
        hours, rest = divmod(tenths % (24 * 36000), 36000)
        minutes, rest = divmod(rest, 600)
        seconds, tenth = divmod(rest, 10)
        return (tenth, _bcd(seconds), _bcd(minutes), _bcd(hours % 12 or 12) | (0x80 if hours >= 12 else 0))


class CIA1(CIA):
    """CIA1: the keyboard matrix on its ports; its interrupt output is the IRQ line."""

    def __init__(self, clock, keyboard_matrix, clock_hz=985248):
        self.keyboard_matrix = keyboard_matrix   # callable(column_mask) -> rows byte (0 = key down)
        super().__init__(clock, clock_hz)

    def read_port(self, reg):
        if reg == 0x01:
            columns = self.pra | (~self.ddra & 0xFF)
            return self.keyboard_matrix(columns) & ((self.prb | self.ddrb) & 0xFF | ~self.ddrb & 0xFF)
        return super().read_port(reg)


class CIA2(CIA):
    """CIA2: port A's bits 0-1 choose the VIC bank; its interrupt output is the NMI line."""

    def __init__(self, clock=lambda: 0, clock_hz=985248):
        super().__init__(clock, clock_hz)

    def reset(self):
        super().reset()
        self.pra = 0x03
        self.ddra = 0x3F

    def vic_bank_base(self):
        """$DD00 bits 0-1: bank = 3 - value; base = bank * $4000."""
        bits = (self.pra | ~self.ddra) & 0x03
        return (3 - bits) * 0x4000
