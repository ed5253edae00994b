"""The 6526's timers and interrupt control register, cycle by cycle as programs see them.

The chip is a pipeline of one-cycle delays (after Wolfgang Lorenz's "A Software Model
of the CIA6526", the model his Emulator Test Suite checks; docs/c64.md, "Interrupts"):

* a timer decrements in the cycle its COUNT3 delay is set.  Starting it (CRA/CRB bit 0)
  sets COUNT0 and COUNT1 at once, so the first decrement comes two cycles after the
  write; stopping it clears them, so it still counts in the next two cycles' pipeline
  for what was already on its way (none: COUNT2/COUNT3 are cleared by nothing but a
  load, so a stop takes two cycles too).
* it underflows in a cycle where its counter is 0 and COUNT2 is set: the counter is
  then loaded from the latch (LOAD1), and a load clears COUNT2, so the cycle after a
  load does not count: a period is latch + 1 cycles.  A force load (CR bit 4) or a
  write of the high latch byte of a stopped timer sets LOAD0: the counter loads one
  cycle later.  A latch byte written in the cycle after a load goes to the counter too.
* one-shot mode (bit 3, seen at once or one cycle late) stops the timer at its
  underflow: the start bit clears and COUNT0-2 with it.
* an underflow sets its ICR flag in that cycle; if the mask allows, the interrupt
  output (IRQ for CIA1, NMI for CIA2) and ICR bit 7 follow one cycle later.  Reading
  the ICR returns it, clears the flags at once and bit 7 one cycle later, releases the
  output and drops an interrupt that was one cycle from being signalled; timer B's
  flag is lost if it rises in the cycle the ICR is read (the old 6526's "timer B bug").
  Writing the mask with a flag already up signals it one cycle later.
* timer B counts phi2, or timer A's underflows (CRB bits 6-5 %10, and %11 as the CNT
  pin is pulled high on a C64; they reach it through COUNT1); CNT transitions (CRA
  bit 5, CRB %01) never come: nothing drives CNT.
* PB6/PB7 (CR bit 1): timer A/B's underflow as a one-cycle pulse (bit 2 clear) or a
  flip-flop toggled at each underflow and set when the timer starts (bit 2 set).

A CPU access at cycle t sees the chip after the cycles before t; what it changes
counts from cycle t's own step on.  The pipeline is stepped cycle by cycle only while
something is on its way; a timer counting steadily or a stopped one is skipped over in
one step, so a chip costs nothing between the accesses that look at it.
"""

COUNT0, COUNT1, COUNT2, COUNT3 = 0x01, 0x02, 0x04, 0x08
COUNTS = COUNT0 | COUNT1 | COUNT2 | COUNT3
LOAD0, LOAD1, LOAD2 = 0x10, 0x20, 0x40
LOADS = LOAD0 | LOAD1 | LOAD2
ONESHOT0 = 0x80
_SHIFTED = COUNT0 | COUNT1 | COUNT2 | LOAD0 | LOAD1     # the delays that move on one place a cycle

IDLE = 1 << 60                  # (a timer that never changes: cycles it can be skipped over)

# Cycles a prediction of the next interrupt steps through before it settles for "look again".
PREDICTION_STEPS = 4000

# A timer reloading 0 or 1 underflows every cycle or two, and the chip's whole state comes
# back every few cycles: after this many cycles stepped one at a time in one advance(),
# it looks for such a period (of at most RECURRING_PERIOD cycles) and skips the whole ones.
STEPS_BEFORE_RECURRING = 4
RECURRING_PERIOD = 8


class Timer:
    """One 16-bit timer: counter, latch, control register and its delays."""

    __slots__ = ("counter", "latch", "cr", "pipe", "feed", "toggle", "pulse_at")

    def __init__(self):
        self.counter = 0xFFFF
        self.latch = 0xFFFF
        self.cr = 0
        self.pipe = 0
        self.feed = 0                    # COUNT0 and ONESHOT0 fed in every cycle
        self.toggle = 0                  # the PB6/PB7 flip-flop
        self.pulse_at = -1               # the cycle the PB6/PB7 pulse is high in

    @property
    def running(self):
        return bool(self.cr & 0x01)

    def copy(self):
        other = Timer.__new__(Timer)
        other.counter, other.latch, other.cr, other.pipe = self.counter, self.latch, self.cr, self.pipe
        other.feed, other.toggle, other.pulse_at = self.feed, self.toggle, self.pulse_at
        return other


class TimerChip:
    """Timers A and B, the ICR and the interrupt output of one 6526, stepped lazily.

    `cycle`: the first cycle not yet stepped.  Every method taking `at` first steps the
    chip up to that cycle (an access at cycle t sees the chip after cycle t - 1)."""

    def __init__(self):
        self.a = Timer()
        self.b = Timer()
        self.cycle = 0
        self.icr = 0                     # flags (bits 0-4) and bit 7 as a read returns them
        self.imr = 0
        self.intp = 0                    # bit 0: the output goes active next cycle; bit 1: now
        self.clr = 0                     # bits 0-2: the ICR was read 0, 1, 2 cycles ago
        self.line = False                # the interrupt output, active
        self.changes = []                # [(cycle, active)]: its last changes (the CPU sees each the cycle after)
        self.edges = 0                   # times it went active
        self.alarm_at = None             # the cycle the time of day reaches the alarm, or None
        self.on_alarm = None             # called after the alarm's cycle (the next alarm_at)
        self.quiet_until = 0             # up to this cycle the timers only count steadily

    def copy(self):
        other = TimerChip.__new__(TimerChip)
        other.__dict__.update(self.__dict__)
        other.a, other.b = self.a.copy(), self.b.copy()
        other.changes = list(self.changes)
        other.on_alarm = None
        return other

    # -- stepping ----------------------------------------------------------------------
    def advance(self, to):
        """Step every cycle before `to`."""
        cycle = self.cycle
        if cycle >= to:
            return
        if self.quiet_until >= to:
            # (the common call: only steady counting up to `to`)
            a, b = self.a, self.b
            if a.pipe & COUNT3:
                a.counter -= to - cycle
            if b.pipe & COUNT3:
                b.counter -= to - cycle
            self.cycle = to
            return
        if self._periodic(to):
            return
        a, b = self.a, self.b
        steps = 0                         # cycles stepped one at a time (_recurring)
        while self.cycle < to:
            cycle = self.cycle
            if self.quiet_until > cycle:
                # Only steady counting until quiet_until: the counters move, nothing else.
                cycles = min(to, self.quiet_until) - cycle
                if a.pipe & COUNT3:
                    a.counter -= cycles
                if b.pipe & COUNT3:
                    b.counter -= cycles
                self.cycle = cycle + cycles
                continue
            if (a.pipe | b.pipe) & LOADS or self.intp:
                steps += 1
                if steps != STEPS_BEFORE_RECURRING or not self._recurring(to):
                    self._step()
                continue
            steady_a, steady_b = _steady(a), _steady(b)
            quiet = steady_a if steady_a < steady_b else steady_b
            if self.alarm_at is not None and self.alarm_at - cycle < quiet:
                quiet = self.alarm_at - cycle
            if self.clr:
                # The three cycles after an ICR read, in one go when nothing else happens:
                # bit 7 clears in the cycle after the read.
                if self.clr == 1 and quiet >= 3 and to - cycle >= 3:
                    self.icr &= 0x7F
                    self.clr = 0
                    self._skip(3)
                else:
                    self._step()
                continue
            if quiet > 1:
                for timer in (a, b):                # (the one-shot delay takes its input)
                    timer.pipe = (timer.pipe & ~ONESHOT0) | (timer.feed & ONESHOT0)
                self.quiet_until = cycle + quiet
                continue
            if not self._leap(to, steady_a, steady_b):
                steps += 1
                if steps != STEPS_BEFORE_RECURRING or not self._recurring(to):
                    self._step()

    def _periodic(self, to):
        """Timer A counting on its own, B stopped, nothing else on its way (an ICR read's
        three cycles aside), the alarm after `to`: the KERNAL's 60 Hz timer between two
        looks at it.  Every cycle before `to` in one go, through any number of underflows,
        as _step would do them; False (nothing done) in any other case, or if `to` falls
        inside an underflow's two cycles or an ICR read's three."""
        a, b = self.a, self.b
        if (self.intp or self.clr > 1 or (a.pipe | b.pipe) & LOADS or b.pipe & COUNTS
                or b.feed & COUNT0 or (b.cr & 0x41) == 0x41 or a.pipe & COUNTS != COUNTS
                or not a.feed & COUNT0 or (a.pipe | a.feed) & ONESHOT0 or a.latch < 2
                or a.counter < 1 or (self.alarm_at is not None and self.alarm_at <= to)):
            return False
        cycle = self.cycle
        under = cycle + a.counter - 1             # the first underflow's cycle
        if self.clr and to - cycle < 3:
            return False
        underflows = 0
        if under < to:
            period = a.latch + 1
            underflows = (to - 2 - under) // period + 1
            last = under + (underflows - 1) * period
            if underflows < 1 or last + period < to:
                return False                      # (`to` is inside an underflow's two cycles)
        if self.clr:
            self.icr &= 0x7F                      # (bit 7 clears the cycle after the read)
            self.clr = 0
        if underflows:
            self.icr |= 0x01
            a.toggle ^= underflows & 1
            a.pulse_at = last + 1
            if self.imr & 0x01:
                self.icr |= 0x80
                self._set_line(True, under + 1)
            a.counter = a.latch - (to - last - 2)
            under = last + period
        else:
            a.counter -= to - cycle               # (steady counting all the way)
        b.pipe = (b.pipe & ~ONESHOT0) | (b.feed & ONESHOT0)
        self.cycle = to
        self.quiet_until = under if self.alarm_at is None or under < self.alarm_at else self.alarm_at
        return True

    def _state(self):
        """Everything a cycle's step reads and leaves, but the cycle and what only records
        it (pulse_at, the output's edges and changes)."""
        a, b = self.a, self.b
        return (a.counter, a.latch, a.cr, a.pipe, a.feed, a.toggle, b.counter, b.latch, b.cr,
                b.pipe, b.feed, b.toggle, self.icr, self.imr, self.intp, self.clr, self.line)

    def _recurring(self, to):
        """Whole periods before `to` in one go when the chip's whole state comes back after
        at most RECURRING_PERIOD cycles (a timer reloading 0 or 1, the other stopped or
        alike, nothing read or written meanwhile): a copy is stepped through one period,
        and the chip moved on by as many as fit, the PB pulse's cycle with it.  (The
        output cannot change in such a period: only an ICR read releases it, and its
        state is the same at both ends.)  False (nothing done) if the state does not
        come back, or the alarm falls before `to`."""
        if (self.alarm_at is not None and self.alarm_at < to) or to - self.cycle < 4 * RECURRING_PERIOD:
            return False                # (a few cycles left: stepping them costs less than looking)
        start, first = self._state(), self.cycle
        probe = self.copy()
        while True:
            probe._step()
            period = probe.cycle - first
            if probe._state() == start:
                break
            if period >= RECURRING_PERIOD:
                return False
        periods = (to - first) // period
        if periods < 2:
            return False
        cycles = periods * period
        for timer, stepped in ((self.a, probe.a), (self.b, probe.b)):
            if timer.pulse_at != stepped.pulse_at:          # (it underflowed in the period)
                timer.pulse_at = stepped.pulse_at + cycles - period
        self.cycle = first + cycles
        return True

    def step_to(self, to):
        """Step every cycle before `to` one at a time: what advance does in leaps (the
        reference the tests hold the leaps to)."""
        while self.cycle < to:
            self._step()

    def changed(self):
        """After an access that may have changed what is on its way (quiet_until)."""
        self.quiet_until = 0

    def _leap(self, to, steady_a, steady_b):
        """A timer counting steadily on its own through an underflow, in one go: to two
        cycles after it, when it counts steadily again (what _step would do cycle by
        cycle).  False when anything else is on its way then."""
        a, b = self.a, self.b
        for timer, other, bit, steady_other in ((a, b, 0x01, steady_b), (b, a, 0x02, steady_a)):
            if (timer.pipe & COUNTS != COUNTS or not timer.feed & COUNT0 or timer.latch < 2
                    or (timer.pipe | timer.feed) & ONESHOT0 or timer.counter < 1):
                continue
            under = self.cycle + timer.counter - 1
            if under + 2 > to or (timer is a and (b.cr & 0x41) == 0x41):
                return False
            if steady_other < timer.counter + 2 or (
                    self.alarm_at is not None and self.alarm_at <= under + 1):
                return False
            if other.pipe & COUNT3:
                other.counter -= under + 2 - self.cycle
            other.pipe = (other.pipe & ~ONESHOT0) | (other.feed & ONESHOT0)
            timer.counter = timer.latch
            self.icr |= bit
            timer.toggle ^= 1
            timer.pulse_at = under + 1
            if self.imr & bit:
                self.icr |= 0x80
                self._set_line(True, under + 1)
            self.cycle = under + 2
            return True
        return False

    def _skippable(self, most):
        """How many of the next `most` cycles can be skipped over in one go (<= 1: step)."""
        if self.intp or self.clr or (self.a.pipe | self.b.pipe) & LOADS:
            return 0
        skip = min(most, _steady(self.a), _steady(self.b))
        if self.alarm_at is not None:
            skip = min(skip, self.alarm_at - self.cycle)
        return skip

    def _skip(self, cycles):
        for timer in (self.a, self.b):
            if timer.pipe & COUNT3:
                timer.counter -= cycles
            timer.pipe = (timer.pipe & ~ONESHOT0) | (timer.feed & ONESHOT0)
        self.cycle += cycles

    def _step(self):
        """One cycle of the chip."""
        cycle = self.cycle
        a, b = self.a, self.b
        out_a = self._count(a)
        if out_a and (b.cr & 0x41) == 0x41:          # timer B counts timer A's underflows
            b.pipe |= COUNT1
        out_b = self._count(b)
        if out_a:
            self.icr |= 0x01
            self._output(a, cycle)
            if self.imr & 0x01:
                self.intp |= 1
        if out_b:
            if not self.clr & 1:                     # (lost when the ICR is read now)
                self.icr |= 0x02
            self._output(b, cycle)
            if self.imr & 0x02:
                self.intp |= 1
        if cycle == self.alarm_at:
            self.icr |= 0x04
            if self.imr & 0x04:
                self.intp |= 1
            if self.on_alarm is not None:
                self.on_alarm(cycle + 1)
            else:
                self.alarm_at = None
        if self.clr & 2:
            self.icr &= 0x7F
        if self.intp & 2:
            self.icr |= 0x80
            self._set_line(True, cycle)
        self.intp = (self.intp << 1) & 2
        self.clr = (self.clr << 1) & 6
        for timer in (a, b):
            timer.pipe = ((timer.pipe & _SHIFTED) << 1) | timer.feed
        self.cycle = cycle + 1

    @staticmethod
    def _count(timer):
        """The timer's part of one cycle; True if it underflows."""
        pipe = timer.pipe
        if pipe & COUNT3:
            timer.counter = (timer.counter - 1) & 0xFFFF
        out = timer.counter == 0 and pipe & COUNT2
        if out:
            if (pipe | timer.feed) & ONESHOT0:       # one-shot: stop
                timer.cr &= ~0x01
                timer.pipe &= ~(COUNT0 | COUNT1 | COUNT2)
                timer.feed &= ~COUNT0
            timer.pipe |= LOAD1
        if timer.pipe & LOAD1:
            timer.counter = timer.latch
            timer.pipe &= ~COUNT2
        return bool(out)

    @staticmethod
    def _output(timer, cycle):
        timer.toggle ^= 1
        timer.pulse_at = cycle + 1

    def _set_line(self, active, cycle):
        if active == self.line:
            return
        self.line = active
        if active:
            self.edges += 1
        self.changes.append((cycle, active))
        if len(self.changes) > 4:
            del self.changes[0]

    # -- what the CPU sees -----------------------------------------------------------------
    def line_seen_at(self, cycle):
        """The interrupt output as the CPU sees it in `cycle` (a change is seen the cycle
        after the chip makes it); the chip must have been stepped past cycle - 1."""
        for changed, active in reversed(self.changes):
            if changed < cycle:
                return active
        if self.changes:
            return not self.changes[0][1]
        return self.line

    def edges_seen_by(self, cycle):
        """How many times the output went active, counting those the CPU sees by `cycle`."""
        late = sum(1 for changed, active in self.changes if active and changed >= cycle)
        return self.edges - late

    def next_active(self):
        """The cycle the CPU first sees the output go active if no access comes first (while
        it is active: when it would go active again were the ICR read now, so that a read
        needs no new plan); None if it will not.  A prediction that would step too long
        answers a cycle to look again at instead."""
        if not self.imr & 0x1F:
            return None
        if self.intp and not self.line:
            return self.cycle + (1 if self.intp & 2 else 2)
        relevant_a, relevant_b = self._relevant()
        quick = self._next_active_quick(relevant_a, relevant_b)
        if quick is not None:
            return quick
        probe = self.copy()
        probe.line = False                           # (as if the ICR had been read)
        for timer, relevant in ((probe.a, relevant_a), (probe.b, relevant_b)):
            if not relevant:
                # (its underflows cannot reach the output: stopped in the probe, so that a
                # timer underflowing every few cycles does not make the probe step)
                timer.pipe = timer.feed = 0
        start = probe.edges
        budget = PREDICTION_STEPS
        while True:
            skip = probe._skippable(IDLE)
            if skip >= IDLE:
                return None                          # nothing is on its way and nothing counts
            if skip > 1:
                probe._skip(skip)
                continue
            budget -= 1
            if budget < 0:
                return probe.cycle
            probe._step()
            if probe.edges != start:
                return probe.changes[-1][0] + 1

    def _relevant(self):
        """(timer A, timer B): whether its underflows can reach the interrupt output (its
        mask bit is set, or timer B's is and B counts A's underflows)."""
        imr = self.imr
        return (bool(imr & 0x01 or (imr & 0x02 and (self.b.cr & 0x41) == 0x41)),
                bool(imr & 0x02))

    def _next_active_quick(self, relevant_a, relevant_b):
        """next_active worked out without stepping when nothing is on its way and each
        timer that can reach the output is stopped or counts steadily (timer B not
        counting A's underflows): the first enabled underflow (or the alarm) plus one
        cycle for the output, plus one for the CPU to see it.  None: step a probe
        instead."""
        pipes = (self.a.pipe if relevant_a else 0) | (self.b.pipe if relevant_b else 0)
        if pipes & LOADS or (self.b.cr & 0x41) == 0x41:
            return None                    # (an ICR read on its way, clr, changes no timing)
        first = None
        for timer, bit, relevant in ((self.a, 0x01, relevant_a), (self.b, 0x02, relevant_b)):
            if not relevant:
                continue
            steady = _steady(timer)
            if steady == 0:
                return None
            if steady < IDLE and self.imr & bit:
                due = self.cycle + timer.counter - 1 if timer.counter else self.cycle
                first = due if first is None else min(first, due)
        if self.alarm_at is not None and self.imr & 0x04:
            first = self.alarm_at if first is None else min(first, self.alarm_at)
        return None if first is None else first + 2

    # -- register accesses (the chip stepped to the access's cycle first) ---------------------
    def read_icr(self):
        self.quiet_until = 0
        value = self.icr
        self._set_line(False, self.cycle)
        self.intp = 0
        self.icr &= 0x80
        self.clr |= 1
        return value

    def write_icr(self, value):
        self.quiet_until = 0
        if value & 0x80:
            self.imr |= value & 0x1F
        else:
            self.imr &= ~value & 0x1F
        if self.imr & self.icr & 0x1F and not self.line:
            self.intp |= 1
        elif self.clr & 4:
            self.intp &= ~2

    def write_latch(self, timer, high, value):
        self.quiet_until = 0
        if high:
            timer.latch = (timer.latch & 0x00FF) | (value << 8)
            if timer.pipe & LOAD2:
                timer.counter = (timer.counter & 0x00FF) | (value << 8)
            if not timer.cr & 0x01:
                timer.pipe |= LOAD0
        else:
            timer.latch = (timer.latch & 0xFF00) | value
            if timer.pipe & LOAD2:
                timer.counter = (timer.counter & 0xFF00) | value

    def write_control(self, timer, value, counts_phi2):
        """A write of CRA/CRB; counts_phi2: the timer counts the clock in this mode."""
        self.quiet_until = 0
        if value & 0x01:
            if not timer.cr & 0x01:
                timer.toggle = 1                     # PB6/PB7's flip-flop: high on start
            if counts_phi2:
                timer.pipe |= COUNT0 | COUNT1
                timer.feed |= COUNT0
            else:
                timer.pipe &= ~(COUNT0 | COUNT1)
                timer.feed &= ~COUNT0
        else:
            timer.pipe &= ~(COUNT0 | COUNT1)
            timer.feed &= ~COUNT0
        if value & 0x10:
            timer.pipe |= LOAD0
        if value & 0x08:
            timer.feed |= ONESHOT0
        else:
            timer.feed &= ~ONESHOT0
        timer.cr = value & ~0x10

    def port_b_bits(self, value):
        """Port B with PB6/PB7 replaced by the timers' outputs where CRA/CRB bit 1 says so."""
        for timer, bit in ((self.a, 0x40), (self.b, 0x80)):
            if timer.cr & 0x02:
                high = timer.toggle if timer.cr & 0x04 else timer.pulse_at == self.cycle
                value = (value | bit) if high else (value & ~bit)
        return value


def _steady(timer):
    """Cycles the timer can be skipped over in one go (it stays as it is, or counts
    down without reaching 0): 0 while something is on its way."""
    counts = timer.pipe & COUNTS
    if counts == 0 and not timer.feed & COUNT0:
        return IDLE
    if counts == COUNTS and timer.feed & COUNT0:
        return timer.counter - 1
    return 0
