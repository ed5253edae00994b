"""Host names a C64 cannot type, on drive 8 (kernal/disknames.py): every name the
directory lists -- LOAD"$" in BASIC, ryg3's O -- loads its own file."""

import random
import re
import string

import pytest

from c64.machine import C64
from kernal.disk import HostDisk
from kernal.disknames import c64_names, plain_name
from tests.tools.basic_keys import settle

PROGRAM = bytes([0x01, 0x08, 0x0B, 0x08, 0x0A, 0x00, 0x9E]) + b"2061" + bytes([0, 0, 0, 0x60])
LONG = "a-saved-game-from-tuesday.prg"          # 25 characters of stem: over the 1541's 16


def program_marked(mark):
    """A one-line BASIC program `10 REM <mark>`, so LIST tells which file was loaded."""
    text = b"\x8f " + mark.encode("ascii")      # REM
    line = bytes([0x0A, 0x00]) + text + b"\x00"
    return bytes([0x01, 0x08]) + bytes([(0x0801 + 2 + len(line)) & 0xFF, (0x0801 + 2 + len(line)) >> 8]) \
        + line + b"\x00\x00"


def listed_names(machine):
    """The quoted names of LOAD"$" then LIST, in order."""
    settle(machine, 'LOAD"$",8{return}LIST{return}')
    lines = machine.screen_lines()
    names = [re.search(r'"(.*)"', line).group(1).rstrip() for line in lines
             if re.match(r'^\d+ +"', line)]
    return names[1:]                               # without the disk's own name


def loaded_mark(machine, name):
    settle(machine, '{clr}NEW{return}LOAD"%s",8{return}LIST{return}' % name)
    text = "\n".join(machine.screen_lines())
    assert "FILE NOT FOUND" not in text, (name, text)
    return re.search(r"10 REM (\S+)", text).group(1)


def test_a_long_name_is_listed_under_16_characters_that_load_it(tmp_path):
    (tmp_path / LONG).write_bytes(program_marked("LONG"))
    (tmp_path / "short.prg").write_bytes(program_marked("SHORT"))
    m = C64(disk_folder=str(tmp_path))
    settle(m, "")
    names = listed_names(m)
    assert len(names) == 2 and "SHORT" in names
    made_up = [n for n in names if n != "SHORT"][0]
    assert len(made_up) == 16 and made_up.startswith("A-SAVED-GAM#")
    assert loaded_mark(m, made_up) == "LONG"
    assert loaded_mark(m, "SHORT") == "SHORT"


def test_names_differing_only_in_case_or_outside_petscii_each_load_their_own_file(tmp_path):
    marks = {"game.prg": "LOWER", "GAME.prg": "UPPER", "canción.prg": "ACCENT", "a,b.prg": "COMMA",
             "$dir.prg": "DOLLAR", "what?.prg": "QUESTION"}
    for host_name, mark in marks.items():
        (tmp_path / host_name).write_bytes(program_marked(mark))
    m = C64(disk_folder=str(tmp_path))
    settle(m, "")
    names = listed_names(m)
    assert len(names) == len(set(names)) == len(marks)
    assert sorted(loaded_mark(m, name) for name in names) == sorted(marks.values())
    assert "CANCION#" in " ".join(names)                       # accents dropped, letters kept


def test_the_names_are_the_same_on_every_run_and_a_new_file_does_not_move_them(tmp_path):
    (tmp_path / LONG).write_bytes(PROGRAM)
    (tmp_path / "another-very-long-name.prg").write_bytes(PROGRAM)
    before = {e.host_name: e.name for e in HostDisk(str(tmp_path)).entries()}
    assert before == {e.host_name: e.name for e in HostDisk(str(tmp_path)).entries()}
    (tmp_path / "a-third-long-file-name.prg").write_bytes(PROGRAM)
    after = {e.host_name: e.name for e in HostDisk(str(tmp_path)).entries()}
    assert {k: after[k] for k in before} == before


def test_a_name_a_c64_program_could_write_stays_as_it_is():
    for stem in ["GAME", "ryg3partida", "MY GAME 2", "A$B", "HI-SCORES.DAT", "X" * 16, "@HOME", "[1]^_"]:
        assert plain_name(stem) == stem.upper()
    for stem in ["X" * 17, "$DIR", "A*B", "A?B", "A,B", "A=B", "A:B", 'A"B', "é", ""]:
        assert plain_name(stem) is None


def test_a_seq_file_beside_a_prg_of_the_same_name_keeps_its_name():
    names = c64_names([("data.prg", "data", "prg"), ("data.seq", "data", "seq")])
    assert names == {"data.prg": "DATA", "data.seq": "DATA"}


def test_many_random_host_names_get_unique_names_of_16_a_c64_can_load(tmp_path):
    rng = random.Random(1541)
    alphabet = string.ascii_letters + string.digits + " -_.!#()+,=:;$@*?" + "áéñüß日本"
    stems = set()
    while len(stems) < 300:
        stems.add("".join(rng.choice(alphabet) for _ in range(rng.randint(1, 40))).strip(". ") or "x")
    files = [(stem + ".prg", stem, "prg") for stem in sorted(stems, key=lambda s: (s.lower(), s))]
    names = c64_names(files)
    assert len(set(names.values())) == len(files)
    for name in names.values():
        assert 1 <= len(name) <= 16 and not name.startswith("$")
        assert not set(name) & set('"*?,=:') and name == name.upper() and name.isascii()
    assert names == c64_names(files)                            # deterministic
    disk = HostDisk(str(tmp_path))
    for stem in sorted(stems)[:40]:                             # through the drive: found by the listed name
        try:
            (tmp_path / (stem + ".prg")).write_bytes(PROGRAM)
        except OSError:
            continue                                            # a name this host's file system refuses
    for entry in disk.entries():
        assert disk.find(entry.name).host_name == entry.host_name
        data = disk.load(entry.name.encode("ascii"))
        assert data == PROGRAM


@pytest.mark.parametrize("version", ["ryg3", "ryg3en"])
def test_ryg3_lists_a_long_named_saved_game_and_loads_it(tmp_path, version):
    from tests.games.test_ryg3_saved_games import MESSAGES, SAVE_FILES, saved_game
    from tests.games.test_ryg3_ui import ROW_MSG
    game, data = saved_game(tmp_path, version)
    played = game.moves()
    (tmp_path / SAVE_FILES[version]).rename(tmp_path / "the-game-i-played-on-friday.prg")
    game.keys("N" + {"ryg3": "S", "ryg3en": "Y"}[version])       # a new game, confirmed
    game.keys("O")
    assert "THE-GAME-I-#" in game.text()
    game.keys("A")
    assert MESSAGES[version][0] in game.row(ROW_MSG)
    assert game.moves() == played
