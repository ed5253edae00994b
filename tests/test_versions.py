"""The bundled versions: what --list shows, what `python ryg.py` starts, and names that are not versions."""

import io
from contextlib import redirect_stderr, redirect_stdout

import pytest

import ryg
from asm import versions


def run_cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = ryg.main(list(argv))
    return status, out.getvalue(), err.getvalue()


def test_the_list_shows_ryg3_first_as_the_default_then_the_classic_versions_newest_first():
    status, out, _ = run_cli("--list")
    names = [line.split()[0] for line in out.splitlines()]
    assert status == 0
    assert names == ["ryg3", "ryg3en", "ryg23", "ryg19", "ryg17", "ryg15"]
    assert out.splitlines()[0].endswith("(default)")
    assert all(len(line.split(None, 1)[1]) > 10 for line in out.splitlines())   # a description each


def test_every_listed_version_has_its_built_program():
    for version in versions.available_versions():
        with open(version.path, "rb") as handle:
            assert handle.read(2) == b"\x01\x08"


@pytest.mark.parametrize("name, title", [(None, "RYG3 - RATON Y GATOS"), ("ryg3en", "RYG3"),
                                         ("ryg23", "RYG23 - RATON Y GATOS"), ("ryg15", "RYG15")])
def test_a_version_starts_by_name_and_the_default_is_ryg3(name, title):
    argv = ["--headless", "--max-cycles", "20000000"] + ([name] if name else [])
    status, out, err = run_cli(*argv)
    assert status == 0, err
    assert title in out


def test_a_name_that_is_neither_a_version_nor_a_file_is_refused_with_the_known_names():
    status, _, err = run_cli("--headless", "ryg99")
    assert status == 2
    assert "ryg99" in err and "ryg23" in err
