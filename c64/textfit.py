"""Text laid out for a width, so that nothing is cut in a terminal as narrow as 40 columns.

`wrapped` breaks a line at spaces; `two_columns` lays out (term, text) pairs as a help
list does: the term in a left column, its text wrapped in the right one, a term too long
for the column on a line of its own; `fitting` picks the longest of a few wordings that
fits.  Width None means no limit (output to a file or a pipe).  The monitor's help, the
version menu, the help panel and the monitor panel use them.  `printable` shows a text's
control characters as "?" (a file name can hold any), so that a terminal never obeys them.
"""

import textwrap

# The control characters (C0, DEL, C1) a file name or a message may carry: shown as "?",
# one cell as any character, and never sent to a terminal, which would obey them (an
# ESC [2J clears it, a CR or a C1 CSI moves the cursor, a newline makes two lines of one).
CONTROLS = dict.fromkeys(list(range(0x20)) + list(range(0x7F, 0xA0)), "?")


def printable(text):
    """`text` with every control character shown as "?"."""
    return text if text.isprintable() else text.translate(CONTROLS)


def wrapped(text, width=None, indent=""):
    """The lines of `text` (one line) at most `width` long, broken at spaces; a word longer
    than a line is broken where it must.  Lines after the first start with `indent`."""
    if width is None or len(text) <= width:
        return [text]
    indent = indent if len(indent) < width // 2 else ""
    return textwrap.wrap(text, width, subsequent_indent=indent, break_on_hyphens=False) or [""]


def two_columns(entries, width=None, gap=2, widest=None):
    """For each (term, text): its lines.  The left column is as wide as the longest term plus
    `gap`, at most `widest` (by default a third of the width); the text starts at the column
    and wraps there.  A term that does not fit the column stands on its own line, the text below."""
    longest = max((len(term) for term, _ in entries), default=0) + gap
    if width is None:
        column = longest
    else:
        column = min(longest, widest if widest is not None else max(gap + 8, width // 3))
    out = []
    for term, text in entries:
        room = None if width is None else max(8, width - column)
        lines = wrapped(text, room) if text else [""]
        if len(term) + gap <= column or not text:
            first = (term.ljust(column) + lines[0]).rstrip()
            lines = lines[1:]
            head = wrapped(first, width, " " * column)
        else:
            head = wrapped(term, width, " " * gap)
        out.append(head + [(" " * column + line).rstrip() for line in lines])
    return out


def fitting(variants, width=None):
    """The first of `variants` (longest first) that fits `width`; the last one cut if none does."""
    for text in variants:
        if width is None or len(text) <= width:
            return text
    return variants[-1][:max(0, width)]
