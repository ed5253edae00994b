"""Addresses and conditions as a monitor user types them.

An address is a sum of terms: ``$c000`` or ``c000`` (hex, VICE's default
radix), ``+49152`` (decimal, as the first term), ``%1100`` (binary), a label
(``think``, ``think._scan``), ``pc`` or ``sp``; ``think+3``, ``pc+8``,
``tree_root-$1d``.  A bare word that is a label is the label (``add`` can
be one); ``$`` always means hex.  The numbers themselves go through py65's
AddressParser (py65.utils.addressing), which the monitor also hands to
py65's disassembler and assembler for their operands.

A condition (``break think if a == $05``) compares registers (a x y sp pc p)
and addresses with == != < > <= >=, joined by && and ||.
"""

import re

from py65.utils.addressing import AddressParser

from c64.monitor.labels import LabelError


class ExpressionError(Exception):
    """An address or condition that cannot be read; the message says what is wrong."""


_TOKEN = re.compile(r"\s*(\$[0-9A-Fa-f]+|%[01]+|[A-Za-z_][\w.]*|[0-9A-Fa-f]+|[+\-])")
_COMPARE = re.compile(r"\s*(==|!=|<=|>=|<|>|=)\s*")
REGISTERS = ("a", "x", "y", "sp", "pc", "p")


class MonitorAddressParser(AddressParser):
    """py65's AddressParser with the monitor's labels, scopes and expressions.

    `labels` is a c64.monitor.labels.LabelTable; `registers()` returns the CPU (for pc/sp).
    label_for() is what py65's Disassembler calls for each operand: `near` (the address
    being disassembled) decides whether a local label is written bare."""

    def __init__(self, labels, cpu=None):
        AddressParser.__init__(self)
        self.table = labels
        self.cpu = cpu
        self.near = None

    def label_for(self, address, default=None):
        name = self.table.name_at(address, self.near)
        return default if name is None else name

    def address_for(self, label, default=None):
        try:
            return self.table.address_of(label)
        except LabelError:
            return default

    def number(self, text):
        """An address expression -> 0..$FFFF (ExpressionError if it is not one)."""
        return self.evaluate(text) & 0xFFFF

    def evaluate(self, text):
        text = text.strip()
        if not text:
            raise ExpressionError("missing address")
        position, total, sign, first = 0, 0, None, True
        while position < len(text):
            match = _TOKEN.match(text, position)
            if match is None:
                raise ExpressionError("bad address '%s'" % text)
            token = match.group(1)
            position = match.end()
            if token in "+-":
                if first and token == "+":          # +49152: decimal
                    digits = re.match(r"\s*(\d+)", text[position:])
                    if digits is None:
                        raise ExpressionError("bad decimal number in '%s'" % text)
                    total, position, sign, first = int(digits.group(1)), position + digits.end(), None, False
                    continue
                if sign is not None or first:
                    raise ExpressionError("bad address '%s'" % text)
                sign = token
                continue
            if not first and sign is None:
                raise ExpressionError("bad address '%s' (an operator is missing)" % text)
            value = self._term(token)
            total = value if first else (total + value if sign == "+" else total - value)
            sign, first = None, False
        if sign is not None or first:
            raise ExpressionError("bad address '%s'" % text)
        if not 0 <= total <= 0xFFFF:
            raise ExpressionError("address out of range: '%s'" % text)
        return total

    def _term(self, token):
        lower = token.lower()
        if lower in ("pc", "sp") and self.cpu is not None:
            return getattr(self.cpu, lower)
        if token[0].isalpha() or token[0] == "_":
            if token in self.table:
                try:
                    return self.table.address_of(token)
                except LabelError as error:
                    raise ExpressionError(str(error)) from None
            if not re.fullmatch(r"[0-9A-Fa-f]+", token):
                raise ExpressionError("unknown label '%s'" % token)
        try:
            return AddressParser.number(self, token)
        except OverflowError:
            raise ExpressionError("address out of range: '%s'" % token) from None
        except KeyError:
            raise ExpressionError("bad number '%s'" % token) from None


class Condition:
    """`a == $05 && x != 0`: evaluated on the CPU (and memory, for an address operand)."""

    def __init__(self, text, parser):
        self.text = text.strip()
        self.alternatives = []                 # [[(left, op, right)]]: an OR of ANDs
        for alternative in self.text.split("||"):
            terms = []
            for comparison in alternative.split("&&"):
                parts = _COMPARE.split(comparison.strip())
                if len(parts) != 3 or not parts[0] or not parts[2]:
                    raise ExpressionError("bad condition '%s' (write: a == $05)" % comparison.strip())
                left, op, right = parts
                terms.append((self._operand(left, parser), "==" if op == "=" else op,
                              self._operand(right, parser)))
            self.alternatives.append(terms)

    @staticmethod
    def _operand(text, parser):
        text = text.strip()
        if text.lower() in REGISTERS:
            return text.lower()
        return parser.evaluate(text)

    def __call__(self, cpu):
        for terms in self.alternatives:
            if all(_compare(_value(left, cpu), op, _value(right, cpu)) for left, op, right in terms):
                return True
        return False

    def __str__(self):
        return self.text


def _value(operand, cpu):
    return getattr(cpu, operand) if isinstance(operand, str) else operand


def _compare(left, op, right):
    return {"==": left == right, "!=": left != right, "<": left < right, ">": left > right,
            "<=": left <= right, ">=": left >= right}[op]
