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


def set_locale(monkeypatch, **variables):
    for name in versions.LOCALE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)


@pytest.fixture
def spanish(monkeypatch):
    set_locale(monkeypatch, LANG="es_ES.UTF-8")


@pytest.mark.parametrize("default, variables", [
    ("ryg3", {"LANG": "es_ES.UTF-8"}),
    ("ryg3", {"LANG": "es"}),
    ("ryg3en", {"LANG": "en_GB.UTF-8"}),
    ("ryg3en", {}),
    ("ryg3en", {"LANG": "C.UTF-8"}),
    ("ryg3", {"LC_MESSAGES": "es_MX.UTF-8", "LANG": "en_US.UTF-8"}),
    ("ryg3", {"LC_ALL": "es_AR.UTF-8", "LANG": "de_DE.UTF-8"}),
    ("ryg3en", {"LC_ALL": "C", "LC_MESSAGES": "es_ES.UTF-8", "LANG": "es_ES.UTF-8"}),
    ("ryg3en", {"LC_ALL": "", "LC_MESSAGES": "", "LANG": "en_US.UTF-8"}),     # empty: not set
])
def test_the_default_version_speaks_the_locales_language(monkeypatch, default, variables):
    set_locale(monkeypatch, **variables)
    assert versions.default_version().name == default
    status, out, _ = run_cli("--list")
    marked = [line.split()[0] for line in out.splitlines() if line.endswith("(default)")]
    assert status == 0 and marked == [default]


@pytest.mark.parametrize("lang, default", [("es_ES.UTF-8", "ryg23"), ("en_GB.UTF-8", "ryg23en")])
def test_without_ryg3_the_default_is_the_final_classic_in_the_locales_language(monkeypatch, lang, default):
    set_locale(monkeypatch, LANG=lang)
    monkeypatch.setattr(versions.Version, "available", lambda self: not self.name.startswith("ryg3"))
    assert versions.default_version().name == default


def test_the_list_shows_ryg3_first_then_the_classic_versions_newest_first(spanish):
    status, out, _ = run_cli("--list")
    names = [line.split()[0] for line in out.splitlines()]
    assert status == 0
    assert names == ["ryg3", "ryg3en", "ryg23", "ryg23en", "ryg19", "ryg19en", "ryg17", "ryg17en", "ryg15", "ryg15en"]
    assert out.splitlines()[0].endswith("(default)")
    assert all(len(line.split(None, 1)[1]) > 10 for line in out.splitlines())   # a description each
    described = dict(line.split(None, 1) for line in out.splitlines())
    for name in ("ryg3", "ryg23", "ryg19", "ryg17", "ryg15"):
        assert described[name + "en"] == name + " with English texts"


@pytest.mark.parametrize("lang, title", [("es_ES.UTF-8", "RYG3 - RATON Y GATOS"),
                                         ("en_US.UTF-8", "RYG3 - MOUSE AND CATS")])
def test_python_ryg_py_starts_ryg3_in_the_players_language(monkeypatch, lang, title):
    set_locale(monkeypatch, LANG=lang)
    status, out, err = run_cli("--headless", "--max-cycles", "20000000")
    assert status == 0, err
    assert title in out


def test_a_named_version_is_started_whatever_the_locale(monkeypatch):
    set_locale(monkeypatch, LANG="en_US.UTF-8")
    status, out, _ = run_cli("--headless", "--max-cycles", "20000000", "ryg3")
    assert status == 0 and "RATON Y GATOS" in out
    set_locale(monkeypatch, LANG="es_ES.UTF-8")
    status, out, _ = run_cli("--headless", "--max-cycles", "20000000", "ryg3en")
    assert status == 0 and "MOUSE AND CATS" in out


def test_every_listed_version_has_its_built_program():
    for version in versions.available_versions():
        with open(version.path, "rb") as handle:
            assert handle.read(2) == b"\x01\x08"


@pytest.mark.parametrize("name, title", [(None, "RYG3 - RATON Y GATOS"), ("ryg3en", "RYG3"),
                                         ("ryg23", "RYG23 - RATON Y GATOS"), ("ryg15", "RYG15"),
                                         ("ryg23en", "RYG23 - MOUSE AND CATS"),
                                         ("ryg19en", "RYG19 - MOUSE AND CATS"),
                                         ("ryg17en", "RYG17 - MOUSE AND CATS"),
                                         ("ryg15en", "RYG15 - MOUSE AND CATS")])
def test_a_version_starts_by_name_and_the_default_is_ryg3(spanish, name, title):
    argv = ["--headless", "--max-cycles", "20000000"] + ([name] if name else [])
    status, out, err = run_cli(*argv)
    assert status == 0, err
    assert title in out


def test_a_name_that_is_neither_a_version_nor_a_file_is_refused_with_the_known_names():
    status, _, err = run_cli("--headless", "ryg99")
    assert status == 2
    assert "ryg99" in err and "ryg23" in err


def test_a_saved_game_or_other_data_file_is_not_run_from_the_command_line(tmp_path, monkeypatch):
    from tests.games.test_ryg3_ui import Game
    Game(disk=tmp_path).keys("W{return}")                        # written by the real ryg3
    status, _, err = run_cli("--headless", str(tmp_path / "ryg3partida.prg"))
    assert status == 2 and "ryg3partida.prg is a ryg3 saved game" in err and len(err.splitlines()) == 1
    (tmp_path / "data.prg").write_bytes(b"\x10\xc0" + bytes(20))   # loaded at $C010
    status, _, err = run_cli("--headless", str(tmp_path / "data.prg"))
    assert status == 2 and "data file" in err and "--sys" in err
    (tmp_path / "README.md").write_text("# Notes\n\nnot a program: a text file, \u00f1 too\n")
    status, _, err = run_cli("--headless", str(tmp_path / "README.md"))
    assert status == 2 and "README.md is a text file, not a C64 program" in err and "--sys" not in err
    (tmp_path / "code.prg").write_bytes(b"\x00\xc0\x60")           # RTS at $C000: a program
    status, _, err = run_cli("--headless", "--max-cycles", "100000", str(tmp_path / "code.prg"))
    assert status in (0, 3) and "data file" not in err
