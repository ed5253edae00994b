"""The monitor's commands that run the machine: z, n, ret (step), g, x (go on), bt
(backtrace); and run(), the stop's text and the status line."""

from c64.machine import StopReason
from c64.monitor.arguments import MonitorError
from kernal.locations import STACK
from kernal.stack import rts_target, stacked_word

STEP_LIMIT = 4_000_000_000          # cycles z/n/ret may run before giving up (~68 minutes of C64)


class SteppingCommands:
    """Part of the Monitor (c64.monitor.commands): running, stepping, where the program is."""

    # -- running ---------------------------------------------------------------------------------
    def run(self, max_cycles=None):
        """Run the machine until it stops; returns (StopReason, text of the stop or '')."""
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
        if reason is StopReason.IDLE:
            return "%s: the program waits for a key\n%s" % (description, self.status_line())
        if reason is StopReason.ERROR:
            return "%s: the program stopped: %s" % (description, self.machine.error)
        if reason is StopReason.BASIC:
            return "%s: the program returned to BASIC" % description
        return "%s: stopped (%s)\n%s" % (description, reason.value, self.status_line())

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
                state["return_to"] = (rts_target(cpu.memory, cpu.sp), sp_before)
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
            word = stacked_word(ram, sp, 0)
            caller = (word - 2) & 0xFFFF
            if self.peek(caller) == 0x20:
                target = self.peek((caller + 1) & 0xFFFF) | self.peek((caller + 2) & 0xFFFF) << 8
                called = self.labels.name_at(target) or "$%04X" % target
                lines.append("#%d $%04X  %s  (jsr %s; stack $%04X)"
                             % (len(lines), caller, self.where(caller), called, STACK + sp))
                sp += 2
            else:
                sp += 1
        return "\n".join(lines)

