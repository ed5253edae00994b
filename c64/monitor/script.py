"""The monitor in a headless run: --moncommands FILE, --break LABEL|ADDR, --profile.

The file's commands run at the start, up to the first one that lets the program
go on (x or g); at every later stop (a breakpoint, a watch) the next commands
are taken, again up to an x or g.  Each command is echoed after a VICE-style
prompt, ``(C:$0ea4) r``, its output below it.  When the file is used up the
program runs on; a later stop is printed and the program goes on by itself.
The profiler's table (--profile, or prof on in the file) is printed at the end.
"""

from c64.machine import StopReason
from c64.monitor.commands import Monitor


class MonitorScript:
    """Drives a Monitor from a list of command lines, writing everything to `out`."""

    def __init__(self, machine, commands=(), out=None, breaks=(), profile=False):
        self.monitor = Monitor(machine)
        self.commands = list(commands)
        self.out = out
        self.profile = profile
        for where in breaks:
            self._write(self.monitor.execute("break %s" % where))
        if profile:
            self.monitor.start_profiler()

    def _write(self, text):
        if text:
            self.out.write(text + "\n")

    def take_commands(self):
        """Run commands until one resumes the program or the file ends."""
        monitor = self.monitor
        while self.commands:
            line = self.commands.pop(0).rstrip("\n")
            if not line.strip():
                continue
            self.out.write("(C:$%04x) %s\n" % (monitor.machine.cpu.pc, line.strip()))
            self._write(monitor.execute(line))
            if monitor.resume:
                return

    def run(self, max_cycles):
        """Commands first, then run to the end (stops take the next commands); returns the StopReason."""
        machine = self.monitor.machine
        limit = machine.cycles + max_cycles
        self.take_commands()
        while True:
            reason, text = self.monitor.run(max(1, limit - machine.cycles))
            if reason is StopReason.BASIC and machine.cycles < limit:
                continue                  # on to READY., where a C64 waits (c64.headless)
            if reason is not StopReason.BREAK:
                break
            self._write(text)
            self.take_commands()
        if self.profile or self.monitor.debugger.profiler is not None:
            self._write(self.monitor.profile_table())
        return reason
