"""The monitor's records of what ran: chis (the last instructions) and prof (C64 cycles
per routine, with and without its callees; the Profiler is in c64.monitor.debugger)."""

from py65.disassembler import Disassembler

from c64.monitor.arguments import MonitorError
from c64.monitor.debugger import Profiler


class HistoryCommands:
    """Part of the Monitor (c64.monitor.commands): instruction history and profiler."""

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
        lines.append("%d cycles profiled (the CPU's own: %.2f s at the C64's clock, what the VIC took aside)"
                     % (total, total / self.machine.clock_hz))
        return "\n".join(lines)

