"""ryg3's saved games against hostile and broken files: the real .prg run
headless with drive 8 on a temporary folder, the file written by the test,
then key O.  A file that is not exactly a saved game is refused, and
nothing outside the load buffer changes: the machine's memory is compared
byte for byte before and after (read through the machine, as a monitor
would).
"""

import random

import pytest

from tests.games.test_ryg3_ui import ROW_MSG, Game

RECORD = 136                       # bytes of the game record (globals.oph RECORD_SIZE)
SAVE_FILE = "ryg3partida.prg"
SAVE_FILES = {"ryg3": SAVE_FILE, "ryg3en": "ryg3game.prg"}   # the default names, RETURN alone
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
        end = lab["dir_type"] + 1 if "dir_type" in lab else lab.get("drive_status", lab["load_buffer"] + RECORD) + 40
        self.skip = (lab["load_buffer"], end)        # load_buffer ... the directory read (globals.oph)
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
    game.keys("W{return}")
    data = (tmp_path / SAVE_FILES[version]).read_bytes()
    assert len(data) == 2 + RECORD
    return game, data


def load_refused(game, tmp_path, data, message="FICHERO NO VALIDO"):
    (tmp_path / SAVE_FILE).write_bytes(data)
    before = Snapshot(game)
    jiffies = memory(game, 0xA0, 0xA3)
    game.keys("OA")
    assert message in game.row(ROW_MSG)
    assert before.changed(game) == []
    after = game.lines()
    kept = list(range(0, 17)) + [21, 22, 23, 24]           # board, status, list, keys
    assert [after[r] for r in kept] == [before.lines[r] for r in kept]
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


def test_a_file_gone_before_it_is_picked_gets_the_drives_answer(tmp_path):
    game, _ = saved_game(tmp_path)
    before = Snapshot(game)
    game.keys("O")                                  # listed ...
    (tmp_path / SAVE_FILE).unlink()                 # ... and gone when picked
    game.keys("A")
    assert "DISCO: 62,FILE NOT FOUND,00,00" in game.row(ROW_MSG)
    assert before.changed(game) == []


def test_an_empty_disk_has_no_games_to_load(tmp_path):
    game = Game(disk=tmp_path)
    game.keys("O")
    assert "NO HAY PARTIDAS EN EL DISCO" in game.row(ROW_MSG)


def test_a_good_file_still_loads(tmp_path):
    game, data = saved_game(tmp_path)
    played = game.moves()
    game.keys("NS")                 # a new game, confirmed
    game.keys("OA")
    assert "PARTIDA CARGADA" in game.row(ROW_MSG)
    assert game.moves() == played


# -- fuzzing: random, truncated, oversized and out-of-board files through key O ---------------

MESSAGES = {"ryg3": ("PARTIDA CARGADA", "FICHERO NO VALIDO"),
            "ryg3en": ("GAME LOADED", "NOT A VALID GAME FILE")}


def _dark(square):
    return not ((square >> 3) ^ square) & 1


def _moves(mouse, cats, side):
    """Legal moves (from, to) as the rules give them (cats step down a rank)."""
    taken = set(cats) | {mouse}
    out = []
    pieces = [(mouse, (7, 9, -7, -9))] if side == 0 else [(c, (-7, -9)) for c in cats]
    for sq, steps in pieces:
        for step in steps:
            to = sq + step
            if 0 <= to < 64 and abs((to & 7) - (sq & 7)) == 1 and to not in taken:
                out.append((sq, to))
    return out


def is_game(record):
    """What a loader must accept: the record read as ryg3 lays it out (globals.oph:
    start mouse, 4 cats, side; length; position; 64 froms; 64 tos), a playable start
    position and every recorded move legal, none after the end."""
    mouse, cats, side = record[0], list(record[1:5]), record[5]
    length, pos = record[6], record[7]
    if length > 64 or pos > length or side > 1 or mouse >= 56 or any(c >= 64 for c in cats):
        return False
    squares = [mouse] + cats
    if len(set(squares)) != 5 or not all(_dark(s) for s in squares):
        return False
    for i in range(length + 1):
        if (side == 1 and mouse >= 56) or not _moves(mouse, cats, side):
            return i == length and i > 0        # a finished game; the start must be playable
        if i == length:
            return True
        move = (record[8 + i], record[8 + 64 + i])
        if move not in _moves(mouse, cats, side):
            return False
        if move[0] == mouse:
            mouse = move[1]
        else:
            cats[cats.index(move[0])] = move[1]
        side ^= 1
    return True


def fuzz_cases(data, count, seed):
    """Files made from a good saved game `data`: random bytes, cut short, too long,
    squares off the board, a few bytes changed, shorter games."""
    rng = random.Random(seed)
    record = bytearray(data[2:])
    for n in range(count):
        kind = n % 6
        if kind == 0:
            size = rng.choice((2 + RECORD, rng.randrange(0, 3000)))
            yield "random", bytes(rng.randrange(256) for _ in range(size))
        elif kind == 1:
            yield "truncated", data[:rng.randrange(0, len(data))]
        elif kind == 2:
            yield "oversized", data + bytes(rng.randrange(256) for _ in range(rng.choice((1, 2, 200, 70000))))
        elif kind == 3:
            bad = bytearray(record)
            field = rng.choice([0, 1, 2, 3, 4] + [8 + i for i in range(record[6])] + [72 + i for i in range(record[6])])
            bad[field] = rng.randrange(64, 256)
            yield "off the board", data[:2] + bytes(bad)
        elif kind == 4:
            bad = bytearray(record)
            for _ in range(rng.randrange(1, 4)):
                field = rng.randrange(0, 8 + record[6])
                field = field if field < 8 else rng.choice((field, field + 64))
                bad[field] = rng.randrange(64) if rng.random() < 0.8 else rng.randrange(256)
            yield "changed", data[:2] + bytes(bad)
        else:
            bad = bytearray(record)
            bad[6] = rng.randrange(0, record[6] + 1)
            bad[7] = rng.randrange(0, bad[6] + 1)
            yield "shorter game", data[:2] + bytes(bad)


def game_state(game):
    """The game as the player has it: record, pieces, board, keys, and the program itself."""
    lab = game.labels
    return (memory(game, lab["game_record"], lab["game_record"] + RECORD),
            memory(game, lab["mouse_sq"], lab["mouse_sq"] + 5), game.peek("side"),
            memory(game, lab["board"], lab["board"] + 64),
            memory(game, lab["zob_lo"], lab["zob_lo"] + 3 * 128),
            memory(game, 0x0801, 0x7000), game.m.peek(VIC_MEMORY), game.m.peek(CIA1_CRA))


def run_fuzz(tmp_path, version, count, seed):
    game = Game(version=version, disk=tmp_path)
    game.keys("D2{return}")
    game.keys("C3{return}")
    game.keys("B4{return}")
    game.keys("W{return}")
    save_file = tmp_path / SAVE_FILES[version]
    data = save_file.read_bytes()
    loaded, refused = MESSAGES[version]
    seen = {"loaded": 0, "refused": 0}
    for kind, case in fuzz_cases(data, count, seed):
        save_file.write_bytes(case)
        before = game_state(game)
        game.keys("OA")
        message = game.row(ROW_MSG)
        good = len(case) == 2 + RECORD and is_game(case[2:])
        if good:
            assert loaded in message, (kind, case.hex())
            record, pos = game_state(game)[0], case[2 + 7]
            if record != case[2:]:            # the computer was to move, and has
                assert record[:6] == case[2:8] and record[6] == record[7] == pos + 1, kind
                assert record[8:8 + pos] == case[10:10 + pos], kind
                assert record[72:72 + pos] == case[74:74 + pos], kind
            seen["loaded"] += 1
        else:
            assert refused in message, (kind, message, case.hex())
            assert game_state(game) == before, (kind, case.hex())
            seen["refused"] += 1
    return seen


@pytest.mark.parametrize("version", ["ryg3", "ryg3en"])
def test_fuzzed_saved_games_are_loaded_only_when_they_are_games(tmp_path, version):
    seen = run_fuzz(tmp_path, version, count=36, seed=13)
    assert seen["loaded"] >= 3 and seen["refused"] >= 20, seen


@pytest.mark.slow
@pytest.mark.parametrize("version", ["ryg3", "ryg3en"])
def test_fuzzed_saved_games_many(tmp_path, version):
    seen = run_fuzz(tmp_path, version, count=1200, seed=1300)
    assert seen["loaded"] >= 50 and seen["refused"] >= 600, seen
