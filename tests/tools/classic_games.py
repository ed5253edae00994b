"""Whole games of the classic programs, driven through the keyboard.

`Session` starts a program as SYS2064 would, answers its questions with
keys and reads what it printed (CHROUT transcript) and its current board.
`TEXTS` holds what the programs print in each language (the sources'
asm/classic/strings_es.oph and strings_en.oph), `board_printout` the board
as show_board prints it.  `find_game` searches, with the reference model,
for mouse moves that end a game in a chosen way at a chosen depth.
"""

import random
from dataclasses import dataclass

from c64.machine import StopReason
from tests.tools import classic_model as M
from tests.tools.classic_runner import ClassicProgram

ENDINGS = ("mouse_row_0", "cats_blocked", "mouse_blocked")


@dataclass(frozen=True)
class Texts:
    """What a classic program prints in one language."""
    title: str              # after "RYG23 - "
    ask_depth: str          # then the maximum depth in hex and ") ? "
    ask_move: str
    thinking: str
    mouse_wins: str
    cats_win: str
    press_key: str
    headings: tuple         # address (after the separator), level, turn, value, parent, children
    children_indent: str    # the second line of children
    turn_mouse: str
    turn_cats: str
    piece_mouse: str
    piece_cat: str

    def depth_question(self, max_depth):
        return "%s01-%02X) ? " % (self.ask_depth, max_depth)


TEXTS = {
    "es": Texts("RATON Y GATOS", "PROFUNDIDAD (", "QUE JUGADA DESEA? ", "PENSANDO: ",
                "HA GANADO EL RATON!! ENHORABUENA!!", "OH....! HAN GANADO LOS GATOS!!",
                "PULSA UNA TECLA PARA CONTINUAR...",
                ("DIREC: ", "NIVEL: ", "TURNO: ", "VALOR: ", "PADRE: ", "HIJOS:"), "      ",
                "RATON", "GATOS", "R", "G"),
    "en": Texts("MOUSE AND CATS", "DEPTH (", "YOUR MOVE? ", "THINKING: ",
                "THE MOUSE HAS WON!! CONGRATULATIONS!!", "OH....! THE CATS HAVE WON!!",
                "PRESS A KEY TO CONTINUE...",
                ("ADDRESS:  ", "PLY:      ", "TO MOVE:  ", "VALUE:    ", "PARENT:   ", "CHILDREN:"),
                "         ", "MOUSE", "CATS", "M", "C"),
}

# Every word of the Spanish texts that an English build must not print.
SPANISH_WORDS = ("RATON", "GATOS", "PROFUNDIDAD", "JUGADA", "DESEA", "PENSANDO", "GANADO", "ENHORABUENA",
                 "PULSA", "TECLA", "CONTINUAR", "DIREC", "NIVEL", "TURNO", "VALOR", "PADRE", "HIJOS")


def board_printout(texts, address, pos, value=0, parent=0, children=(0,) * 8):
    """show_board's text for a record (turn from pos, rows 0-7 from the top)."""
    head = texts.headings
    kids = ["%04X" % c for c in children]
    rows = []
    for row in range(8):
        line = "%X" % row
        for col in range(8):
            square = row * 8 + col
            line += (texts.piece_mouse if square == pos.mouse
                     else texts.piece_cat if square in pos.cats else ".")
        rows.append(line + "\n")
    return ("--------------------\n"
            + head[0] + "%04X\n" % address
            + head[1] + "%02X\n" % pos.level
            + head[2] + (texts.turn_mouse if pos.mouse_to_move else texts.turn_cats) + "\n"
            + head[3] + "%02X\n" % value
            + head[4] + "%04X\n" % parent
            + head[5] + " " + " ".join(kids[:4]) + "\n"
            + texts.children_indent + " " + " ".join(kids[4:]) + "\n"
            + "\n 01234567\n" + "".join(rows))


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
        self.texts = TEXTS[self.language]
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
