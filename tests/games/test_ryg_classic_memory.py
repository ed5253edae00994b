"""Memory behaviour of the classic programs: ryg23's depth-first tree stays
within the path and its siblings (the design's ~2 KB at depth 10), ryg19's
whole tree fits below the BASIC ROM, and ryg17 banks BASIC out so its
records above $A000 read back as written -- in both languages' builds
(ryg23 and ryg23en ...), whose tree and code end at other addresses.
"""

import random

import pytest

from kernal.rom import FILLER, build_rom
from tests.tools import classic_model as M
from tests.tools.classic_games import Session, find_game
from tests.tools.classic_runner import LANGUAGES, ClassicProgram, program_name

CANARY = 0x55        # never the last byte of a 29-byte record (a cat offset < 64)
TREE_LIMIT = 0xA000


def fill_canary(cp):
    root = cp.addr("tree_root")
    for a in range(root, TREE_LIMIT):
        cp.m.mem.ram[a] = CANARY


def highest_written(cp):
    root = cp.addr("tree_root")
    ram = cp.m.mem.ram
    top = TREE_LIMIT - 1
    while top >= root and ram[top] == CANARY:
        top -= 1
    return top + 1 - root          # bytes used above tree_root


def self_modified(cp):
    """Bytes the lib's print routines patch (their load operands) and the
    hex input's digit buffer: the only writes allowed inside the code."""
    allowed = set()
    with open(cp.prg_path[:-4] + ".map", encoding="utf-8") as f:
        for line in f:
            addr, label, _ = [p.strip() for p in line.split("|")]
            if label == "_load":
                allowed |= {int(addr[1:], 16) + 1, int(addr[1:], 16) + 2}
            elif label == "_digits":
                allowed |= {int(addr[1:], 16), int(addr[1:], 16) + 1}
    return allowed


def play_game_watching_memory(depth, dirs, start=None, language="es"):
    """Play mouse moves against ryg23; returns (session, bytes used, model bytes, positions)."""
    s = Session(program_name("ryg23", language))
    s.keys("%02X{return}" % depth)
    fill_canary(s)
    ram = s.m.mem.ram
    code = bytes(ram[0x0801:s.addr("current_board")])
    high = bytes(ram[TREE_LIMIT:0xD000]) + bytes(ram[0xE000:])
    version = s.version
    pos = M.start_position() if start is None else start
    if start is not None:
        s.set_current(start)
    expected = 0
    for d in dirs:
        s.keys("%02X{return}" % d)
        pos = M.Pos(dict(M.mouse_moves(pos))[d], pos.cats, False, pos.level + 1)
        if pos.mouse < 8 or not M.cat_moves(pos):
            break
        if M.book_move(pos) is None:
            expected = max(expected, M.depthfirst_high_water(pos, depth))
        pos = M.cats_reply(pos, depth, version)
        assert s.current() == pos
        if not M.mouse_moves(pos):
            break
    ram = s.m.mem.ram
    changed = {0x0801 + i for i, (a, b) in enumerate(zip(code, ram[0x0801:s.addr("current_board")])) if a != b}
    assert changed <= self_modified(s)                  # code and texts intact
    assert bytes(ram[TREE_LIMIT:0xD000]) + bytes(ram[0xE000:]) == high  # nothing above the tree limit
    return s, highest_written(s), expected, pos


def check_whole_game(depth, language="es"):
    dirs = find_game(M.VERSIONS["ryg23"], depth, "mouse_blocked")
    s, used, expected, last = play_game_watching_memory(depth, dirs, language=language)
    assert not M.mouse_moves(last)                       # the game was played to its end
    assert used == expected
    cat_levels, mouse_levels = (depth + 1) // 2, depth // 2
    assert used <= 29 * (1 + 8 * cat_levels + 4 * mouse_levels)   # root + path + siblings
    assert s.word(s.addr("free_ptr")) == s.addr("tree_root") + 29


@pytest.mark.parametrize("language", LANGUAGES)
def test_ryg23_at_depth_4_plays_a_whole_game_using_exactly_the_path_and_its_siblings(language):
    check_whole_game(4, language)


@pytest.mark.slow
def test_ryg23_at_depth_6_plays_a_whole_game_using_exactly_the_path_and_its_siblings():
    check_whole_game(6)


def finish_game(pos, depth, rng):
    """Random mouse moves from pos (mouse to move), cats answering at depth:
    (mouse directions, boards the cats' searches generate)."""
    version = M.VERSIONS["ryg23"]
    dirs, boards = [], 0
    while M.mouse_moves(pos):
        d, dest = rng.choice(M.mouse_moves(pos))
        dirs.append(d)
        pos = M.Pos(dest, pos.cats, False, pos.level + 1)
        if pos.mouse < 8 or not M.cat_moves(pos):
            break
        boards += M.count_boards(pos, depth, version)
        pos = M.cats_reply(pos, depth, version)
    return dirs, boards


def late_game(depth, max_boards, seed=3):
    """The earliest mouse-to-move position of a seeded game (cats at depth 2)
    from where a seeded finish against cats at `depth` costs at most
    max_boards boards; returns (position, mouse directions of the finish)."""
    version = M.VERSIONS["ryg23"]
    rng = random.Random(seed)
    pos, history = M.start_position(), []
    while M.mouse_moves(pos):
        history.append(pos)
        _, dest = rng.choice(M.mouse_moves(pos))
        pos = M.Pos(dest, pos.cats, False, pos.level + 1)
        if pos.mouse < 8 or not M.cat_moves(pos):
            break
        pos = M.cats_reply(pos, 2, version)
    best = None
    for start in reversed(history[1:]):
        dirs, boards = finish_game(start, depth, random.Random(seed))
        if boards > max_boards:
            break
        best = (start, dirs)
    return best


@pytest.mark.slow
def test_ryg23_at_depth_10_finishes_a_game_within_about_2_kb_of_tree():
    start, dirs = late_game(10, 400_000)
    s, used, expected, last = play_game_watching_memory(10, dirs, start)
    assert used == expected
    assert 0 < used <= 29 * (1 + 5 * 8 + 5 * 4) <= 2048


def test_ryg19_largest_whole_tree_on_random_positions_fits_below_the_basic_rom():
    worst = max(M.whole_tree_bytes(p, 4, M.VERSIONS["ryg19"]) for p in M.random_positions(400, 77))
    for language in LANGUAGES:
        cp = ClassicProgram(program_name("ryg19", language))
        assert worst <= TREE_LIMIT - cp.addr("tree_root"), cp.name


@pytest.mark.parametrize("language", LANGUAGES)
def test_ryg17_switches_only_the_basic_rom_out(language):
    cp = ClassicProgram(program_name("ryg17", language))
    cp.m.poke(0x01, 0x37)
    cp.call("platform_init")
    assert cp.peek(0x01) & 0x07 == 0x06                 # LORAM off, HIRAM and CHAREN on
    rom = build_rom()
    assert cp.peek(0xFFD2) == rom[0xFFD2] in (0x4C, 0x6C)   # the KERNAL jump table is still there
    cp.m.mem.ram[0xA000] = 0xEA
    assert cp.peek(0xA000) == 0xEA != rom[0xA000]       # $A000 reads RAM


def _put_pointer(cp, label, addr):
    cp.m.poke(cp.addr(label), addr & 0xFF)
    cp.m.poke(cp.addr(label) + 1, addr >> 8)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("address", [0xA000, 0xB7A8, 0xC000 - 88])
def test_ryg17_records_above_a000_read_back_only_with_basic_banked_out(address, language):
    cp = ClassicProgram(program_name("ryg17", language))
    rom = build_rom()
    header = 12 if address == 0xA000 else 0             # the BASIC ROM's start vectors and name, then filler
    assert set(rom[address + header:address + 88]) <= {FILLER} or address >= 0xC000 - 88
    pos = M.Pos(27, (2, 25, 38, 54), True, 17)
    cp.set_current(pos)
    record = cp.record(cp.addr("current_board"))
    # BASIC banked out (as ryg17 runs): record_copy writes RAM and reads it back
    cp.m.poke(0x01, 0x37)
    cp.call("platform_init")
    _put_pointer(cp, "p_child", cp.addr("current_board"))
    _put_pointer(cp, "p_node", address)
    cp.call("record_copy")
    assert bytes(cp.peek(address + i) for i in range(88)) == record
    cp.call("board_load_pieces")                        # the program scans the copy at p_node
    pieces = [cp.peek(cp.addr("pieces") + i) for i in range(5)]
    assert pieces == [27, 2, 25, 38, 54]
    # BASIC banked in: the same addresses show the ROM, the writes went to RAM underneath
    cp.m.poke(0x01, 0x37)
    assert bytes(cp.peek(address + i) for i in range(88)) == bytes(rom[address:address + 88])
    assert bytes(cp.m.mem.ram[address:address + 88]) == record
    other = cp.encode(M.Pos(36, (9, 11, 13, 15), False, 9))
    for i, b in enumerate(other):
        cp.m.poke(cp.addr("current_board") + i, b)
    cp.call("record_copy")                              # writes under the ROM ...
    assert bytes(cp.m.mem.ram[address:address + 88]) == other
    assert bytes(cp.peek(address + i) for i in range(88)) == bytes(rom[address:address + 88])
    cp.m.poke(0x01, 0x36)                               # ... and shows them once banked out
    assert bytes(cp.peek(address + i) for i in range(88)) == other
