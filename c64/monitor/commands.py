"""The monitor's command line, in VICE's syntax, over a c64.machine.C64.

    mon = Monitor(machine)
    print(mon.execute("break think"))     # each command returns its output as text
    reason = mon.run()                    # run the machine; a stop prints where it is
    print(mon.execute("r"))

Every command answers with text; a bad command or argument answers with one
line ``ERROR -- ...`` (never an exception).  `execute` sets `resume` when the
command asks the machine to go on (g, x); z, n and ret run the machine
themselves and come back with the stop.

This module holds the Monitor, the command table and help; the commands
themselves are in the *_commands modules beside it, one per kind (memory,
code, breakpoints, stepping, history), each a part of the Monitor class.
"""

from c64.monitor import labels as labels_module
from c64.monitor.arguments import Arguments, MonitorError
from c64.monitor.breakpoint_commands import BreakpointCommands
from c64.monitor.code_commands import CodeCommands
from c64.monitor.debugger import Debugger
from c64.monitor.expressions import ExpressionError, MonitorAddressParser
from c64.monitor.history_commands import HistoryCommands
from c64.monitor.memory_commands import MemoryCommands
from c64.monitor.stepping_commands import SteppingCommands
from c64.textfit import two_columns, wrapped

HELP = [
    ("r [reg=val ...]", "registers, with the label and source line of PC; set: r a=$10, pc=think"),
    ("m [start [end]]", "memory in hex and text (the current bank)"),
    ("i [start [end]]", "memory as PETSCII text"),
    ("bank [cpu|ram]", "what m/i/d/> read and write: what the CPU sees (ROM, I/O) or the RAM below"),
    ("d [start [end]]", "disassemble, with label lines and symbolic operands"),
    ("a addr [instruction]", "assemble: a c000 lda #$01; then each line is the next one, an empty line ends"),
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


class Monitor(MemoryCommands, CodeCommands, BreakpointCommands, SteppingCommands, HistoryCommands,
              Arguments):
    """A VICE-style monitor over one machine (see the module docstring)."""

    def __init__(self, machine):
        self.machine = machine
        self.debugger = Debugger(machine)
        self.bank = "cpu"
        self.resume = False
        self._labels_program = None
        self._loaded = []                 # paths given to ll, kept across program changes
        self.labels = labels_module.LabelTable()
        self.parser = MonitorAddressParser(self.labels, machine.cpu)
        self._next_d = None
        self._next_m = None
        self.assembling = None            # the next address while `a` takes one line after another
        self.width = None                 # the columns the help is laid out for (None: no limit)
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
        if self.assembling is not None:
            # after `a`, each line is the next instruction, as in VICE; an empty line or a
            # command (no command is named like a mnemonic) ends that
            if not line:
                self.assembling = None
                return ""
            first = line.split()[0].lower()
            if first in _COMMANDS or first.startswith(">"):
                self.assembling = None
            else:
                try:
                    return self.assemble_at(self.assembling, line)
                except (MonitorError, ExpressionError, labels_module.LabelError) as error:
                    return "ERROR -- %s (an empty line ends a)" % error
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

    # -- help ---------------------------------------------------------------------------------------------
    def cmd_help(self, args):
        if args:
            name = args.split()[0].lower()
            handler = _COMMANDS.get(name)
            if handler is None:
                raise MonitorError("unknown command '%s'" % args)
            entries = [(usage, text) for usage, text in HELP
                       if name in usage.split()[0].split("|") or _COMMANDS.get(usage.split()[0].split("|")[0]) == handler]
            return "\n".join(line for lines in two_columns(entries, self.width) for line in lines)
        lines = [line for lines in two_columns(HELP, self.width) for line in lines]
        lines += wrapped("addresses: $c000 or c000 (hex), +49152 (decimal), labels, label+offset, pc",
                         self.width, "  ")
        return "\n".join(lines)


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
