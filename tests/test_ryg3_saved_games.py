"""ryg3's saved games against hostile and broken files: the real .prg run
headless with drive 8 on a temporary folder, the file written by the test,
then key O.  A file that is not exactly a saved game is refused, and
nothing outside the load buffer changes: the machine's memory is compared
byte for byte before and after (read through the machine, as a monitor
would).
"""

import random

import pytest

from tests.test_ryg3_ui import Game

RECORD = 136                       # bytes of the game record (globals.oph RECORD_SIZE)
SAVE_FILE = "ryg3partida.prg"
CIA1_CRA = 0xDC0E
VIC_MEMORY = 0xD018


def memory(game, start, end):
    return bytes(game.m.peek(a) for a in range(start, end))


class Snapshot:
    """What loading a refused file must leave alone: the game's zero page
    ($02-$3F) and all RAM from the BASIC stub to the end of the game data
    ($0801-$CFFF) except the load buffer and the drive's answer, plus the
    VIC's memory pointer and CIA1's timer control.  (The KERNAL's own
    variables, the stack and the screen are the KERNAL's business.)"""

    RANGES = ((0x0002, 0x0040), (0x0801, 0xD000))

    def __init__(self, game):
        lab = game.labels
        end = lab.get("drive_status", lab["load_buffer"] + RECORD) + 40
        self.skip = (lab["load_buffer"], end)        # load_buffer, io_count, drive_status
        self.ram = [memory(game, *r) for r in self.RANGES]
        self.io = (game.m.peek(VIC_MEMORY), game.m.peek(CIA1_CRA))
        self.lines = game.lines()

    def changed(self, game):
        """Addresses outside the load buffer whose contents differ now."""
        lo, hi = self.skip
        out = []
        for (start, end), was in zip(self.RANGES, self.ram):
            now = memory(game, start, end)
            out += ["$%04X" % (start + i) for i, (a, b) in enumerate(zip(was, now))
                    if a != b and not lo <= start + i < hi]
        if (game.m.peek(VIC_MEMORY), game.m.peek(CIA1_CRA)) != self.io:
            out.append("I/O")
        return out


def saved_game(tmp_path, version="ryg3"):
    """A game with two moves played and saved; returns (game, the file's bytes)."""
    game = Game(version=version, disk=tmp_path)
    game.keys("D2{return}")
    game.keys("W")
    data = (tmp_path / SAVE_FILE).read_bytes()
    assert len(data) == 2 + RECORD
    return game, data


def load_refused(game, tmp_path, data, message="FICHERO NO VALIDO"):
    (tmp_path / SAVE_FILE).write_bytes(data)
    before = Snapshot(game)
    jiffies = memory(game, 0xA0, 0xA3)
    game.keys("O")
    assert message in game.row(20)
    assert before.changed(game) == []
    after = game.lines()
    assert after[:20] + after[21:] == before.lines[:20] + before.lines[21:]
    return jiffies


def test_a_file_longer_than_a_record_is_refused_without_writing_past_the_buffer(tmp_path):
    game, _ = saved_game(tmp_path)
    load_refused(game, tmp_path, bytes((0xFF, 0xC5)) + b"\xAA" * 2500)   # load address $C5FF
    assert game.m.peek(VIC_MEMORY) == 0x15
    game.keys("C3{return}")                                            # and the game goes on
    assert game.moves()[2] == (3, "D2-C3")


def test_forty_thousand_zero_bytes_leave_the_clock_running(tmp_path):
    game, _ = saved_game(tmp_path)
    load_refused(game, tmp_path, bytes(40000))
    assert game.m.peek(CIA1_CRA) & 1                                   # timer A still counts
    before = memory(game, 0xA0, 0xA3)
    game.m.run(max_cycles=200_000, stop_when_idle=False)
    assert memory(game, 0xA0, 0xA3) != before                          # and the jiffy clock ticks


@pytest.mark.parametrize("length", [0, 1, 2, 2 + RECORD - 1, 2 + RECORD + 1])
def test_a_file_one_byte_short_or_long_is_refused(tmp_path, length):
    game, data = saved_game(tmp_path)
    load_refused(game, tmp_path, (data + b"\x00")[:length])


@pytest.mark.parametrize("square", [0x60, 0xC0, 0xFF])
def test_a_mouse_off_the_board_is_refused_before_anything_is_stored(tmp_path, square):
    game, data = saved_game(tmp_path)
    zob = memory(game, game.labels["zob_lo"], game.labels["zob_lo"] + 128)
    bad = bytearray(data)
    bad[2] = square                                                    # game_start[0]: the mouse
    load_refused(game, tmp_path, bytes(bad))
    assert memory(game, game.labels["zob_lo"], game.labels["zob_lo"] + 128) == zob


@pytest.mark.parametrize("offset,value", [(3, 0x40), (6, 0xFF), (6 + 2, 0x80), (6 + 2 + 64, 0x90)])
def test_cats_and_moves_off_the_board_are_refused(tmp_path, offset, value):
    game, data = saved_game(tmp_path)
    bad = bytearray(data)
    bad[2 + offset] = value            # a cat, the side to move, a move's from, a move's to
    load_refused(game, tmp_path, bytes(bad))


def test_a_missing_file_gets_the_drives_answer(tmp_path):
    game = Game(disk=tmp_path)
    before = Snapshot(game)
    game.keys("O")
    assert "DISCO: 62,FILE NOT FOUND,00,00" in game.row(20)
    assert before.changed(game) == []


def test_a_good_file_still_loads(tmp_path):
    game, data = saved_game(tmp_path)
    played = game.moves()
    game.keys("N")
    game.keys("O")
    assert "PARTIDA CARGADA" in game.row(20)
    assert game.moves() == played
