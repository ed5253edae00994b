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


class BadLines:
    """The map between CPU and bus cycles for a VIC with `lines` x `cycles_per_line`.

    `enabled` False: the DMA is off (no cycles taken, as if the VIC never had the bus):
    for measuring the CPU's own cycles."""

    def __init__(self, lines, cycles_per_line, enabled=True):
        self.lines, self.cycles_per_line = lines, cycles_per_line
        self.frame = lines * cycles_per_line
        self.enabled = enabled
        self._tables = {}
        self.reset()

    def reset(self, d011=0x1B):
        self._anchor_cpu = self._anchor_bus = 0
        self._set_state(0, d011, None)

    def _table(self, yscroll):
        table = self._tables.get(yscroll)
        if table is None:
            table = self._tables[yscroll] = _FrameTables(self.lines, self.cycles_per_line, yscroll)
        return table

    def _set_state(self, bus, d011, first_frame_allowed):
        """The state from bus cycle `bus` on (the anchor's): $D011, and whether bad lines are
        allowed in the anchor's frame (None: as DEN now decides at line $30)."""
        den = bool(d011 & 0x10) and self.enabled
        yscroll = d011 & 7
        frame_start = bus - bus % self.frame
        if first_frame_allowed is None:
            first_frame_allowed = den
        self._first = self._table(yscroll if first_frame_allowed else None)
        self._later = self._table(yscroll if den else None)
        self._frame_start = frame_start
        self._first_allowed = first_frame_allowed
        # The CPU's count at the anchor frame's start, were the new state there all along.
        self._origin = self._anchor_cpu - self._first.bus_to_cpu[bus - frame_start]
        self._steals = first_frame_allowed or den

    def rebase(self, bus, old_d011, new_d011):
        """$D011 changes from old_d011 to new_d011 in bus cycle `bus`."""
        if not self.enabled:
            return
        cpu = self.cpu_time(bus)
        line = (bus % self.frame) // self.cycles_per_line
        den = bool(new_d011 & 0x10)
        if line < DEN_LINE:
            allowed = None
        elif line == DEN_LINE:
            allowed = self._first_allowed or den
        else:
            allowed = self._first_allowed if bus - bus % self.frame == self._frame_start else bool(old_d011 & 0x10)
        self._anchor_cpu, self._anchor_bus = cpu, bus
        self._set_state(bus, new_d011, allowed)

    def bus_time(self, cpu):
        """The bus cycle in which the CPU runs its cycle `cpu` (counted from power on)."""
        if not self._steals or cpu < self._anchor_cpu:
            return cpu - self._anchor_cpu + self._anchor_bus
        k = cpu - self._origin
        first = self._first
        if k < first.cpu_cycles:
            return self._frame_start + first.cpu_to_bus[k]
        later = self._later
        frames, k = divmod(k - first.cpu_cycles, later.cpu_cycles)
        return self._frame_start + self.frame * (frames + 1) + later.cpu_to_bus[k]

    def cpu_time(self, bus):
        """The CPU cycles run before bus cycle `bus`: the first the CPU can run at or after it."""
        if not self._steals or bus < self._anchor_bus:
            return bus - self._anchor_bus + self._anchor_cpu
        x = bus - self._frame_start
        first = self._first
        if x < self.frame:
            return self._origin + first.bus_to_cpu[x]
        frames, x = divmod(x - self.frame, self.frame)
        return self._origin + first.cpu_cycles + frames * self._later.cpu_cycles + self._later.bus_to_cpu[x]
