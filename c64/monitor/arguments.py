"""What every monitor command shares: MonitorError and the parsing of its arguments
(addresses, ranges, byte lists, counts, file names)."""

import shlex

from c64.monitor.expressions import ExpressionError


class MonitorError(Exception):
    """A bad command or argument; the text is the one-line message."""


class Arguments:
    """Argument parsing for the Monitor's commands (uses self.parser, a MonitorAddressParser)."""

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

    def _filename(self, word):
        if len(word) >= 2 and word[0] == word[-1] and word[0] in "\"'":
            return word[1:-1]
        return word

