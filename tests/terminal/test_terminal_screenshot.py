"""The screenshot key and the help panel's notes in the interactive loop (fake window, real C64)."""

import xml.etree.ElementTree as ET

from c64.terminal.app import numbered_paths
from tests.tools.pictures import SVG, png_pixels, svg_pixels
from tests.terminal.test_terminal_app import make_app, settle, status_line, type_keys

CTRL_P = "\x10"
F11 = 11 + 264          # FakeCurses.KEY_F0 + 11


def test_ctrl_p_writes_numbered_png_and_svg_files_of_the_screen_and_says_so(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app, window, _ = make_app()
    settle(app, 0.5)
    type_keys(app, window, CTRL_P)
    assert "saved ryg64-001.png and ryg64-001.svg" in status_line(app, window)
    type_keys(app, window, CTRL_P)
    assert "saved ryg64-002.png and ryg64-002.svg" in status_line(app, window)
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "ryg64-001.png", "ryg64-001.svg", "ryg64-002.png", "ryg64-002.svg"]
    first = (tmp_path / "ryg64-001.svg").read_text(encoding="utf-8")
    root = ET.fromstring(first)
    assert root.find(SVG + "desc").text.startswith("HELLO THERE")
    assert root.find(SVG + "title").text == "hello"
    _, _, drawn = svg_pixels(first)
    _, _, rows = png_pixels((tmp_path / "ryg64-001.png").read_bytes())
    assert rows[::2] == [[colour for colour in row for _ in range(2)] for row in drawn]   # one picture, twice
    settle(app, 4.0)
    assert "saved" not in status_line(app, window)             # the note goes after a few seconds


def test_with_the_screenshot_option_ctrl_p_writes_that_kind_only(tmp_path):
    app, window, _ = make_app()
    app.screenshot_base = str(tmp_path / "game.png")
    settle(app, 0.5)
    type_keys(app, window, CTRL_P)
    assert "saved game-001.png" in status_line(app, window)
    assert [path.name for path in tmp_path.iterdir()] == ["game-001.png"]
    png_pixels((tmp_path / "game-001.png").read_bytes())


def test_the_screenshot_names_come_from_the_screenshot_option(tmp_path):
    assert numbered_paths(str(tmp_path / "game.svg"), 7) == [str(tmp_path / "game-007.svg")]
    assert numbered_paths("shot.png", 1) == ["shot-001.png"]
    assert numbered_paths("ryg64", 12) == ["ryg64-012.png", "ryg64-012.svg"]


def test_a_number_taken_by_either_kind_is_skipped(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ryg64-001.svg").write_text("mine")
    app, window, _ = make_app()
    settle(app, 0.5)
    type_keys(app, window, CTRL_P)
    assert "saved ryg64-002.png and ryg64-002.svg" in status_line(app, window)
    assert (tmp_path / "ryg64-001.svg").read_text() == "mine" and not (tmp_path / "ryg64-001.png").exists()


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
    assert "ryg64-001.png and .svg" in text
