"""Settings that stay (c64.host.settings, ryg.py, the terminal session): always in a temporary config folder."""

import os
from types import SimpleNamespace

import pytest

import ryg
from asm import versions
from c64.host import settings
from c64.host.settings import Settings
from c64.terminal import session as session_module


@pytest.fixture
def config_dir(tmp_path, monkeypatch):
    """RYG64_CONFIG_DIR pointed at a temporary folder: the real home is never touched."""
    folder = tmp_path / "config"
    monkeypatch.setenv(settings.ENV_DIR, str(folder))
    return folder


@pytest.fixture
def started(monkeypatch):
    """Replace the curses front end: record what it was given and remember like the real session."""
    calls = []

    def fake_run_terminal(program, args, cpu_class):
        calls.append((program, args))
        session_module.remember(args, program)
        return 0

    import c64.terminal
    monkeypatch.setattr(c64.terminal, "run_terminal", fake_run_terminal)
    return calls


def test_the_config_folder_is_the_env_var_or_platformdirs_user_config_dir():
    from platformdirs import user_config_dir
    assert settings.config_dir({"RYG64_CONFIG_DIR": "/x/y"}) == "/x/y"
    assert settings.config_dir({}) == user_config_dir("ryg64", appauthor=False)
    assert settings.config_path({"RYG64_CONFIG_DIR": "/x/y"}) == os.path.join("/x/y", "settings.ini")


def test_a_missing_file_is_the_defaults_without_a_warning(tmp_path):
    assert settings.load(str(tmp_path / "settings.ini")) == (Settings(), None)
    assert Settings() == Settings(palette="vice", colors="auto", glyphs="auto", warp=False, version="")


def test_saved_settings_load_back_the_same(tmp_path):
    path = str(tmp_path / "deep" / "settings.ini")
    chosen = Settings(palette="grey", colors="256", glyphs="legacy", warp=True, version="ryg23")
    assert settings.save(path, chosen) is None
    assert settings.load(path, ["ryg3", "ryg23"]) == (chosen, None)
    assert "palette = grey" in open(path, encoding="utf-8").read()


@pytest.mark.skipif(not hasattr(os, "symlink") or os.name != "posix", reason="symbolic links and modes")
def test_saving_never_writes_through_a_planted_link_and_keeps_the_files_mode(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    folder = tmp_path / "config"
    folder.mkdir()
    (folder / "settings.ini.new").symlink_to(victim)        # the old fixed temporary name
    path = folder / "settings.ini"
    path.write_text("[ryg64]\n")
    os.chmod(path, 0o640)
    assert settings.save(str(path), Settings(palette="grey")) is None
    assert victim.read_text() == "precious\n"
    assert "palette = grey" in path.read_text()
    assert os.stat(path).st_mode & 0o777 == 0o640


@pytest.mark.parametrize("text", ["not an ini file at all\n", "[ryg64\npalette = grey\n", "[other]\nx = 1\n",
                                  b"\xff\xfe\x00garbage"])
def test_a_broken_file_gives_the_defaults_and_one_line_of_warning(tmp_path, text):
    path = tmp_path / "settings.ini"
    (path.write_bytes if isinstance(text, bytes) else path.write_text)(text)
    loaded, warning = settings.load(str(path))
    assert loaded == Settings()
    assert warning.startswith("ignoring the settings file %s: " % path) and "\n" not in warning


def test_a_bad_value_falls_back_to_its_default_and_is_named(tmp_path):
    path = tmp_path / "settings.ini"
    path.write_text("[ryg64]\npalette = sepia\ncolors = 16\nwarp = maybe\nversion = ryg99\nspeed = 3\n")
    loaded, warning = settings.load(str(path), ["ryg3"])
    assert loaded == Settings(colors="16")
    assert "palette = sepia" in warning and "warp = maybe" in warning and "version = ryg99" in warning
    assert "unknown setting speed" in warning and "\n" not in warning


def test_an_unwritable_folder_is_a_one_line_warning(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    warning = settings.save(str(blocker / "settings.ini"), Settings())
    assert warning.startswith("cannot write the settings file") and "\n" not in warning


def test_the_file_fills_in_what_the_command_line_leaves_out_and_the_command_line_wins(config_dir, started):
    settings.save(str(config_dir / "settings.ini"), Settings(palette="grey", colors="16", warp=True))
    assert ryg.main(["--palette", "pepto", "ryg23"]) == 0
    _, args = started[-1]
    assert (args.palette, args.colors, args.glyphs, args.warp) == ("pepto", "16", "auto", True)
    remembered, _ = settings.load(str(config_dir / "settings.ini"), ["ryg23"])
    assert remembered == Settings(palette="pepto", colors="16", warp=True, version="ryg23")


def test_no_warp_and_ascii_are_remembered_too(config_dir, started):
    settings.save(str(config_dir / "settings.ini"), Settings(warp=True))
    ryg.main(["--no-warp", "--ascii", "ryg23"])
    remembered, _ = settings.load(str(config_dir / "settings.ini"), ["ryg23"])
    assert (remembered.warp, remembered.glyphs) == (False, "ascii")


def test_without_a_name_the_last_version_played_starts(config_dir, started):
    ryg.main(["ryg19"])
    ryg.main([])
    program, _ = started[-1]
    assert program.name == "ryg19.prg"


def test_no_config_neither_reads_nor_writes_the_file(config_dir, started):
    path = config_dir / "settings.ini"
    settings.save(str(path), Settings(palette="grey", version="ryg19"))
    before = path.read_text()
    ryg.main(["--no-config", "ryg23"])
    program, args = started[-1]
    assert args.palette == "vice" and args.settings_path is None
    ryg.main(["--no-config"])
    assert started[-1][0].name == versions.default_version().name + ".prg"     # not the remembered ryg19
    assert path.read_text() == before


def test_a_broken_file_is_one_line_on_stderr_and_the_game_still_starts(config_dir, started, capsys):
    config_dir.mkdir()
    (config_dir / "settings.ini").write_text("palette: [unclosed\n")
    assert ryg.main(["ryg23"]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("ryg: ignoring the settings file")
    assert started[-1][1].palette == "vice"
    assert (config_dir / "settings.ini").read_text() == "palette: [unclosed\n"     # left for the user to fix


def test_headless_runs_never_read_the_file(config_dir, capsys):
    config_dir.mkdir()
    (config_dir / "settings.ini").write_text("[ryg64]\nversion = ryg19\n")
    assert ryg.main(["--headless"]) == 0
    assert "RYG3" in capsys.readouterr().out                   # the default ryg3 or ryg3en, not ryg19


def test_remember_keeps_the_previous_version_for_a_prg_that_is_not_bundled(tmp_path):
    path = str(tmp_path / "settings.ini")
    args = SimpleNamespace(settings_path=path, settings=Settings(version="ryg23"))
    session_module.remember(args, SimpleNamespace(name="mygame.prg"))
    assert settings.load(path, ["ryg23"])[0].version == "ryg23"


# -- a file of any size and shape costs one short line; what a person wrote stays -----------------

@pytest.mark.parametrize("content", [b"x" * 2_000_000, b"palette = grey " * 200],
                         ids=["2 MB on one line", "a long line without a section"])
def test_a_long_line_without_a_section_is_a_short_warning(tmp_path, content):
    path = tmp_path / "settings.ini"
    path.write_bytes(content)
    loaded, warning = settings.load(str(path))
    assert loaded == Settings()
    assert warning.startswith("ignoring the settings file %s: " % path) and len(warning) < 300


def test_a_huge_file_is_refused_unread(tmp_path):
    path = tmp_path / "settings.ini"
    with open(path, "wb") as out:
        out.truncate(100 * 1024 * 1024)          # 100 MB of zero bytes (sparse: no disk used)
    loaded, warning = settings.load(str(path))
    assert loaded == Settings()
    assert warning == "ignoring the settings file %s: larger than 65,536 bytes" % path
    assert settings.save(str(path), Settings(palette="grey")).startswith("cannot write the settings file")
    assert os.path.getsize(path) == 100 * 1024 * 1024


PERSONAL = """# my settings, kept in my dotfiles
[ryg64]
; the grey one is easier on my eyes
Palette = Grey
warp=on

[other]
mine = 1
"""


def test_saving_keeps_the_persons_comments_spelling_and_other_lines(tmp_path):
    path = tmp_path / "settings.ini"
    path.write_text(PERSONAL)
    before = os.stat(path).st_mtime_ns
    assert settings.save(str(path), Settings(palette="grey", warp=True)) is None
    assert path.read_text() == PERSONAL and os.stat(path).st_mtime_ns == before   # nothing changed: not written
    assert settings.save(str(path), Settings(palette="pepto", warp=True, version="ryg23")) is None
    assert path.read_text() == PERSONAL.replace("Palette = Grey", "Palette = pepto").replace(
        "warp=on\n", "warp=on\nversion = ryg23\n")
    assert settings.load(str(path), ["ryg23"]) == (Settings(palette="pepto", warp=True, version="ryg23"), None)


def test_saving_keeps_windows_line_ends(tmp_path):
    path = tmp_path / "settings.ini"
    path.write_bytes(b"# mine\r\n[ryg64]\r\npalette = vice\r\n")
    assert settings.save(str(path), Settings(palette="grey")) is None
    assert path.read_bytes() == b"# mine\r\n[ryg64]\r\npalette = grey\r\n"


def test_a_file_without_the_section_gets_it_after_what_was_there(tmp_path):
    path = tmp_path / "settings.ini"
    path.write_text("# only a comment")
    assert settings.save(str(path), Settings(glyphs="ascii")) is None
    assert path.read_text() == "# only a comment\n\n[ryg64]\nglyphs = ascii\n"
    assert settings.load(str(path)) == (Settings(glyphs="ascii"), None)
