"""Whole games of the classic programs, driven through the keyboard.

`Session` starts a version as SYS2064 would, answers its questions with
keys and reads what it printed (CHROUT transcript) and its current board.
`find_game` searches, with the reference model, for mouse moves that end a
game in a chosen way at a chosen depth.
"""

import random

from c64.machine import StopReason
from tests.tools import classic_model as M
from tests.tools.classic_runner import ClassicProgram

ENDINGS = ("mouse_row_0", "cats_blocked", "mouse_blocked")


def transcript_text(codes):
    """PETSCII bytes printed -> text: RETURN -> newline, DEL removes the
    previous character, cursor-left/CLR dropped, letters as ASCII."""
    out = []
    for c in codes:
        if c == 0x0D:
            out.append("\n")
        elif c == 0x14:
            if out and out[-1] != "\n":
                out.pop()
        elif 0x20 <= c <= 0x5F:
            out.append(chr(c))
    return "".join(out)


class Session(ClassicProgram):
    """A classic version running from its entry point, fed with keys."""

    def __init__(self, name, sid_seed=1234):
        super().__init__(name, sid_seed)
        self.m.transcript = []        # what it prints is read back (printed())
        self.m.start(self.program.start)
        self.mark = 0
        self.reason = self.m.run(max_cycles=10_000_000)

    def keys(self, text, max_cycles=2_000_000_000):
        """Type keys, run until the program waits again; returns the text printed meanwhile."""
        self.m.type(text)
        self.reason = self.m.run(max_cycles=max_cycles)
        if self.reason is not StopReason.IDLE:
            raise AssertionError("%s stopped: %s %s" % (self.name, self.reason, self.m.error))
        return self.printed()

    def printed(self):
        """Text printed since the last call."""
        text = transcript_text(self.m.transcript[self.mark:])
        self.mark = len(self.m.transcript)
        return text


def find_game(version, depth, ending, seed=1, tries=5000):
    """Mouse directions that end a game against `version` at `depth` with
    `ending` (one of ENDINGS), found by seeded random play against the model."""
    rng = random.Random(seed)
    for _ in range(tries):
        pos = M.start_position()
        if version.sorted_cats:
            pos = pos._replace(cats=tuple(sorted(pos.cats)))
        dirs = []
        while True:
            d, dest = rng.choice(M.mouse_moves(pos))
            dirs.append(d)
            pos = M.Pos(dest, pos.cats, False, pos.level + 1)
            if pos.mouse < 8:
                got = "mouse_row_0"
                break
            if not M.cat_moves(pos):
                got = "cats_blocked"
                break
            pos = M.cats_reply(pos, depth, version)
            if not M.mouse_moves(pos):
                got = "mouse_blocked"
                break
        if got == ending:
            return dirs
    raise LookupError("no %s game found for %s at depth %d" % (ending, version.name, depth))
