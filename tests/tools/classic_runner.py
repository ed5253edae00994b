"""Drive the classic RYG programs (asm/ryg15/17/19/23.prg and their English
builds ryg15en ... ryg23en) on the emulator.

Used by the classic test suites and the benchmark: it loads a program into a
fresh machine, finds routines and variables by name in the Ophis label map
(asm/<program>.map), writes a position into the current-board record and
calls the program's own decision routine (`think`) with Machine.call, so one
search costs one search and no dialogue.  A program is named by its version
(the model's, classic_model.VERSIONS) and its language: "ryg23" is ryg23 in
Spanish, "ryg23en" the same program with English texts.
"""

import os

from c64.machine import C64
from tests.tools import classic_model as model

ASM_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "asm")

LANGUAGES = ("es", "en")       # the texts of a build: asm/classic/strings_es.oph, strings_en.oph


def program_name(version, language):
    """The program of a version in a language: ("ryg23", "en") -> "ryg23en"."""
    if language not in LANGUAGES:
        raise ValueError("no %r build of the classic versions (only %s)" % (language, ", ".join(LANGUAGES)))
    return version + ("en" if language == "en" else "")


def version_and_language(program):
    """ "ryg23en" -> ("ryg23", "en"), "ryg23" -> ("ryg23", "es")."""
    if program.endswith("en"):
        return program[:-2], "en"
    return program, "es"


# Record layout (asm/classic/record.oph, board29.oph, board88.oph)
R_LEVEL, R_TURN, R_VALUE, R_PARENT, R_CHILD_LO, R_CHILD_HI, R_POS = 3, 4, 5, 6, 8, 16, 24


def read_map(path):
    """Ophis label map -> {label: address} for the global (non-underscore) labels."""
    labels = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = [p.strip() for p in line.split("|")]
            if len(parts) < 2 or not parts[0].startswith("$"):
                continue
            name = parts[1]
            if name.startswith("_") or name == "*":
                continue
            labels[name] = int(parts[0][1:], 16)
    return labels


class ClassicProgram:
    """One classic program (a version in a language) loaded in its own machine."""

    def __init__(self, name, sid_seed=1234):
        self.name = name
        version, self.language = version_and_language(name)
        self.version = model.VERSIONS[version]
        self.prg_path = os.path.join(ASM_DIR, name + ".prg")
        self.labels = read_map(os.path.join(ASM_DIR, name + ".map"))
        self.m = C64(sid_seed=sid_seed)
        self.program = self.m.load_prg(self.prg_path)
        self.size = self.version.record_size

    # -- labels and memory ------------------------------------------------------------
    def addr(self, label):
        return self.labels[label.lower()]

    def peek(self, addr):
        return self.m.peek(addr)

    def word(self, addr):
        return self.m.peek(addr) | self.m.peek(addr + 1) << 8

    def record(self, addr):
        return bytes(self.m.peek(addr + i) for i in range(self.size))

    # -- positions ------------------------------------------------------------------------
    def encode(self, pos, value=0):
        """The record bytes of a position (no parent, no children)."""
        rec = bytearray(self.size)
        rec[0:3] = b"\xAA\xAA\xAA"
        rec[R_LEVEL] = pos.level & 0xFF
        rec[R_TURN] = 0x01 if pos.mouse_to_move else 0xFF
        rec[R_VALUE] = value
        if self.size == 29:
            rec[R_POS] = pos.mouse
            rec[R_POS + 1:R_POS + 5] = bytes(pos.cats)
        else:
            rec[R_POS + pos.mouse] = 0x01
            for c in pos.cats:
                rec[R_POS + c] = 0xFF
        return bytes(rec)

    def decode(self, rec):
        """Position of a record (cats in slot order, or scan order for matrices)."""
        level, turn = rec[R_LEVEL], rec[R_TURN]
        if self.size == 29:
            mouse, cats = rec[R_POS], tuple(rec[R_POS + 1:R_POS + 5])
        else:
            matrix = rec[R_POS:R_POS + 64]
            mouse = matrix.index(1)
            cats = tuple(i for i, v in enumerate(matrix) if v == 0xFF)
        return model.Pos(mouse, cats, turn == 0x01, level)

    def set_current(self, pos):
        base = self.addr("current_board")
        for i, b in enumerate(self.encode(pos)):
            self.m.poke(base + i, b)

    def current(self):
        return self.decode(self.record(self.addr("current_board")))

    # -- the program's routines -------------------------------------------------------------
    def call(self, label, max_cycles=20_000_000_000, **regs):
        return self.m.call(self.addr(label), max_cycles=max_cycles, **regs)

    def think(self, pos, depth):
        """Run the program's search on pos (cats to move).

        Returns dict(index, value, child (Pos), cycles, boards, free_ptr).
        """
        self.set_current(pos)
        self.m.poke(self.addr("depth"), depth)
        before = self.m.cycles
        self.call("think")
        cycles = self.m.cycles - before
        root = self.addr("tree_root")
        index = self.peek(self.addr("chosen"))
        child_addr = self.peek(root + R_CHILD_LO + index) | self.peek(root + R_CHILD_HI + index) << 8
        boards = sum(self.peek(self.addr("boards_made") + i) << (8 * i) for i in range(4))
        return dict(index=index, value=self.peek(self.addr("root_value")),
                    root_value=self.peek(root + R_VALUE),
                    child=self.decode(self.record(child_addr)), child_addr=child_addr,
                    cycles=cycles, boards=boards, free_ptr=self.word(self.addr("free_ptr")))
