"""The committed .prg/.map files are exactly what the sources assemble to,
every program has the BASIC stub "10 SYS2064" with its code at $0810, and
the classic versions' English builds are the Spanish programs with other
texts, the Spanish ones staying the originals' bytes."""

import hashlib
import os

import pytest

from asm import build
from tests.tools.classic_games import SPANISH_WORDS
from tests.tools.classic_runner import read_map

ASM_DIR = os.path.dirname(build.__file__)
NAMES = build.top_sources()
SPANISH = ["ryg15", "ryg17", "ryg19", "ryg23"]
CLASSIC = SPANISH + [name + "en" for name in SPANISH]
# SHA-256 of the Spanish classic programs.  Their texts moved to
# asm/classic/strings_es.oph without changing a byte; a change to these
# programs must be deliberate, and updates the digest saying why.
ORIGINAL_SHA256 = {
    "ryg15": "dda78964735ff6c07b502b2642c82719076d1ee365daed9505c9f2fd039eea62",
    "ryg17": "dfcc9fe13d3afbc8462a39770ccae6ffcf40709815fb3c92cb697214942d88c8",
    "ryg19": "5604162f278a9905ae1673654881f7a9f45a937985beb3557e6c407f9a86fd1c",
    "ryg23": "71004791808392cca5b3e612741f68d53d1f3ab7b84ec1b12bc19d8e9088a5a4",
}


def test_every_committed_program_is_byte_identical_to_a_fresh_build():
    problems = build.check(NAMES)
    assert problems == []


def test_the_classic_versions_are_all_built_from_top_files():
    for name in CLASSIC:
        assert name in NAMES


@pytest.mark.parametrize("name", SPANISH)
def test_the_spanish_classic_programs_keep_the_originals_bytes(name):
    with open(os.path.join(ASM_DIR, name + ".prg"), "rb") as f:
        assert hashlib.sha256(f.read()).hexdigest() == ORIGINAL_SHA256[name]


def _instructions(name):
    """[(source line, opcode)] of every instruction of a program, from its .lines and .prg."""
    with open(os.path.join(ASM_DIR, name + ".prg"), "rb") as f:
        raw = f.read()
    load = raw[0] | raw[1] << 8
    found = []
    with open(os.path.join(ASM_DIR, name + ".lines")) as f:
        for line in f:
            if line.startswith("$"):
                address, source = line.split(" | ")
                found.append((source.strip(), raw[2 + int(address[1:], 16) - load]))
    return found


@pytest.mark.parametrize("name", SPANISH)
def test_an_english_build_runs_the_same_instructions_from_the_same_source_lines(name):
    spanish, english = _instructions(name), _instructions(name + "en")
    assert len(spanish) > 500
    assert english == spanish


@pytest.mark.parametrize("name", SPANISH)
def test_an_english_build_holds_no_spanish_text(name):
    def words(program):
        with open(os.path.join(ASM_DIR, program + ".prg"), "rb") as f:
            text = f.read().decode("latin-1")          # PETSCII letters are ASCII capitals
        return [word for word in SPANISH_WORDS if word in text]
    assert words(name) == list(SPANISH_WORDS)           # the check would see them
    assert words(name + "en") == []


@pytest.mark.parametrize("name", CLASSIC)
def test_the_prg_starts_with_the_basic_line_10_sys2064(name):
    with open(os.path.join(ASM_DIR, name + ".prg"), "rb") as f:
        data = f.read()
    assert data[:2] == b"\x01\x08"                     # load address $0801
    line = data[2:2 + 12]
    link = line[0] | line[1] << 8
    assert line[2:4] == b"\x0a\x00"                    # line number 10
    assert line[4:10] == b"\x9e2064\x00"               # SYS 2064
    assert link == 0x0801 + 10 and line[10:12] == b"\x00\x00"   # the only line
    assert len(data) > 2 + 0x0F                         # code follows from $0810


@pytest.mark.parametrize("name", CLASSIC)
def test_the_entry_point_main_is_at_0810_and_the_tree_follows_the_code(name):
    labels = read_map(os.path.join(ASM_DIR, name + ".map"))
    assert labels["main"] == 0x0810
    with open(os.path.join(ASM_DIR, name + ".prg"), "rb") as f:
        end = 0x0801 + len(f.read()) - 2
    assert labels["current_board"] < labels["free_ptr"] < labels["tree_root"] == end


def test_a_failing_source_is_reported_with_ophis_messages(tmp_path):
    (tmp_path / "broken.oph").write_text("        lda #\n")
    with pytest.raises(RuntimeError, match="ophis failed"):
        build.assemble("broken", str(tmp_path), asm_dir=str(tmp_path))


def test_check_reports_a_committed_file_that_differs(tmp_path):
    (tmp_path / "tiny.oph").write_text(".word $c000\n.org $c000\n        rts\n")
    build.assemble("tiny", str(tmp_path), asm_dir=str(tmp_path))
    assert build.check(["tiny"], asm_dir=str(tmp_path)) == []
    (tmp_path / "tiny.prg").write_bytes(b"\x00\xc0\xea")
    assert build.check(["tiny"], asm_dir=str(tmp_path)) == ["tiny.prg: differs from a fresh build"]


def test_shifted_letters_type_as_plain_letters_in_the_games_key_input():
    # A terminal's capital letters arrive as SHIFT+letter ($C1-$DA); the games read them as
    # the letters, so "0F" typed with caps lock is depth 0F.
    from c64.machine import C64
    m = C64()
    m.run_program(os.path.join(ASM_DIR, "ryg23.prg"))
    m.type("0{shift-f}{return}")
    m.run(20_000_000)
    assert "PROFUNDIDAD (01-0F) ? 0F" in m.screen_text()
