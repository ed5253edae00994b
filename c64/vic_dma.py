"""The VIC's bad-line DMA as a map between the CPU's cycles and the bus's.

On a bad line (raster lines $30-$F7 whose low three bits equal YSCROLL, $D011 bits 0-2,
in a frame where DEN, $D011 bit 4, was set during line $30) the VIC pulls BA low in the
line's cycle 12 and reads the 40 screen codes in cycles 15-54: the CPU stops at its next
read and runs again in cycle 55.  Here it stops for cycles 12-54 of the line, 43 cycles,
whatever it is doing (a real 6510 goes on through up to 3 write cycles first: 40-42 then).

The CPU never hears of it: `processorCycles` counts the cycles the CPU runs, and the chips'
clock is `bus_time(processorCycles)`, which adds the cycles the VIC took before then; the
run loop turns the bus cycle an interrupt falls due at into the CPU's (`cpu_time`).  So
charging them is arithmetic, in both cores alike.  The map is kept as an anchor (a CPU
cycle and the bus cycle it runs in) and the state from then on; a write to $D011 moves the
anchor to the cycle of the write (`rebase`).  Cycle offsets in a line count from 0 (the
cycle in which the raster line changes, cycle 1 above).
"""

LINE_CYCLES = 63              # PAL
FIRST_DMA_LINE, LAST_DMA_LINE = 0x30, 0xF7
DEN_LINE = 0x30               # DEN set during this line allows bad lines in the frame
HALT_FIRST, HALT_END = 11, 54  # cycles 12-54 of a bad line: offsets 11..53
HALT = HALT_END - HALT_FIRST  # 43
EARLIER_STATES = 8            # states before the last $D011 write still mapped exactly


class _FrameTables:
    """One frame's map for a YSCROLL with bad lines allowed (or none): bus_to_cpu[x], the
    CPU cycles run in the frame's first x bus cycles; cpu_to_bus[k], the bus offset of the
    CPU's k-th cycle in the frame (after the halt, for a cycle that falls in one)."""

    def __init__(self, lines, cycles_per_line, yscroll):
        frame = lines * cycles_per_line
        bus_to_cpu = [0] * (frame + 1)
        cpu_to_bus = []
        k = 0
        for x in range(frame):
            bus_to_cpu[x] = k
            line, column = divmod(x, cycles_per_line)
            halted = (yscroll is not None and FIRST_DMA_LINE <= line <= LAST_DMA_LINE
                      and line & 7 == yscroll and HALT_FIRST <= column < HALT_END)
            if not halted:
                cpu_to_bus.append(x)
                k += 1
        bus_to_cpu[frame] = k
        self.bus_to_cpu, self.cpu_to_bus, self.cpu_cycles = bus_to_cpu, cpu_to_bus, k


_TABLES = {}                  # (lines, cycles a line, YSCROLL or None): _FrameTables


def _tables(lines, cycles_per_line, yscroll):
    key = (lines, cycles_per_line, yscroll)
    table = _TABLES.get(key)
    if table is None:
        table = _TABLES[key] = _FrameTables(lines, cycles_per_line, yscroll)
    return table


class BadLines:
    """The map between CPU and bus cycles for a VIC with `lines` x `cycles_per_line`.

    `enabled` False: the DMA is off (no cycles taken, as if the VIC never had the bus):
    for measuring the CPU's own cycles.  The map is the anchor (the last $D011 write: a CPU
    cycle and the bus cycle it ran in), the anchor's frame (its first bus cycle, the CPU's
    count there were the state the same all along, its table) and the state's table for
    the frames after it.  The frame the last query fell in is kept, so the common query is
    a subtraction and a list index."""

    def __init__(self, lines, cycles_per_line, enabled=True):
        self.lines, self.cycles_per_line = lines, cycles_per_line
        self.frame = lines * cycles_per_line
        self.enabled = enabled
        self.reset()

    def reset(self, d011=0x1B):
        self._anchor_cpu = self._anchor_bus = 0
        self._earlier = []             # the last few states before the anchor's (_segment)
        self._set_state(0, d011, None)

    def _segment(self):
        return (self._anchor_cpu, self._anchor_bus, self._start0, self._origin0, self._first, self._later)

    def _earlier_bus_time(self, cpu):
        """bus_time() of a cycle before the anchor: from the state it fell in (one of the
        last few; a query further back than those is taken as if there were no bad lines)."""
        for anchor_cpu, anchor_bus, start0, origin0, first, later in reversed(self._earlier):
            if cpu >= anchor_cpu:
                k = cpu - origin0
                if k < first.cpu_cycles:
                    return start0 + first.cpu_to_bus[k]
                frames, k = divmod(k - first.cpu_cycles, later.cpu_cycles)
                return start0 + self.frame * (frames + 1) + later.cpu_to_bus[k]
        anchor_cpu, anchor_bus = self._earlier[0][:2] if self._earlier else (self._anchor_cpu, self._anchor_bus)
        return cpu - anchor_cpu + anchor_bus

    def _earlier_cpu_time(self, bus):
        for anchor_cpu, anchor_bus, start0, origin0, first, later in reversed(self._earlier):
            if bus >= anchor_bus:
                x = bus - start0
                if x < self.frame:
                    return origin0 + first.bus_to_cpu[x]
                frames, x = divmod(x - self.frame, self.frame)
                return origin0 + first.cpu_cycles + frames * later.cpu_cycles + later.bus_to_cpu[x]
        anchor_cpu, anchor_bus = self._earlier[0][:2] if self._earlier else (self._anchor_cpu, self._anchor_bus)
        return bus - anchor_bus + anchor_cpu

    def _set_state(self, bus, d011, first_frame_allowed):
        """The state from bus cycle `bus` on (the anchor's): $D011, and whether bad lines are
        allowed in the anchor's frame (None: as DEN now decides at line $30)."""
        den = bool(d011 & 0x10) and self.enabled
        yscroll = d011 & 7
        if first_frame_allowed is None:
            first_frame_allowed = den
        self._first_allowed = first_frame_allowed
        self._first = first = _tables(self.lines, self.cycles_per_line,
                                      yscroll if first_frame_allowed else None)
        self._later = _tables(self.lines, self.cycles_per_line, yscroll if den else None)
        self._start0 = bus - bus % self.frame
        self._origin0 = self._anchor_cpu - first.bus_to_cpu[bus - self._start0]
        self._keep(0)

    def _keep(self, frames):
        """Keep the frame `frames` after the anchor's as the one queries look at first."""
        if frames == 0:
            self._start, self._origin, table = self._start0, self._origin0, self._first
        else:
            later = self._later
            self._start = self._start0 + self.frame * frames
            self._origin = self._origin0 + self._first.cpu_cycles + (frames - 1) * later.cpu_cycles
            table = later
        self._c2b, self._b2c, self._in_frame = table.cpu_to_bus, table.bus_to_cpu, table.cpu_cycles

    def rebase(self, bus, old_d011, new_d011):
        """$D011 changes from old_d011 to new_d011 in bus cycle `bus`."""
        if not self.enabled:
            return
        cpu = self.cpu_time(bus)
        frame_start = bus - bus % self.frame
        line = (bus - frame_start) // self.cycles_per_line
        den = bool(new_d011 & 0x10)
        if line < DEN_LINE:
            allowed = None
        elif line == DEN_LINE:
            allowed = (self._first_allowed if frame_start == self._start0 else bool(old_d011 & 0x10)) or den
        elif frame_start == self._start0:
            allowed = self._first_allowed
        else:
            allowed = bool(old_d011 & 0x10)
        self._earlier.append(self._segment())
        del self._earlier[:-EARLIER_STATES]
        self._anchor_cpu, self._anchor_bus = cpu, bus
        self._set_state(bus, new_d011, allowed)

    def bus_time(self, cpu):
        """The bus cycle in which the CPU runs its cycle `cpu` (counted from power on)."""
        k = cpu - self._origin
        if 0 <= k < self._in_frame and cpu >= self._anchor_cpu:     # (the frame kept)
            return self._start + self._c2b[k]
        if cpu < self._anchor_cpu:
            return self._earlier_bus_time(cpu)
        k = cpu - self._origin0 - self._first.cpu_cycles
        self._keep(0 if k < 0 else 1 + k // self._later.cpu_cycles)
        return self._start + self._c2b[cpu - self._origin]

    def cpu_time(self, bus):
        """The CPU cycles run before bus cycle `bus`: the first the CPU can run at or after it."""
        x = bus - self._start
        if 0 <= x < self.frame and bus >= self._anchor_bus:
            return self._origin + self._b2c[x]
        if bus < self._anchor_bus:
            return self._earlier_cpu_time(bus)
        self._keep((bus - self._start0) // self.frame)
        return self._origin + self._b2c[bus - self._start]
