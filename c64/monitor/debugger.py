"""How the machine runs while the monitor watches it: breakpoints, watches, steps, history, profile.

The machine's run loop (c64.machine.C64.run) hands each slice of CPU time to
`machine.debugger.run(target, verify)` instead of `cpu.run` when a debugger
is attached; the monitor attaches one only while something needs it (a
breakpoint, a watch, a step, the history, the profiler), so with nothing set
the machine runs exactly as without a monitor.

Two ways to run a slice:
* Breakpoints only, on the fast core (c64.fastcpu.FastCPU): the core runs
  its translated blocks with the breakpoint addresses set as block ends
  (FastCPU.set_breakpoints); a block never runs past one, so the core stops
  there at full speed.
* Anything else (watches, steps, the history, the profiler, or the plain
  py65 core): instruction by instruction on a plain py65 CPU over the same
  memory (c64.cpu.CPU), with the checks between instructions.  A KERNAL
  trap is run by the machine's own CPU (the KERNAL works on it).

A stop happens *before* the instruction at a breakpoint runs, and *after*
the instruction that touched a watched address.  Resuming skips the
breakpoint at the address the machine stands on.  The KERNAL's routines are
Python: a store watch sees what they write when it changes the byte (the
RAM under the watch is compared around each trap), a load watch does not
see what they read.
"""

from collections import deque

from c64.cpu import CPU
from kernal.locations import STACK

HISTORY_SIZE = 1000

# Names of the instructions that read / write their operand (undocumented ones included).
_STORES = {"STA", "STX", "STY", "SAX", "SHA", "TAS", "SHX", "SHY"}
_RMW = {"ASL", "LSR", "ROL", "ROR", "INC", "DEC", "SLO", "RLA", "SRE", "RRA", "DCP", "ISC"}
_NO_OPERAND_ACCESS = {"JMP", "JSR"}
_PUSHES = {"PHA": 1, "PHP": 1, "JSR": 2, "BRK": 3}
_PULLS = {"PLA": 1, "PLP": 1, "RTS": 2, "RTI": 3}


def operand_address(cpu, memory, pc, mode):
    """The effective address of the instruction at pc (mode as in py65's tables), or None."""
    if mode in ("imp", "acc", "imm", "rel"):
        return None
    if mode == "zpg":
        return memory[(pc + 1) & 0xFFFF]
    if mode == "zpx":
        return (memory[(pc + 1) & 0xFFFF] + cpu.x) & 0xFF
    if mode == "zpy":
        return (memory[(pc + 1) & 0xFFFF] + cpu.y) & 0xFF
    word = memory[(pc + 1) & 0xFFFF] | memory[(pc + 2) & 0xFFFF] << 8
    if mode == "abs":
        return word
    if mode == "abx":
        return (word + cpu.x) & 0xFFFF
    if mode == "aby":
        return (word + cpu.y) & 0xFFFF
    if mode == "ind":
        return word
    zp = memory[(pc + 1) & 0xFFFF]
    ram = memory.ram if hasattr(memory, "ram") else memory
    if mode == "inx":
        zp = (zp + cpu.x) & 0xFF
        return ram[zp] | ram[(zp + 1) & 0xFF] << 8
    if mode == "iny":
        return ((ram[zp] | ram[(zp + 1) & 0xFF] << 8) + cpu.y) & 0xFFFF
    return None


def accesses(cpu, memory, pc):
    """(loads, stores): the addresses the instruction at pc will read and write (stack included)."""
    name, mode = CPU.disassemble[memory[pc]]
    loads, stores = [], []
    where = operand_address(cpu, memory, pc, mode)
    if where is not None and name not in _NO_OPERAND_ACCESS:
        if name == "JMP" or mode == "ind":
            loads += [where, (where & 0xFF00) | ((where + 1) & 0xFF)]
        elif name in _STORES:
            stores.append(where)
        elif name in _RMW:
            loads.append(where)
            stores.append(where)
        else:
            loads.append(where)
    if name == "JMP" and mode == "ind":
        pass
    elif name in _PUSHES:
        stores += [STACK + ((cpu.sp - i) & 0xFF) for i in range(_PUSHES[name])]
    elif name in _PULLS:
        loads += [STACK + ((cpu.sp + 1 + i) & 0xFF) for i in range(_PULLS[name])]
    return loads, stores


class Checkpoint:
    """A breakpoint (kind 'exec') or a watch ('load', 'store' or both) over an address range."""

    def __init__(self, number, kind, start, end, condition=None, temporary=False):
        self.number, self.kind = number, kind
        self.start, self.end = start, end
        self.condition = condition        # c64.monitor.expressions.Condition or None
        self.enabled = True
        self.hits = 0
        self.temporary = temporary

    def covers(self, address):
        return self.start <= address <= self.end

    def triggered(self, cpu):
        return self.condition is None or self.condition(cpu)


class Profiler:
    """C64 cycles per routine: exclusive (its own instructions) and inclusive (with its callees).

    A routine is what a JSR (or an interrupt) enters; it ends when the stack pointer
    rises above where the JSR left it (its RTS, or a KERNAL trap's return, or code that
    drops the return address).  Names come from `name_of(address)`."""

    def __init__(self, name_of):
        self.name_of = name_of
        self.exclusive = {}
        self.inclusive = {}
        self.calls = {}
        self.frames = []             # [name, sp after the call, start cycle]
        self.active = {}             # name -> frames open for it (recursion counts once)
        self.total = 0
        self.last_pc = None
        self.last_sp = None

    def start(self, cpu, name):
        if not self.frames:
            self._enter(name, 0x1FF, cpu.processorCycles)

    def _enter(self, name, sp, cycle):
        self.frames.append([name, sp, cycle])
        self.calls[name] = self.calls.get(name, 0) + 1
        count = self.active.get(name, 0)
        self.active[name] = count + 1

    def _leave(self, cycle):
        name, _, start = self.frames.pop()
        count = self.active[name] - 1
        self.active[name] = count
        if count == 0:
            self.inclusive[name] = self.inclusive.get(name, 0) + cycle - start
            # the outermost open frame of this name started the period just counted
        return name

    def interrupted(self, cpu):
        """The machine took an interrupt since the last instruction (pc moved, 3 bytes pushed)."""
        if self.last_pc is not None and cpu.pc != self.last_pc and cpu.sp == (self.last_sp - 3) & 0xFF:
            self._enter(self.name_of(cpu.pc), cpu.sp, cpu.processorCycles - 7)
            self.exclusive[self.frames[-1][0]] = self.exclusive.get(self.frames[-1][0], 0) + 7
            self.total += 7

    def count(self, cycles, opcode, cpu):
        """After one instruction: `cycles` it took, its opcode, the CPU after it."""
        self.total += cycles
        frames = self.frames
        name = frames[-1][0]
        self.exclusive[name] = self.exclusive.get(name, 0) + cycles
        sp = cpu.sp
        if opcode == 0x20:
            self._enter(self.name_of(cpu.pc), sp, cpu.processorCycles)     # (the JSR is the caller's)
        else:
            while len(frames) > 1 and sp > frames[-1][1] and sp - frames[-1][1] < 0x80:
                self._leave(cpu.processorCycles)
        self.last_pc, self.last_sp = cpu.pc, sp

    def table(self, now, top=20):
        """Rows (name, calls, inclusive, exclusive), the heaviest inclusive first."""
        inclusive = dict(self.inclusive)
        seen = set()
        for name, _, start in self.frames:            # frames still open count up to now
            if name not in seen:
                seen.add(name)
                inclusive[name] = inclusive.get(name, 0) + now - start
        names = set(inclusive) | set(self.exclusive)
        rows = [(name, self.calls.get(name, 0), inclusive.get(name, 0), self.exclusive.get(name, 0))
                for name in names]
        rows.sort(key=lambda row: (-row[2], -row[3], row[0]))
        return rows[:top]


class Debugger:
    """Runs the machine's CPU slices with breakpoints, watches, steps, history and profiler."""

    def __init__(self, machine):
        self.machine = machine
        self.points = {}               # number -> Checkpoint
        self._next_number = 1
        self.history = deque(maxlen=HISTORY_SIZE)
        self.recording = False         # chis on: record every instruction (steps the CPU)
        self.profiler = None
        self.goal = None               # callable(cpu, opcode, sp_before) -> True: stop (z, n, ret)
        self.skip_pc = None            # resuming: the breakpoint at this pc is passed once
        self.hit = None                # why the last run stopped: (Checkpoint or None, kind, address)
        self.stopped_at = None         # pc where the last run stopped
        self._stepper = CPU(machine.mem)
        self.instructions = 0

    # -- checkpoints -------------------------------------------------------------------------
    def add(self, kind, start, end=None, condition=None, temporary=False):
        point = Checkpoint(self._next_number, kind, start, start if end is None else end,
                           condition, temporary)
        self.points[point.number] = point
        self._next_number += 1
        self.changed()
        return point

    def remove(self, number):
        del self.points[number]
        self.changed()

    def changed(self):
        """Attach to the machine while anything needs it; tell the fast core the breakpoints."""
        needed = (any(p.enabled for p in self.points.values()) or self.recording
                  or self.profiler is not None or self.goal is not None)
        self.machine.debugger = self if needed else None
        setter = getattr(self.machine.cpu, "set_breakpoints", None)
        if setter is not None:
            # (Kept while the machine steps too: changing them drops the translations.)
            setter(self._exec_addresses() if needed else ())

    def _exec_addresses(self):
        addresses = set()
        for point in self.points.values():
            if point.enabled and point.kind == "exec":
                addresses.update(range(point.start, point.end + 1))
        return addresses

    def _watches(self):
        return [p for p in self.points.values() if p.enabled and p.kind != "exec"]

    def _must_step(self):
        return (self.recording or self.profiler is not None or self.goal is not None
                or bool(self._watches())
                or not hasattr(self.machine.cpu, "set_breakpoints"))

    # -- running -------------------------------------------------------------------------------
    def run(self, target, verify, exact=False, irq_waiting=False):
        """One slice of the machine's run: returns True if it stopped (self.hit says why).
        (`exact`, `irq_waiting`: as the CPU's run has them.)"""
        cpu = self.machine.cpu
        if self._must_step():
            return self._step_slice(cpu, target, irq_waiting)
        if self.skip_pc is not None and cpu.pc == self.skip_pc:
            # Leaving a breakpoint (or one whose condition was false): that one instruction
            # steps, then the core runs on.
            if self._step_slice(cpu, cpu.processorCycles + 1):
                return True
            if (cpu.processorCycles >= target or cpu.stop_requested
                    or (irq_waiting and not cpu.p & 0x04)):
                return False
        self.skip_pc = None
        cpu.run(target, verify, exact, irq_waiting)
        if cpu.breakpoint_hit:
            pc = cpu.pc
            point = self._exec_point(pc, cpu)
            if point is not None:
                return self._stop(point, "exec", pc)
            self.skip_pc = pc               # its condition is false: pass it on the next slice
        return False

    def _exec_point(self, pc, cpu):
        for point in self.points.values():
            if point.enabled and point.kind == "exec" and point.covers(pc) and point.triggered(cpu):
                return point
        return None

    def _stop(self, point, kind, address):
        if point is not None:
            point.hits += 1
            if point.temporary:
                self.remove(point.number)
        self.hit = (point, kind, address)
        self.stopped_at = self._stepper.pc if kind != "exec" else address
        self.skip_pc = None
        return True

    def _step_slice(self, cpu, target, irq_waiting=False):
        """Instruction by instruction until target cycles, a stop or cpu.stop() (or, with
        `irq_waiting`, an instruction that leaves the I flag clear: CPU.run); each noted in
        cpu.last_step as CPU.run does."""
        memory = self.machine.mem
        stepper = self._stepper
        stepper.a, stepper.x, stepper.y, stepper.sp = cpu.a, cpu.x, cpu.y, cpu.sp
        stepper.pc, stepper.p, stepper.processorCycles = cpu.pc, cpu.p, cpu.processorCycles
        cpu.stop_requested = False
        execs = self._exec_addresses()
        watches = self._watches()
        history = self.history if self.recording or self.goal is not None else None
        profiler, goal = self.profiler, self.goal
        if profiler is not None:
            profiler.interrupted(stepper)
        stopped = False
        try:
            while (stepper.processorCycles < target and not cpu.stop_requested
                   and not (irq_waiting and not stepper.p & 0x04)):
                pc = stepper.pc
                cpu.last_step = (pc, stepper.p, stepper.processorCycles)
                if execs and pc in execs and pc != self.skip_pc:
                    point = self._exec_point(pc, stepper)
                    if point is not None:
                        stopped = self._stop(point, "exec", pc)
                        break
                self.skip_pc = None
                opcode = memory[pc]
                if watches:
                    loads, stores = accesses(stepper, memory, pc)
                if history is not None:
                    history.append((pc, stepper.a, stepper.x, stepper.y, stepper.sp, stepper.p,
                                    stepper.processorCycles))
                sp_before, cycles_before = stepper.sp, stepper.processorCycles
                if opcode == 0x02 and memory.rom_visible(pc):
                    before = self._watched_bytes(watches)
                    self._trap(cpu, stepper)
                    if before:
                        changed = self._kernal_store(watches, before, stepper)
                        if changed is not None:
                            stopped = self._stop(*changed)
                            break
                else:
                    stepper.step()
                self.instructions += 1
                if profiler is not None:
                    profiler.count(stepper.processorCycles - cycles_before, opcode, stepper)
                if watches:
                    point = self._watch_hit(watches, loads, stores, stepper)
                    if point is not None:
                        stopped = self._stop(*point)
                        break
                if goal is not None and goal(stepper, opcode, sp_before):
                    stopped = self._stop(None, "step", stepper.pc)
                    break
        finally:
            cpu.a, cpu.x, cpu.y, cpu.sp = stepper.a, stepper.x, stepper.y, stepper.sp
            cpu.pc, cpu.p, cpu.processorCycles = stepper.pc, stepper.p, stepper.processorCycles
        return stopped

    def _trap(self, cpu, stepper):
        """A KERNAL trap: the machine's CPU runs it (the KERNAL works on machine.cpu)."""
        cpu.a, cpu.x, cpu.y, cpu.sp = stepper.a, stepper.x, stepper.y, stepper.sp
        cpu.pc, cpu.p, cpu.processorCycles = stepper.pc, stepper.p, stepper.processorCycles
        stop = cpu.stop_requested
        CPU.step(cpu)
        cpu.stop_requested = cpu.stop_requested or stop
        stepper.a, stepper.x, stepper.y, stepper.sp = cpu.a, cpu.x, cpu.y, cpu.sp
        stepper.pc, stepper.p, stepper.processorCycles = cpu.pc, cpu.p, cpu.processorCycles

    def _watched_bytes(self, watches):
        """The RAM under the store watches (a KERNAL routine in Python writes RAM directly)."""
        ram = self.machine.mem.ram
        return {p.number: bytes(ram[p.start:p.end + 1]) for p in watches if p.kind != "load"}

    def _kernal_store(self, watches, before, cpu):
        ram = self.machine.mem.ram
        for point in watches:
            old = before.get(point.number)
            if old is not None and bytes(ram[point.start:point.end + 1]) != old and point.triggered(cpu):
                offset = next(i for i, b in enumerate(old) if ram[point.start + i] != b)
                return point, "store", point.start + offset
        return None

    @staticmethod
    def _watch_hit(watches, loads, stores, cpu):
        for point in watches:
            for kind, addresses in (("load", loads), ("store", stores)):
                if point.kind in (kind, "both"):
                    for address in addresses:
                        if point.covers(address) and point.triggered(cpu):
                            return point, kind, address
        return None
