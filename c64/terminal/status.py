"""The one-line status bar under the C64 screen: what it says and in which colours.

Left part, VICE style: the speed as a percentage of a real C64 (`100%`,
`WARP 1850%`), the program name and `WAIT` while the program waits for a key.  Right part: how to get help,
or for a few seconds a note such as the name of a screenshot just written.
A stopped program (CPU jam, BRK, missing KERNAL routine) replaces all that
with the reason and the keys that get out of it; a question (quit?) takes
the whole line while it is asked.
"""

from collections import namedtuple

from charset.colours import BLACK, LIGHT_GREY, RED, WHITE, YELLOW
from c64.terminal.surface import Style

NORMAL = Style(BLACK, LIGHT_GREY, True)
WARP = Style(BLACK, YELLOW, True)
ALERT = Style(WHITE, RED, True)

HELP_HINT = "F11/^K help"
ERROR_KEYS = "F9 reset F10 menu ^Q quit"

# note: a short message shown for a few seconds in place of the help hint ("saved ryg64-001.svg").
StatusInfo = namedtuple("StatusInfo", "speed warp name waiting error question note")
StatusInfo.__new__.__defaults__ = (None, False, "", False, None, None, None)


def speed_text(percent, warp):
    """`100%`, `WARP 1850%`; `--%` before the speed is known."""
    number = "--%" if percent is None else "%d%%" % round(percent)
    return ("WARP " + number) if warp else number


def status_parts(info):
    """(left text, right text, style) for a StatusInfo."""
    if info.question:
        return " " + info.question, "", ALERT
    if info.error:
        return " STOPPED: " + info.error, "  " + ERROR_KEYS + " ", ALERT
    words = [speed_text(info.speed, info.warp), info.name]
    if info.waiting:
        words.append("WAIT")
    left = " " + "  ".join(w for w in words if w)
    return left, (info.note or HELP_HINT) + " ", (WARP if info.warp else NORMAL)
