"""The one-line status bar under the C64 screen: what it says and in which colours.

Left part, VICE style: the speed as a percentage of a real C64 (`100%`,
`WARP 1850%`; `PAUSED` while a menu, the help or the monitor stops the C64), the
program name and `WAIT` while the program waits for a key, then for a classic RYG
version the last move its boards show (`CATS (00,03)-(01,04)`,
c64.terminal.last_move; left out where the line has no room).  Right part: how to get help,
or for a few seconds a note such as the name of a screenshot just written or
`63 KEYS DROPPED` (typed past what is kept).
While drive 8 has an error to report (a 1541's LED blinks until its error
channel is read or a command succeeds), the line turns light red and shows
it after the speed, as VICE shows the drive's status: `DRIVE 8: 33,SYNTAX ERROR`.
A stopped program (CPU jam, BRK, missing KERNAL routine) replaces all that
with the reason and the keys that get out of it; a question (quit?) takes
the whole line while it is asked.
"""

from collections import namedtuple

from charset.colours import BLACK, LIGHT_GREY, LIGHT_RED, RED, WHITE, YELLOW
from c64.terminal.surface import Style

NORMAL = Style(BLACK, LIGHT_GREY, True)
WARP = Style(BLACK, YELLOW, True)
ALERT = Style(WHITE, RED, True)
DRIVE_ERROR = Style(BLACK, LIGHT_RED, True)     # the drive's red LED blinking

HELP_HINT = "F11/^K help"
ERROR_KEYS = "F9 reset F10 menu ^Q quit"
STOPPED_KEYS = "F9 reset PgUp warm start F10 menu ^Q quit"     # RESTORE: READY., memory kept
# Where the reason and the keys do not fit: the menu key goes first (F11 help lists it).
TIGHT_KEYS = {ERROR_KEYS: "F9 reset ^Q quit", STOPPED_KEYS: "F9 reset PgUp warm start ^Q quit"}

# note: a short message shown for a few seconds in place of the help hint ("saved ryg64-001.svg").
# move: the last move a classic version's boards show, or None.
# paused: the C64 is stopped while a panel is open (its speed would read 0%).
StatusInfo = namedtuple("StatusInfo", "speed warp name waiting error question note drive stopped move paused")
StatusInfo.__new__.__defaults__ = (None, False, "", False, None, None, None, None, False, None, False)


def _stopped_parts(error, stopped, room):
    """The reason and the keys that get out of it, in `room` columns when they can be:
    the whole reason, else for the 6502 program's stop its headline ("CPU JAM at $A4E1";
    the whole reason is in the log), with all the keys, then with the tight ones.  Any
    other reason (a program the menu could not start: "bad.bas:1: a { without its } at
    column 10", whose headline says only where) is cut to the room instead, with "..."."""
    keys = STOPPED_KEYS if stopped else ERROR_KEYS
    tight = TIGHT_KEYS[keys]
    if stopped:
        headline = error.split(": ", 1)[0]
        choices = ((error, keys), (headline, keys), (headline, tight))
    else:
        cut = len(error) if room is None else max(0, room - len(" STOPPED: ") - len(tight) - 3 - len("..."))
        choices = ((error, keys), (error, tight), (error[:cut].rstrip() + "...", tight))
    for reason, shown in choices:
        left, right = " STOPPED: " + reason, "  " + shown + " "
        if room is None or len(left) + len(right) <= room:
            break
    return left, right, ALERT


def speed_text(percent, warp, paused=False):
    """`100%`, `WARP 1850%`; `--%` before the speed is known; `PAUSED` while the C64 is stopped."""
    if paused:
        return "PAUSED"
    number = "--%" if percent is None else "%d%%" % round(percent)
    return ("WARP " + number) if warp else number


def status_parts(info, room=None):
    """(left text, right text, style) for a StatusInfo; `room`: the columns the line may
    take (a 6502 program's stop is then shortened to what it stopped at, before its
    first ": ", rather than cut anywhere; another reason is cut to the room)."""
    if info.question:
        return " " + info.question, "", ALERT
    if info.error:
        return _stopped_parts(info.error, info.stopped, room)
    words = [speed_text(info.speed, info.warp, info.paused), info.name]
    if info.waiting:
        words.append("WAIT")
    if info.drive:                    # "33,SYNTAX ERROR,00,00" -> "33,SYNTAX ERROR", after the speed
        code, _, rest = info.drive.partition(",")
        words.insert(1, "DRIVE 8: %s,%s" % (code, rest.split(",")[0]))
        return " " + "  ".join(w for w in words if w), (info.note + " ") if info.note else "", DRIVE_ERROR
    left = " " + "  ".join(w for w in words if w)
    right = (info.note or HELP_HINT) + " "
    if info.move:           # the move rather than the help hint, then rather than WAIT (not a note)
        with_move = left + "  " + info.move
        tight = " " + "  ".join(w for w in words[:2] if w) + "  " + info.move
        candidates = [(with_move, right)] + ([] if info.note else [(with_move, ""), (tight, "")])
        for candidate_left, candidate_right in candidates:
            if room is None or len(candidate_left) + len(candidate_right) + 1 <= room:
                left, right = candidate_left, candidate_right
                break
    return left, right, (WARP if info.warp else NORMAL)
