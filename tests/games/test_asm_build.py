"""The committed .prg/.map files are exactly what the sources assemble to,
and every program has the BASIC stub "10 SYS2064" with its code at $0810."""

import os

import pytest

from asm import build
from tests.tools.classic_runner import read_map

ASM_DIR = os.path.dirname(build.__file__)
NAMES = build.top_sources()
CLASSIC = ["ryg15", "ryg17", "ryg19", "ryg23"]


def test_every_committed_program_is_byte_identical_to_a_fresh_build():
    problems = build.check(NAMES)
    assert problems == []


def test_the_classic_versions_are_all_built_from_top_files():
    for name in CLASSIC:
        assert name in NAMES


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
