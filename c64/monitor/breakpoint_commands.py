"""The monitor's breakpoints and watches: break, watch, enable, disable, delete
(the checkpoints themselves live in c64.monitor.debugger)."""

from c64.monitor.arguments import MonitorError
from c64.monitor.expressions import Condition


class BreakpointCommands:
    """Part of the Monitor (c64.monitor.commands): setting and listing checkpoints."""

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

