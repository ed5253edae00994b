"""The two CIA 6526 chips as far as programs read them.

Both have two timers, the interrupt control register and the time-of-day clock
with its alarm (class CIA; the timers and the ICR cycle by cycle in c64.cia_timers).
CIA1 ($DC00): the keyboard matrix (write the column mask to $DC00, read the keys down
in those lines at $DC01); its interrupt output is the CPU's IRQ line (timer A gives
the KERNAL its 60 Hz IRQ).  CIA2 ($DD00): the VIC bank bits; its interrupt output is
the CPU's NMI line.

Every access names the cycle it happens in (`at`: the CPU's bus cycle within its
instruction, c64.io; the clock's cycle when not given); the chip is brought up to that
cycle first.
"""

from c64.cia_timers import TimerChip


def _bcd(value):
    return ((value // 10) << 4) | (value % 10)


class CIA:
    """A 6526: its timers, interrupt control register and time of day; the ports are the
    subclasses' (read_port, write_port for registers 0-3)."""

    # An ICR read that releases the active output ends the run slice too (on_reschedule):
    # for an edge-triggered line (CIA2's NMI) the next interrupt can only come after one.
    release_reschedules = False

    def __init__(self, clock, clock_hz=985248):
        self.clock = clock
        self.clock_hz = clock_hz
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
        self.chip = TimerChip()
        self.chip.cycle = self.clock()
        self.chip.on_alarm = self._next_alarm
        self._due = None
        self._stale = True           # the predicted next interrupt must be worked out again
        self.tod_offset = 0           # tenths added to emulated time
        self.tod_latched = None
        self.tod_stopped_at = None
        self.tod_alarm = 0            # in tenths of the day (CRB bit 7 set: TOD writes set it)
        self.chip.alarm_at = self._alarm_cycle(self.chip.cycle)

    @property
    def timer_a(self):
        return self.chip.a

    @property
    def timer_b(self):
        return self.chip.b

    @property
    def cra(self):
        return self.chip.a.cr

    @property
    def crb(self):
        return self.chip.b.cr

    @property
    def icr_mask(self):
        return self.chip.imr

    @property
    def icr_flags(self):
        """The ICR as the chip holds it (flags and bit 7), as a peek shows it."""
        return self.chip.icr

    # -- time and the interrupt output -----------------------------------------------------
    def sync(self, at=None):
        """Bring the chip up to cycle `at` (the clock's now when not given); returns it."""
        if at is None:
            at = self.clock()
        if at > self.chip.cycle:
            self.chip.advance(at)
        return at

    def poll(self, at=None):
        """Bring the chip up to date; returns True while its interrupt output is active."""
        self.sync(at)
        return self.chip.line

    def line_seen_at(self, cycle):
        """The interrupt output as the CPU sees it in `cycle` (bring the chip up to date first)."""
        return self.chip.line_seen_at(cycle)

    def edges_seen_by(self, cycle):
        """Times the output went active that the CPU sees by `cycle` (NMI is an edge)."""
        return self.chip.edges_seen_by(cycle)

    @property
    def line_edges(self):
        return self.chip.edges

    def next_irq_cycle(self):
        """The cycle the CPU will first see the interrupt output go active, if no access
        comes first (possibly an earlier cycle to look again at; while it is active, when
        it would go active again after a read of the ICR); None if it will not."""
        chip = self.chip
        if self._stale or (self._due is not None and chip.cycle >= self._due):
            self._due = chip.next_active()
            self._stale = False
        return self._due

    def acknowledge(self):
        """What reading $DC0D does: return the flags and clear them."""
        return self.read(0x0D)

    def _next_alarm(self, cycle):
        self.chip.alarm_at = self._alarm_cycle(cycle)
        self.chip.changed()

    # -- time of day -------------------------------------------------------------
    def _tod_tenths(self, now=None):
        if self.tod_stopped_at is not None:
            return self.tod_stopped_at
        now = self.clock() if now is None else now
        return now * 10 // self.clock_hz + self.tod_offset

    def _alarm_cycle(self, now):
        """The first cycle after `now` at which the time of day reads the alarm time."""
        if self.tod_stopped_at is not None:
            return None
        day = 24 * 36000
        tenths = self._tod_tenths(now)
        ahead = (self.tod_alarm - tenths) % day or day
        target = tenths + ahead - self.tod_offset                   # in tenths of emulated time
        cycle = -(-target * self.clock_hz // 10)                    # first cycle there
        return max(cycle, now + 1)

    def _tod_registers(self, now=None):
        tenths = self._tod_tenths(now) % (24 * 36000)
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

    def read(self, reg, at=None):
        reg &= 0x0F
        at = self.sync(at)
        chip = self.chip
        if reg < 4:
            value = self.read_port(reg)
            if reg == 1 and (chip.a.cr | chip.b.cr) & 0x02:
                value = chip.port_b_bits(value)
            return value
        if reg < 8:
            timer = chip.a if reg < 6 else chip.b
            return timer.counter & 0xFF if reg % 2 == 0 else timer.counter >> 8
        if reg < 0x0C:
            if self.tod_latched is None and reg == 0x0B:
                self.tod_latched = self._tod_registers(at)
            values = self.tod_latched or self._tod_registers(at)
            if reg == 0x08:
                self.tod_latched = None
            return values[reg - 0x08]
        if reg == 0x0D:
            self._stale = True
            held = chip.line
            value = chip.read_icr()
            if held and self.release_reschedules and self.on_reschedule is not None:
                self.on_reschedule()
            return value
        if reg == 0x0E:
            return chip.a.cr
        if reg == 0x0F:
            return chip.b.cr
        return 0xFF

    def peek(self, reg):
        """What read(reg) returns, without side effects (the monitor's view): the ICR is
        neither brought up to date nor acknowledged, the time of day neither latched
        nor released."""
        reg &= 0x0F
        if reg == 0x0D:
            return self.chip.icr
        if 0x08 <= reg <= 0x0B:
            return self._tod_registers()[reg - 0x08]
        return self.read(reg)

    def write(self, reg, value, at=None):
        reg &= 0x0F
        at = self.sync(at)
        chip = self.chip
        if reg < 4:
            self.write_port(reg, value)
            return
        if reg < 8:
            chip.write_latch(chip.a if reg < 6 else chip.b, reg % 2, value)
        elif reg < 0x0C:
            self._write_tod(reg - 0x08, value, at)
        elif reg == 0x0D:
            chip.write_icr(value)
        elif reg == 0x0E:
            chip.write_control(chip.a, value, counts_phi2=not value & 0x20)
        elif reg == 0x0F:
            chip.write_control(chip.b, value, counts_phi2=not value & 0x60)
        else:
            return
        self._stale = True
        if self.on_reschedule is not None:
            self.on_reschedule()

    def _write_tod(self, index, value, at):
        if self.crb & 0x80:                 # CRB bit 7: the writes set the alarm
            fields = list(self._tenths_fields(self.tod_alarm))
            fields[index] = value
            self.tod_alarm = self._fields_tenths(fields)
            self.chip.alarm_at = self._alarm_cycle(at)
            self.chip.changed()
            return
        fields = list(self._tod_registers(at))
        fields[index] = value
        if index == 3:
            self.tod_stopped_at = self._tod_tenths(at)   # writing hours stops the clock
        target = self._fields_tenths(fields)
        if index == 0:                              # writing tenths starts it again
            self.tod_stopped_at = None
            self.tod_offset = target - at * 10 // self.clock_hz
        elif self.tod_stopped_at is not None:
            self.tod_stopped_at = target
        else:
            self.tod_offset = target - at * 10 // self.clock_hz
        self.chip.alarm_at = self._alarm_cycle(at)
        self.chip.changed()

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
            # Output bits read what PRB drives them to, inputs are pulled up; a key down
            # pulls its row low either way.
            return self.keyboard_matrix(columns) & (self.prb | ~self.ddrb) & 0xFF
        return super().read_port(reg)


class CIA2(CIA):
    """CIA2: port A's bits 0-1 choose the VIC bank; its interrupt output is the NMI line."""

    release_reschedules = True

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
