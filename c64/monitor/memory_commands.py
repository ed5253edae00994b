"""The monitor's commands on memory, registers, chips and files: r, m, i, bank, >, f, t,
c, h, io, l, s, screen; and peek/poke, which never disturb the machine."""

from py65.devices.mpu6502 import MPU

from charset.glyphs import screen_to_text
from charset.petscii import petscii_to_screen
from c64.host import files as hostfiles
from c64.cpu import CPU
from c64.monitor import rom_names
from c64.monitor.arguments import MonitorError

MEMORY_LINES = 8
PRG_LIMIT = 0x10000 + 2         # a load address and 64 KB: the most a program file can put in memory


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


class MemoryCommands:
    """Part of the Monitor (c64.monitor.commands): memory, registers, chips, files."""

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
            return m.vic.peek(addr & 0x3F)
        if page < 0xD8:
            return m.sid.regs[addr & 0x1F]
        if page < 0xDC:
            return 0xF0 | m.mem.io.colour_ram[addr - 0xD800]
        if page in (0xDC, 0xDD):
            return (m.cia1 if page == 0xDC else m.cia2).peek(addr & 0x0F)
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
        """The label and source line of `address`, or the KERNAL or BASIC routine there."""
        return self.labels.where(address) or rom_names.where(self.machine, address)

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
    def cmd_load(self, args):
        words = self._split(args)
        if not words or len(words) > 2:
            raise MonitorError("load: l file [addr]")
        path = self._filename(words[0])
        try:
            data = hostfiles.read_bytes(path, PRG_LIMIT)
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
            hostfiles.replace(path, data)
        except OSError as error:
            raise MonitorError("cannot write %s: %s" % (path, error.strerror or error)) from None
        return "saved %s: $%04X-$%04X" % (path, start, end)

    def cmd_screen(self, args):
        return "\n".join(line.rstrip() for line in self.machine.screen_lines())

