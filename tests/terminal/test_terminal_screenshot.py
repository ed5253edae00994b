"""The screenshot key and the help panel's notes in the interactive loop (fake window, real C64)."""

from c64.terminal.app import numbered_path
from tests.machine.test_screenshot import glyphs
from tests.terminal.test_terminal_app import make_app, settle, status_line, type_keys

CTRL_P = "\x10"
F11 = 11 + 264          # FakeCurses.KEY_F0 + 11


def test_ctrl_p_writes_numbered_svg_files_of_the_screen_and_says_so(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app, window, _ = make_app()
    settle(app, 0.5)
    type_keys(app, window, CTRL_P)
    assert "saved ryg64-001.svg" in status_line(app, window)
    type_keys(app, window, CTRL_P)
    assert "saved ryg64-002.svg" in status_line(app, window)
    first = (tmp_path / "ryg64-001.svg").read_text(encoding="utf-8")
    assert "".join(text for *_, text in glyphs(first)).startswith("HELLOTHERE")
    assert "<title>hello</title>" in first
    settle(app, 4.0)
    assert "saved" not in status_line(app, window)             # the note goes after a few seconds


def test_the_screenshot_name_comes_from_the_screenshot_option(tmp_path):
    assert numbered_path(str(tmp_path / "game.svg"), 7) == str(tmp_path / "game-007.svg")
    assert numbered_path("shot", 1) == "shot-001.svg"


def test_a_screenshot_that_cannot_be_written_is_a_note_not_a_crash(tmp_path):
    app, window, _ = make_app()
    app.screenshot_base = str(tmp_path / "missing" / "x.svg")
    settle(app, 0.5)
    type_keys(app, window, CTRL_P)
    assert "screenshot failed" in status_line(app, window)
    assert app.quit_code is None and app.error is None


def test_the_help_panel_says_where_the_settings_and_screenshots_go():
    app, window, _ = make_app()
    app.help_notes = ["settings: /some/where/ryg64/settings.ini"]
    settle(app, 0.5)
    type_keys(app, window, F11)
    text = window.text()
    assert "Ctrl-P" in text and "screenshot" in text
    assert "settings: /some/where/ryg64/settings.ini" in text
    assert "ryg64-001.svg" in text
