"""The monitor's pure parts: address expressions, label files, the source map the build writes."""

import os

import pytest

from asm import build
from c64.cpu import CPU
from c64.monitor.expressions import Condition, ExpressionError, MonitorAddressParser
from c64.monitor.labels import CONSTANT, LabelError, LabelTable, bundled_map_for

ASM_DIR = os.path.dirname(build.__file__)
VERSIONS = build.top_sources()


@pytest.fixture(scope="module")
def ryg23():
    table = LabelTable()
    table.load(os.path.join(ASM_DIR, "ryg23.map"))
    return table


class Registers:
    a, x, y, sp, pc, p = 0x05, 0x01, 0x02, 0xF0, 0x0EA4, 0x30


@pytest.fixture
def parser(ryg23):
    return MonitorAddressParser(ryg23, Registers())


@pytest.mark.parametrize("text, value", [
    ("$c000", 0xC000), ("c000", 0xC000), ("C000", 0xC000), ("+49152", 0xC000), ("%1010", 10),
    ("think", 0x0EA4), ("THINK", 0x0EA4), ("think+3", 0x0EA7), ("think+$10", 0x0EB4),
    ("think-1", 0x0EA3), ("pc", 0x0EA4), ("pc+8", 0x0EAC), ("sp", 0xF0),
    ("think._scan", 0x0EF1), ("_scan", 0x0EF1), ("tree_root-$1d", 0x0F9F),
])
def test_an_address_is_hex_decimal_a_label_or_a_sum_of_them(parser, text, value):
    assert parser.number(text) == value


@pytest.mark.parametrize("text, message", [
    ("zzz", "unknown label 'zzz'"), ("_done", "ambiguous"), ("think+", "bad address"),
    ("+", "bad decimal"), ("1 2", "operator is missing"), ("10000", "out of range"),
    ("", "missing address"), ("think+@", "bad address"),
])
def test_a_bad_address_is_one_clear_message(parser, text, message):
    with pytest.raises(ExpressionError, match=message):
        parser.number(text)


def test_a_condition_compares_registers_and_values(parser):
    assert Condition("a == $05", parser)(Registers())
    assert not Condition("a != 5", parser)(Registers())
    assert Condition("x == 1 && y == 2", parser)(Registers())
    assert Condition("x == 9 || pc == think", parser)(Registers())
    assert not Condition("sp < $80", parser)(Registers())
    with pytest.raises(ExpressionError, match="bad condition"):
        Condition("a $05", parser)


def test_the_ophis_map_gives_labels_variables_and_constants_apart(ryg23):
    assert ryg23.address_of("think") == 0x0EA4
    assert ryg23.name_at(0x0002) == "p_node"            # .space beats the record offset alias
    assert ryg23.name_at(0xFFD2) == "chrout"            # a lower-case alias is an address
    assert [l.kind for l in ryg23.labels if l.name == "r_level"] == [CONSTANT]
    assert ryg23.describe(0x0EA6) == "think+$02"
    assert ryg23.where(0x0EA4) == "think (classic/think.oph:15)"


def test_the_later_bytes_of_a_variable_are_named_from_it(ryg23):
    boards = ryg23.address_of("boards_made")                 # .space boards_made 4
    assert [ryg23.name_at(boards + i) for i in range(5)] == [
        "boards_made", "boards_made+1", "boards_made+2", "boards_made+3", ryg23.name_at(boards + 4)]
    assert ryg23.name_at(boards + 4) != "boards_made+4"


def test_a_local_label_is_bare_inside_its_routine_and_qualified_outside(ryg23):
    scan = ryg23.address_of("think._scan")
    assert ryg23.name_at(scan, near=0x0EA6) == "_scan"
    assert ryg23.name_at(scan, near=0x0810) == "think._scan"


def test_a_vice_label_file_loads(tmp_path):
    path = tmp_path / "game.lbl"
    path.write_text("al C:c000 .start\nal C:c010 .loop\nal 00fb .ptr\n")
    table = LabelTable()
    assert table.load(str(path)) == 3
    assert table.address_of("loop") == 0xC010
    assert table.describe(0xC012) == "loop+$02"
    assert table.name_at(0x00FB) == "ptr"


def test_a_file_that_is_no_label_file_is_refused_in_one_line(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("hello world\n")
    with pytest.raises(LabelError, match="neither an Ophis .map nor a VICE label file"):
        LabelTable().load(str(path))
    with pytest.raises(LabelError, match="cannot read"):
        LabelTable().load(str(tmp_path / "missing.map"))


@pytest.mark.parametrize("name", VERSIONS)
def test_every_line_of_the_source_map_is_an_instruction_of_the_prg_and_its_source_line(name):
    with open(os.path.join(ASM_DIR, name + ".prg"), "rb") as handle:
        raw = handle.read()
    load, data = raw[0] | raw[1] << 8, raw[2:]
    table = LabelTable()
    table.load(os.path.join(ASM_DIR, name + ".map"))
    assert len(table.lines) > 500
    for address, (path, number) in table.lines.items():
        opcode = data[address - load]
        mnemonic = CPU.disassemble[opcode][0].lower()
        text = table.source_lines(path)[number - 1].split(";")[0].lower()
        # (Ophis rewrites an out-of-range branch as the opposite branch over a JMP.)
        assert mnemonic in text or (mnemonic in ("jmp", "bcc", "bcs", "beq", "bne", "bpl", "bmi")
                                    and text.split()[0][:1] == "b"), (name, hex(address), text)


def test_the_bundled_map_is_found_by_the_program_bytes():
    with open(os.path.join(ASM_DIR, "ryg19.prg"), "rb") as handle:
        raw = handle.read()
    assert bundled_map_for(raw[2:], 0x0801).endswith("ryg19.map")
    assert bundled_map_for(raw[2:] + b"\x00", 0x0801) is None



def test_a_bundled_program_that_is_not_a_prg_file_is_skipped_not_read_whole(monkeypatch, tmp_path):
    from types import SimpleNamespace
    from asm import versions
    huge = tmp_path / "huge.prg"
    huge.write_bytes(bytes(0x20000))                       # larger than any .prg can be
    (tmp_path / "huge.map").write_text("")
    monkeypatch.setattr(versions, "VERSIONS", [SimpleNamespace(path="/dev/zero"),   # endless
                                               SimpleNamespace(path=str(huge))])
    assert bundled_map_for(bytes(0x1FFFE), 0) is None
