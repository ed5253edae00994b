"""The monitor's commands on code and its sources: d (disassemble, with label lines and
symbolic operands), a (assemble one instruction), ll, shl (labels), src (source lines).

Disassembly and assembly are py65's (py65.disassembler.Disassembler,
py65.assembler.Assembler) over a read-only view of the C64 memory, with our
label table as their address parser (c64.monitor.expressions).
"""

from py65.assembler import Assembler
from py65.devices.mpu6502 import MPU
from py65.disassembler import Disassembler

from c64.monitor import labels as labels_module, rom_names
from c64.monitor.arguments import MonitorError
from c64.monitor.expressions import ExpressionError

DISASSEMBLE_LINES = 12


class CodeCommands:
    """Part of the Monitor (c64.monitor.commands): disassembly, assembly, labels, sources."""

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
            label = self.labels.label_at(addr)
            if label is not None and label.kind in (labels_module.LABEL, labels_module.VARIABLE):
                lines.append("%s:" % self.labels.name_at(addr, addr))
            stub = self._stub_rom_lines(addr)
            if stub is not None:                # a KERNAL or BASIC routine in Python, or filler
                shown, addr = stub
                lines += shown
                if addr > 0xFFFF:
                    break
                continue
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

    def _stub_rom_lines(self, addr):
        """(lines, next address) for the stub ROM at addr: its trap named (rom_names), or a
        run of filler as one line; None for anything else."""
        trap = rom_names.trap_name(self.machine, addr, self.bank)
        if trap is not None:
            name, text = trap
            return ["%s:" % name, ".C:%04X  02         TRAP       ; %s" % (addr, text)], addr + 1
        end = rom_names.filler_end(self.machine, addr, self.bank)
        if end is None:
            return None
        if end == addr:
            return [".C:%04X  02         (stub ROM filler: no code)" % addr], addr + 1
        return [".C:%04X  02 ...     (stub ROM filler to $%04X: no code)" % (addr, end)], end + 1

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
        """a addr [instruction]: assemble there, then take one line after another (the
        monitor's `assembling` address) until an empty line, as VICE's monitor does."""
        addr_text, _, statement = args.partition(" ")
        if not addr_text:
            raise MonitorError("assemble: a addr [instruction] (a c000 lda #$01)")
        addr = self.address(addr_text)
        if not statement.strip():
            self.assembling = addr
            return "assembling at $%04X: one instruction a line, an empty line ends" % addr
        return self.assemble_at(addr, statement.strip())

    def assemble_at(self, addr, statement):
        """One instruction at addr; the next line goes after it (`assembling`).  A line
        that does not assemble is an error and changes nothing."""
        # MPU's table: documented opcodes only (py65's assembler takes the first match).
        assembler = Assembler(self._view(MPU.disassemble), self.parser)
        try:
            values = assembler.assemble(statement, addr)
        except (SyntaxError, OverflowError, ExpressionError, KeyError, ValueError):
            raise MonitorError("cannot assemble '%s'" % statement) from None
        for offset, value in enumerate(values):
            self.poke((addr + offset) & 0xFFFF, value)
        self.assembling = (addr + len(values)) & 0xFFFF
        return "\n".join(line for line in self.disassemble_lines(addr, count=1) if line.startswith("."))

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

