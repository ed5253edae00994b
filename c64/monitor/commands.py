"""The monitor's commands, in VICE's syntax, over a c64.machine.C64.

    mon = Monitor(machine)
    print(mon.execute("break think"))     # each command returns its output as text
    reason = mon.run()                    # run the machine; a stop prints where it is
    print(mon.execute("r"))

Every command answers with text; a bad command or argument answers with one
line ``ERROR -- ...`` (never an exception).  `execute` sets `resume` when the
command asks the machine to go on (g, x); z, n and ret run the machine
themselves and come back with the stop.

Disassembly and assembly are py65's (py65.disassembler.Disassembler,
py65.assembler.Assembler) over a read-only view of the C64 memory, with our
label table as their address parser (c64.monitor.expressions).
"""

import os
import shlex

from py65.assembler import Assembler
from py65.devices.mpu6502 import MPU
from py65.disassembler import Disassembler

from c64.cpu import CPU
from c64.monitor import labels as labels_module
from c64.monitor.debugger import Debugger, Profiler
from c64.monitor.expressions import Condition, ExpressionError, MonitorAddressParser

STEP_LIMIT = 4_000_000_000          # cycles z/n/ret may run before giving up (~68 minutes of C64)
DISASSEMBLE_LINES = 12
MEMORY_LINES = 8


class MonitorError(Exception):
    """A bad command or argument; the text is the one-line message."""


class _MemoryView:
    """What py65's Disassembler and Assembler need of an MPU, over the monitor's peek."""
    BYTE_WIDTH, ADDR_WIDTH = MPU.BYTE_WIDTH, MPU.ADDR_WIDTH
    BYTE_FORMAT, ADDR_FORMAT = "%02X", "%04X"
    byteMask, addrMask = 0xFF, 0xFFFF

    def __init__(self, peek, table):
        self.peek = peek
        self.disassemble = table

    def ByteAt(self, addr):
        return self.peek(addr & 0xFFFF)

    def WordAt(self, addr):
        return self.peek(addr & 0xFFFF) | self.peek((addr + 1) & 0xFFFF) << 8


HELP = [
    ("r [reg=val ...]", "registers, with the label and source line of PC; set: r a=$10, pc=think"),
    ("m [start [end]]", "memory in hex and text (the current bank)"),
    ("i [start [end]]", "memory as PETSCII text"),
    ("bank [cpu|ram]", "what m/i/d/> read and write: what the CPU sees (ROM, I/O) or the RAM below"),
    ("d [start [end]]", "disassemble, with label lines and symbolic operands"),
    ("a addr instruction", "assemble one instruction: a c000 lda #$01"),
    ("> addr byte ...", "write bytes"),
    ("f start end byte ...", "fill"),
    ("t start end dest", "transfer (copy)"),
    ("c start end dest", "compare"),
    ("h start end byte ...", "hunt for bytes (or \"text\")"),
    ("break [addr [end]] [if cond]", "breakpoint; no address: list them. cond: a == $05 && x != 0"),
    ("watch [load|store] addr [end] [if cond]", "stop after a load/store of the address(es)"),
    ("enable|disable|delete [n]", "a breakpoint or watch by number (none: all)"),
    ("z [count]", "step one instruction (or count)"),
    ("n [count]", "step, over a JSR"),
    ("ret", "run until the current subroutine returns"),
    ("g [addr]", "go (from addr)"),
    ("x", "leave the monitor, the program goes on"),
    ("bt", "backtrace: the JSR return addresses on the stack"),
    ("chis [count|on|off]", "the last instructions run (recorded while stepping, or always: chis on)"),
    ("io [d000|d400|dc00|dd00]", "the chips' registers (read without side effects)"),
    ("l file [addr]", "load a .prg file (at its own address or addr)"),
    ("s file start end", "save memory as a .prg file"),
    ("ll file", "load labels: Ophis .map or VICE label file (al C:c000 .name)"),
    ("shl [text]", "show the labels (containing text)"),
    ("src [addr] [lines]", "the source lines around PC (or addr)"),
    ("screen", "the C64 screen as text"),
    ("prof on|off|show [count]", "profiler: C64 cycles per routine, with and without its callees"),
    ("help [command]", "this list"),
]


class Monitor:
    """A VICE-style monitor over one machine (see the module docstring)."""

    def __init__(self, machine):
        self.machine = machine
        self.debugger = Debugger(machine)
        self.bank = "cpu"
        self.resume = False
        self._labels_program = None
        self._auto_labels = None
        self._loaded = []                 # paths given to ll, kept across program changes
        self.labels = labels_module.LabelTable()
        self.parser = MonitorAddressParser(self.labels, machine.cpu)
        self._next_d = None
        self._next_m = None
        self._refresh_labels()

    # -- labels follow the program ----------------------------------------------------------
    def _refresh_labels(self):
        program = self.machine.program
        if program is self._labels_program:
            return
        self._labels_program = program
        table = labels_module.for_program(program)
        for path in self._loaded:
            try:
                table.load(path)
            except labels_module.LabelError:
                pass
        self.labels = table
        self.parser.table = table

    # -- the command line ---------------------------------------------------------------------
    def execute(self, line):
        """Run one command line; returns its output (without a final newline)."""
        self.resume = False
        self._refresh_labels()
        self.parser.cpu = self.machine.cpu
        line = line.strip()
        if not line or line.startswith(";") or line.startswith("#"):
            return ""
        word, _, rest = line.partition(" ")
        if word[0] == ">" and len(word) > 1:          # >c000 01 02
            word, rest = ">", word[1:] + " " + rest
        name = word.lower()
        handler = _COMMANDS.get(name)
        if handler is None:
            return "ERROR -- unknown command '%s' (help lists them)" % word
        try:
            return getattr(self, handler)(rest.strip())
        except (MonitorError, ExpressionError, labels_module.LabelError) as error:
            return "ERROR -- %s" % error
        except Exception as error:      # a bug in a command: one line, the monitor goes on
            return "ERROR -- internal error in '%s': %s: %s" % (name, type(error).__name__, error)

    def address(self, text):
        return self.parser.number(text)

    def _range(self, args, default_length=None, default_start=None):
        """(start, end) from 'start [end]' (split on spaces); end inclusive."""
        if not args:
            if default_start is None:
                raise MonitorError("missing address")
            start = default_start
            return start, min(0xFFFF, start + default_length - 1)
        start = self.address(args[0])
        if len(args) > 1:
            end = self.address(args[1])
            if end < start:
                raise MonitorError("the end $%04X is before the start $%04X" % (end, start))
            return start, end
        return start, min(0xFFFF, start + (default_length or 1) - 1)

    def _bytes(self, words):
        values = []
        for word in words:
            if len(word) >= 2 and word[0] == word[-1] == '"':
                values.extend(ord(c) & 0xFF for c in word[1:-1])
                continue
            value = self.parser.evaluate(word)
            if value > 0xFF:
                raise MonitorError("not a byte: '%s'" % word)
            values.append(value)
        if not values:
            raise MonitorError("missing bytes")
        return values

    @staticmethod
    def _split(text):
        try:
            return shlex.split(text, posix=False)
        except ValueError as error:
            raise MonitorError("bad arguments: %s" % error) from None

    # -- memory access (never disturbs the machine) ----------------------------------------
    def peek(self, addr, bank=None):
        """A byte as the monitor shows it: RAM, or what the CPU would read (chips without side effects)."""
        bank = bank or self.bank
        mem = self.machine.mem
        if bank == "ram":
            return mem.ram[addr]
        if 0xD000 <= addr < 0xE000 and mem.page_sources[addr >> 8] is None:
            return self._peek_io(addr)
        return mem[addr]

    def _peek_io(self, addr):
        m = self.machine
        page = addr >> 8
        if page < 0xD4:
            reg = addr & 0x3F
            if reg == 0x19:
                vic = m.vic
                pending = 0x80 if vic.irq_latch & vic.regs[0x1A] & 0x0F else 0
                return vic.irq_latch | pending | 0x70
            return m.vic.read(reg)
        if page < 0xD8:
            return m.sid.regs[addr & 0x1F]
        if page < 0xDC:
            return 0xF0 | m.mem.io.colour_ram[addr - 0xD800]
        if page in (0xDC, 0xDD):
            cia = m.cia1 if page == 0xDC else m.cia2
            reg = addr & 0x0F
            if reg == 0x0D:
                flags = getattr(cia, "icr_flags", 0)
                mask = getattr(cia, "icr_mask", 0)
                return flags | (0x80 if flags & mask & 0x1F else 0)
            if 0x08 <= reg <= 0x0B and hasattr(cia, "_tod_registers"):
                return cia._tod_registers()[reg - 0x08]
            return cia.read(reg)
        return 0xFF

    def poke(self, addr, value):
        """Write a byte in the current bank; translated code over it is dropped."""
        mem = self.machine.mem
        if self.bank == "ram":
            mem.ram[addr] = value
            if mem.code_map[addr] and mem.code_written is not None:
                mem.code_written(addr)
            if addr < 2:
                mem.rebank()
        else:
            mem[addr] = value

    def _view(self, table=CPU.disassemble):
        return _MemoryView(self.peek, table)

    # -- registers ------------------------------------------------------------------------------
    def registers_line(self):
        cpu, mem = self.machine.cpu, self.machine.mem
        return ("  ADDR A  X  Y  SP 00 01 NV-BDIZC     CYCLES\n"
                ".;%04X %02X %02X %02X %02X %02X %02X %s %10d"
                % (cpu.pc, cpu.a, cpu.x, cpu.y, cpu.sp, mem.ram[0], mem.ram[1],
                   format(cpu.p, "08b"), cpu.processorCycles))

    def where(self, address):
        return self.labels.where(address)

    def cmd_registers(self, args):
        if args:
            self._set_registers(args)
        text = self.registers_line()
        where = self.where(self.machine.cpu.pc)
        return text + ("\n" + where if where else "")

    def _set_registers(self, args):
        cpu = self.machine.cpu
        for item in args.replace(",", " ").replace(" = ", "=").replace("= ", "=").replace(" =", "=").split():
            name, eq, value = item.partition("=")
            name = name.lower()
            if not eq or name not in ("a", "x", "y", "sp", "pc", "p"):
                raise MonitorError("bad register assignment '%s' (write: r a=$10, pc=think)" % item)
            number = self.parser.evaluate(value)
            if name != "pc" and number > 0xFF:
                raise MonitorError("%s is one byte, not $%04X" % (name.upper(), number))
            setattr(cpu, name, number)
            if name == "pc":
                self.machine.waiting = False

    # -- memory ------------------------------------------------------------------------------------
    def cmd_memory(self, args):
        words = self._split(args)
        start, end = self._range(words, 16 * MEMORY_LINES, self._next_m if self._next_m is not None
                                 else self.machine.cpu.pc)
        from charset.glyphs import screen_to_text
        from charset.petscii import petscii_to_screen
        lines = []
        prefix = ">C:" if self.bank == "cpu" else ">R:"
        for row in range(start, end + 1, 16):
            values = [self.peek(a) for a in range(row, min(row + 16, end + 1))]
            text = "".join(screen_to_text(bytes([petscii_to_screen(v) or 0x2E])) if 0x20 <= v < 0x80
                           or 0xA0 <= v else "." for v in values)
            lines.append("%s%04X  %-48s %s" % (prefix, row, " ".join("%02X" % v for v in values), text))
        self._next_m = (end + 1) & 0xFFFF
        return "\n".join(lines)

    def cmd_text(self, args):
        words = self._split(args)
        start, end = self._range(words, 40 * 4, self._next_m if self._next_m is not None
                                 else self.machine.cpu.pc)
        from charset.glyphs import screen_to_text
        from charset.petscii import petscii_to_screen
        lines = []
        for row in range(start, end + 1, 40):
            values = [self.peek(a) for a in range(row, min(row + 40, end + 1))]
            screen = bytes(petscii_to_screen(v) if petscii_to_screen(v) is not None else 0x2E
                           for v in values)
            lines.append(">C:%04X  %s" % (row, screen_to_text(screen)))
        self._next_m = (end + 1) & 0xFFFF
        return "\n".join(lines)

    def cmd_bank(self, args):
        if args:
            bank = args.lower()
            if bank not in ("cpu", "ram"):
                raise MonitorError("unknown bank '%s' (cpu or ram)" % args)
            self.bank = bank
        return "bank: %s (%s)" % (self.bank, "what the CPU sees: ROM and I/O where banked in"
                                  if self.bank == "cpu" else "the RAM, under ROM and I/O too")

    def cmd_write(self, args):
        words = self._split(args)
        if len(words) < 2:
            raise MonitorError("write: > addr byte ...")
        start = self.address(words[0])
        values = self._bytes(words[1:])
        for offset, value in enumerate(values):
            self.poke((start + offset) & 0xFFFF, value)
        return ""

    def cmd_fill(self, args):
        words = self._split(args)
        if len(words) < 3:
            raise MonitorError("fill: f start end byte ...")
        start, end = self._range(words[:2])
        values = self._bytes(words[2:])
        for offset, addr in enumerate(range(start, end + 1)):
            self.poke(addr, values[offset % len(values)])
        return ""

    def cmd_transfer(self, args):
        words = self._split(args)
        if len(words) != 3:
            raise MonitorError("transfer: t start end dest")
        start, end = self._range(words[:2])
        dest = self.address(words[2])
        values = [self.peek(a) for a in range(start, end + 1)]
        for offset, value in enumerate(values):
            self.poke((dest + offset) & 0xFFFF, value)
        return ""

    def cmd_compare(self, args):
        words = self._split(args)
        if len(words) != 3:
            raise MonitorError("compare: c start end dest")
        start, end = self._range(words[:2])
        dest = self.address(words[2])
        lines = []
        for offset, addr in enumerate(range(start, end + 1)):
            other = (dest + offset) & 0xFFFF
            a, b = self.peek(addr), self.peek(other)
            if a != b:
                lines.append("$%04X $%04X: %02X %02X" % (addr, other, a, b))
        return "\n".join(lines) if lines else "no differences"

    def cmd_hunt(self, args):
        words = self._split(args)
        if len(words) < 3:
            raise MonitorError("hunt: h start end byte ...")
        start, end = self._range(words[:2])
        values = self._bytes(words[2:])
        found = []
        data = [self.peek(a) for a in range(start, end + 1)]
        for offset in range(len(data) - len(values) + 1):
            if data[offset:offset + len(values)] == values:
                found.append(start + offset)
        return "\n".join(("%04X" % a) + ("  " + self.labels.describe(a) if self.labels.describe(a) else "")
                         for a in found) or "not found"

    # -- code ------------------------------------------------------------------------------------
    def disassemble_lines(self, start, end=None, count=None):
        disassembler = Disassembler(self._view(), self.parser)
        lines = []
        addr = start
        while True:
            if end is not None and addr > end:
                break
            if count is not None and len(lines) >= count:
                break
            label = self.labels._shown.get(addr)
            if label is not None and label.kind in (labels_module.LABEL, labels_module.VARIABLE):
                lines.append("%s:" % self.labels.name_at(addr, addr))
            self.parser.near = addr
            length, text = disassembler.instruction_at(addr)
            raw = " ".join("%02X" % self.peek((addr + i) & 0xFFFF) for i in range(length))
            lines.append(".C:%04X  %-9s  %s" % (addr, raw, text))
            addr += length
            if addr > 0xFFFF:
                break
        self.parser.near = None
        self._next_d = addr & 0xFFFF
        return lines

    def cmd_disassemble(self, args):
        words = self._split(args)
        if not words:
            start = self._next_d if self._next_d is not None else self.machine.cpu.pc
            return "\n".join(self.disassemble_lines(start, count=DISASSEMBLE_LINES))
        start = self.address(words[0])
        if len(words) == 1:
            return "\n".join(self.disassemble_lines(start, count=DISASSEMBLE_LINES))
        if len(words) > 2:
            raise MonitorError("disassemble: d [start [end]]")
        end = self.address(words[1])
        if end < start:
            raise MonitorError("the end $%04X is before the start $%04X" % (end, start))
        return "\n".join(self.disassemble_lines(start, end=end))

    def cmd_assemble(self, args):
        addr_text, _, statement = args.partition(" ")
        if not addr_text or not statement.strip():
            raise MonitorError("assemble: a addr instruction (a c000 lda #$01)")
        addr = self.address(addr_text)
        # MPU's table: documented opcodes only (py65's assembler takes the first match).
        assembler = Assembler(self._view(MPU.disassemble), self.parser)
        try:
            values = assembler.assemble(statement.strip(), addr)
        except (SyntaxError, OverflowError, ExpressionError, KeyError, ValueError):
            raise MonitorError("cannot assemble '%s'" % statement.strip()) from None
        for offset, value in enumerate(values):
            self.poke((addr + offset) & 0xFFFF, value)
        return "\n".join(line for line in self.disassemble_lines(addr, count=1) if line.startswith("."))

    # -- checkpoints ---------------------------------------------------------------------------------
    def _split_condition(self, args):
        text, _, condition = args.partition(" if ")
        if args.startswith("if "):
            text, condition = "", args[3:]
        return text.strip(), (Condition(condition, self.parser) if condition.strip() else None)

    def cmd_break(self, args):
        if not args:
            return self._list_points()
        text, condition = self._split_condition(args)
        words = self._split(text)
        if not words:
            raise MonitorError("break: break addr [end] [if cond]")
        start, end = self._range(words)
        point = self.debugger.add("exec", start, end, condition)
        return self._describe_point(point)

    def cmd_watch(self, args):
        if not args:
            return self._list_points()
        text, condition = self._split_condition(args)
        words = self._split(text)
        kind = "both"
        if words and words[0].lower() in ("load", "store", "l", "s"):
            kind = {"l": "load", "s": "store"}.get(words[0].lower(), words[0].lower())
            words = words[1:]
        if not words:
            raise MonitorError("watch: watch [load|store] addr [end] [if cond]")
        start, end = self._range(words)
        point = self.debugger.add(kind, start, end, condition)
        return self._describe_point(point)

    def _describe_point(self, point):
        kinds = {"exec": "exec", "load": "load", "store": "store", "both": "load store"}
        where = "$%04X" % point.start
        if point.end != point.start:
            where += "-$%04X" % point.end
        name = self.labels.describe(point.start)
        text = "%s: %s %s%s%s" % ("BREAK" if point.kind == "exec" else "WATCH", kinds[point.kind], where,
                                  " (%s)" % name if name else "", "" if point.enabled else " disabled")
        if point.condition is not None:
            text += " if %s" % point.condition
        return "#%d %s" % (point.number, text)

    def _list_points(self):
        points = self.debugger.points
        if not points:
            return "no breakpoints or watches"
        return "\n".join(self._describe_point(points[n]) + ("  hits %d" % points[n].hits)
                         for n in sorted(points))

    def _points_arg(self, args):
        if not args:
            return sorted(self.debugger.points)
        numbers = []
        for word in args.replace(",", " ").split():
            try:
                number = int(word, 10)
            except ValueError:
                raise MonitorError("not a checkpoint number: '%s'" % word) from None
            if number not in self.debugger.points:
                raise MonitorError("no checkpoint #%d" % number)
            numbers.append(number)
        return numbers

    def cmd_enable(self, args, on=True):
        for number in self._points_arg(args):
            self.debugger.points[number].enabled = on
        self.debugger.changed()
        return ""

    def cmd_disable(self, args):
        return self.cmd_enable(args, on=False)

    def cmd_delete(self, args):
        for number in self._points_arg(args):
            self.debugger.remove(number)
        return ""

    # -- running ---------------------------------------------------------------------------------
    def run(self, max_cycles=None):
        """Run the machine until it stops; returns (StopReason, text of the stop or '')."""
        from c64.machine import StopReason
        debugger = self.debugger
        if debugger.stopped_at == self.machine.cpu.pc:
            debugger.skip_pc = debugger.stopped_at      # going on from a stop: pass its breakpoint
        debugger.hit = debugger.stopped_at = None
        reason = self.machine.run(max_cycles)
        if reason is StopReason.BREAK:
            return reason, self.stop_text()
        return reason, ""

    def stop_text(self):
        hit = self.debugger.hit
        cpu = self.machine.cpu
        lines = []
        if hit is not None:
            point, kind, address = hit
            if point is not None:
                lines.append("#%d (Stop on %s $%04X)" % (point.number, kind, address))
        lines.append(self.status_line())
        return "\n".join(lines)

    def status_line(self):
        """The instruction at PC with the registers, and where it comes from."""
        cpu = self.machine.cpu
        instruction = [line for line in self.disassemble_lines(cpu.pc, count=1) if line.startswith(".")][0]
        flags = "".join(c if cpu.p & bit else "." for c, bit in zip("NV-BDIZC", (128, 64, 32, 16, 8, 4, 2, 1)))
        text = "%-36s - A:%02X X:%02X Y:%02X SP:%02X %s" % (instruction, cpu.a, cpu.x, cpu.y, cpu.sp, flags)
        where = self.where(cpu.pc)
        return text + ("\n" + where if where else "")

    def _step(self, goal, description):
        from c64.machine import StopReason
        debugger = self.debugger
        debugger.goal = goal
        debugger.changed()
        try:
            reason, text = self.run(STEP_LIMIT)
        finally:
            debugger.goal = None
            debugger.changed()
        if reason is StopReason.BREAK:
            return text
        return self._not_stopped(reason, description)

    def _not_stopped(self, reason, description):
        from c64.machine import StopReason
        if reason is StopReason.IDLE:
            return "%s: the program waits for a key\n%s" % (description, self.status_line())
        if reason is StopReason.ERROR:
            return "%s: the program stopped: %s" % (description, self.machine.error)
        if reason is StopReason.BASIC:
            return "%s: the program returned to BASIC" % description
        return "%s: stopped (%s)\n%s" % (description, reason.value, self.status_line())

    def _count(self, args):
        if not args:
            return 1
        try:
            count = self.parser.evaluate(args)
        except ExpressionError:
            raise MonitorError("not a count: '%s'" % args) from None
        if count < 1:
            raise MonitorError("the count must be at least 1")
        return count

    def cmd_step(self, args):
        left = [self._count(args)]

        def goal(cpu, opcode, sp_before):
            left[0] -= 1
            return left[0] <= 0
        return self._step(goal, "z")

    def cmd_next(self, args):
        left = [self._count(args)]
        state = {"return_to": None}

        def goal(cpu, opcode, sp_before):
            if state["return_to"] is not None:
                address, sp = state["return_to"]
                if cpu.pc != address or cpu.sp != sp:
                    return False
                state["return_to"] = None
            elif opcode == 0x20:
                state["return_to"] = ((cpu.memory[(cpu.sp + 1) & 0xFF | 0x100]
                                       | cpu.memory[(cpu.sp + 2) & 0xFF | 0x100] << 8) + 1, sp_before)
                return False
            left[0] -= 1
            return left[0] <= 0
        return self._step(goal, "n")

    def cmd_return(self, args):
        if args:
            raise MonitorError("ret takes no arguments")
        start_sp = self.machine.cpu.sp

        def goal(cpu, opcode, sp_before):
            return opcode in (0x60, 0x40) and cpu.sp > start_sp and cpu.sp - start_sp < 0x80
        return self._step(goal, "ret")

    def cmd_go(self, args):
        if args:
            self.machine.cpu.pc = self.address(args)
            self.machine.waiting = False
        self._resume()
        return ""

    def _resume(self):
        """The program goes on from pc: a breakpoint there is passed (whoever runs the machine)."""
        self.resume = True
        self.debugger.skip_pc = self.machine.cpu.pc

    def cmd_exit(self, args):
        if args:
            raise MonitorError("x takes no arguments")
        self._resume()
        return ""

    def cmd_backtrace(self, args):
        cpu, ram = self.machine.cpu, self.machine.mem.ram
        lines = ["#0 $%04X  %s" % (cpu.pc, self.where(cpu.pc))]
        sp = cpu.sp + 1
        while sp < 0xFF:
            word = ram[0x100 + sp] | ram[0x100 + sp + 1] << 8
            caller = (word - 2) & 0xFFFF
            if self.peek(caller) == 0x20:
                target = self.peek((caller + 1) & 0xFFFF) | self.peek((caller + 2) & 0xFFFF) << 8
                called = self.labels.name_at(target) or "$%04X" % target
                lines.append("#%d $%04X  %s  (jsr %s; stack $%04X)"
                             % (len(lines), caller, self.where(caller), called, 0x100 + sp))
                sp += 2
            else:
                sp += 1
        return "\n".join(lines)

    def cmd_history(self, args):
        debugger = self.debugger
        word = args.lower()
        if word in ("on", "off"):
            debugger.recording = word == "on"
            debugger.changed()
            return "history recording %s%s" % (word, " (the machine steps instruction by instruction)"
                                                if word == "on" else "")
        count = self._count(args) if args else 20
        entries = list(debugger.history)[-count:]
        if not entries:
            return "no instructions recorded (they are while stepping, or after chis on)"
        disassembler = Disassembler(self._view(), self.parser)
        lines = []
        for pc, a, x, y, sp, p, cycles in entries:
            self.parser.near = pc
            length, text = disassembler.instruction_at(pc)
            lines.append(".C:%04X  %-16s A:%02X X:%02X Y:%02X SP:%02X %10d  %s"
                         % (pc, text, a, x, y, sp, cycles, self.labels.describe(pc)))
        self.parser.near = None
        return "\n".join(lines)

    # -- chips ---------------------------------------------------------------------------------------
    def cmd_io(self, args):
        chips = {0xD000: ("VIC-II", 0x2F), 0xD400: ("SID (as written)", 0x1D),
                 0xDC00: ("CIA 1", 0x10), 0xDD00: ("CIA 2", 0x10)}
        if args:
            base = self.address(args) & 0xFF00
            if base not in chips:
                raise MonitorError("no chip at $%04X (d000, d400, dc00, dd00)" % base)
            selected = [base]
        else:
            selected = sorted(chips)
        lines = []
        for base in selected:
            name, count = chips[base]
            lines.append("%s at $%04X:" % (name, base))
            for row in range(0, count, 16):
                values = [self._peek_io(base + r) for r in range(row, min(row + 16, count))]
                lines.append("  $%04X  %s" % (base + row, " ".join("%02X" % v for v in values)))
        mem = self.machine.mem
        lines.append("processor port: $00=%02X $01=%02X (BASIC %s, KERNAL %s, %s)"
                     % (mem.ddr, mem.port_value(), *self._bank_words()))
        return "\n".join(lines)

    def _bank_words(self):
        basic, io, char, kernal = self.machine.mem.visible()
        return ("in" if basic else "out", "in" if kernal else "out",
                "I/O" if io else ("char ROM" if char else "RAM at $D000"))

    # -- files ----------------------------------------------------------------------------------------
    def _filename(self, word):
        if len(word) >= 2 and word[0] == word[-1] and word[0] in "\"'":
            return word[1:-1]
        return word

    def cmd_load(self, args):
        words = self._split(args)
        if not words or len(words) > 2:
            raise MonitorError("load: l file [addr]")
        path = self._filename(words[0])
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError as error:
            raise MonitorError("cannot read %s: %s" % (path, error.strerror or error)) from None
        if len(data) < 2:
            raise MonitorError("%s is not a .prg file (shorter than its load address)" % path)
        start = self.address(words[1]) if len(words) > 1 else data[0] | data[1] << 8
        body = data[2:]
        if start + len(body) > 0x10000:
            raise MonitorError("%s does not fit below $FFFF from $%04X" % (path, start))
        for offset, value in enumerate(body):
            self.poke(start + offset, value)
        return "loaded %s: $%04X-$%04X" % (path, start, start + max(len(body), 1) - 1)

    def cmd_save(self, args):
        words = self._split(args)
        if len(words) != 3:
            raise MonitorError("save: s file start end")
        path = self._filename(words[0])
        start, end = self._range(words[1:])
        data = bytes([start & 0xFF, start >> 8] + [self.peek(a) for a in range(start, end + 1)])
        try:
            with open(path, "wb") as handle:
                handle.write(data)
        except OSError as error:
            raise MonitorError("cannot write %s: %s" % (path, error.strerror or error)) from None
        return "saved %s: $%04X-$%04X" % (path, start, end)

    # -- labels and sources ---------------------------------------------------------------------------
    def cmd_load_labels(self, args):
        words = self._split(args)
        if len(words) != 1:
            raise MonitorError("load labels: ll file")
        path = self._filename(words[0])
        count = self.labels.load(path)
        self._loaded.append(path)
        return "%d labels loaded from %s" % (count, path)

    def cmd_show_labels(self, args):
        table = self.labels
        if not len(table):
            return "no labels (ll file loads some)"
        needle = args.lower()
        rows = sorted(((label.address, label.qualified) for label in table.labels
                       if label.kind != labels_module.CONSTANT and needle in label.qualified.lower()))
        if not rows:
            return "no label contains '%s'" % args
        return "\n".join("$%04X %s" % row for row in rows)

    def cmd_source(self, args):
        words = self._split(args)
        address = self.address(words[0]) if words else self.machine.cpu.pc
        around = self._count(words[1]) if len(words) > 1 else 5
        line = self.labels.line_at(address)
        if line is None:
            raise MonitorError("no source line for $%04X%s" % (
                address, "" if len(self.labels) else " (no labels loaded)"))
        path, number = line
        text = self.labels.source_lines(path)
        if text is None:
            raise MonitorError("cannot read %s" % path)
        lines = ["%s:" % self.labels.short_path(path)]
        for n in range(max(1, number - around), min(len(text), number + around) + 1):
            lines.append("%s%5d  %s" % ("=>" if n == number else "  ", n, text[n - 1].rstrip()))
        return "\n".join(lines)

    def cmd_screen(self, args):
        return "\n".join(line.rstrip() for line in self.machine.screen_lines())

    # -- profiler -------------------------------------------------------------------------------------
    def start_profiler(self):
        debugger = self.debugger
        if debugger.profiler is None:
            debugger.profiler = Profiler(self._routine_name)
            cpu = self.machine.cpu
            routine = self.labels.routine_at(cpu.pc)
            debugger.profiler.start(cpu, routine.name if routine else "$%04X" % cpu.pc)
            debugger.changed()

    def _routine_name(self, address):
        return self.labels.name_at(address) or "$%04X" % address

    def cmd_profile(self, args):
        words = args.lower().split()
        if not words:
            raise MonitorError("prof on|off|show [count]")
        debugger = self.debugger
        if words[0] == "on":
            self.start_profiler()
            return "profiler on (the machine steps instruction by instruction)"
        if words[0] == "off":
            debugger.profiler = None
            debugger.changed()
            return "profiler off"
        if words[0] == "show":
            return self.profile_table(self._count(words[1]) if len(words) > 1 else 20)
        raise MonitorError("prof on|off|show [count]")

    def profile_table(self, top=20):
        profiler = self.debugger.profiler
        if profiler is None or not profiler.total:
            return "no profile (prof on, then run)"
        total = profiler.total
        lines = ["%-22s %9s %14s %7s %14s %7s" % ("routine", "calls", "inclusive", "%", "exclusive", "%")]
        for name, calls, inclusive, exclusive in profiler.table(self.machine.cpu.processorCycles, top):
            lines.append("%-22s %9d %14d %6.1f%% %14d %6.1f%%"
                         % (name[:22], calls, inclusive, 100.0 * inclusive / total, exclusive,
                            100.0 * exclusive / total))
        lines.append("%d cycles profiled (%.2f s of C64 time)" % (total, total / self.machine.clock_hz))
        return "\n".join(lines)

    # -- help ---------------------------------------------------------------------------------------------
    def cmd_help(self, args):
        if args:
            name = args.split()[0].lower()
            handler = _COMMANDS.get(name)
            if handler is None:
                raise MonitorError("unknown command '%s'" % args)
            entries = [(usage, text) for usage, text in HELP
                       if name in usage.split()[0].split("|") or _COMMANDS.get(usage.split()[0].split("|")[0]) == handler]
            return "\n".join("%-40s %s" % entry for entry in entries)
        return "\n".join("%-40s %s" % entry for entry in HELP) + \
            "\naddresses: $c000 or c000 (hex), +49152 (decimal), labels, label+offset, pc"


_COMMANDS = {
    "r": "cmd_registers", "registers": "cmd_registers",
    "m": "cmd_memory", "mem": "cmd_memory",
    "i": "cmd_text",
    "bank": "cmd_bank",
    ">": "cmd_write",
    "f": "cmd_fill", "fill": "cmd_fill",
    "t": "cmd_transfer", "transfer": "cmd_transfer",
    "c": "cmd_compare", "compare": "cmd_compare",
    "h": "cmd_hunt", "hunt": "cmd_hunt",
    "d": "cmd_disassemble", "disass": "cmd_disassemble",
    "a": "cmd_assemble",
    "break": "cmd_break", "bk": "cmd_break",
    "watch": "cmd_watch", "w": "cmd_watch",
    "enable": "cmd_enable", "en": "cmd_enable",
    "disable": "cmd_disable", "dis": "cmd_disable",
    "delete": "cmd_delete", "del": "cmd_delete",
    "z": "cmd_step", "step": "cmd_step",
    "n": "cmd_next", "next": "cmd_next",
    "ret": "cmd_return", "return": "cmd_return",
    "g": "cmd_go", "goto": "cmd_go",
    "x": "cmd_exit", "exit": "cmd_exit",
    "bt": "cmd_backtrace", "backtrace": "cmd_backtrace",
    "chis": "cmd_history",
    "io": "cmd_io",
    "l": "cmd_load", "load": "cmd_load",
    "s": "cmd_save", "save": "cmd_save",
    "ll": "cmd_load_labels", "load_labels": "cmd_load_labels",
    "shl": "cmd_show_labels", "show_labels": "cmd_show_labels",
    "src": "cmd_source",
    "screen": "cmd_screen",
    "prof": "cmd_profile",
    "help": "cmd_help", "?": "cmd_help",
}
