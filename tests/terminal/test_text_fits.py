"""Every text fits the terminal, down to the 40x26 minimum: the version menu, the monitor's
help and its panel, laid out for 40, 60, 78 and 80 columns with nothing cut (the app on a fake
curses window of each size, and once in a real 40x26 terminal in tmux)."""

import dataclasses
import re
import shutil
import sys

import pytest

from asm.versions import VERSIONS
from c64.machine import C64
from c64.monitor import Monitor
from c64.monitor.commands import HELP
from c64.terminal.keys import HELP_LINES
from c64.textfit import fitting, two_columns, wrapped
from tests.terminal.test_terminal_app import F0, make_app, settle, type_keys
from tests.terminal.test_terminal_render import FakeCurses
from tests.terminal.test_tmux_e2e import ROOT, Tmux

WIDTHS = (40, 60, 78, 80)
CTRL_O = "\x0f"


def words(text):
    return text.split()


def box_text(window, rows):
    """The text inside the box the menus draw ('| ... |' lines), as one string of words."""
    inside = []
    for row in range(rows):
        line = window.line(row)
        match = re.search(r"\| (.*) \|", line)
        if match:
            inside.append(match.group(1))
    return " ".join(" ".join(inside).split())


def test_wrapped_breaks_at_spaces_within_the_width_and_keeps_every_word():
    text = "what m/i/d/> read and write: what the CPU sees (ROM, I/O) or the RAM below"
    for width in (10, 20, 40):
        lines = wrapped(text, width, "  ")
        assert all(len(line) <= width for line in lines)
        assert words(" ".join(lines)) == words(text)
        assert all(line.startswith("  ") for line in lines[1:])
    assert wrapped(text, None) == [text] == wrapped(text, len(text))
    assert wrapped("abcdefghijkl", 5) == ["abcde", "fghij", "kl"]       # a word longer than a line


def test_two_columns_puts_a_long_term_on_its_own_line_and_wraps_the_text_at_the_column():
    entries = [("z [count]", "step one instruction (or count)"),
               ("watch [load|store] addr [end] [if cond]", "stop after a load/store of the address(es)")]
    short, long = two_columns(entries, 40)
    assert short == ["z [count]    step one instruction (or", "             count)"]
    assert long[0] == "watch [load|store] addr [end] [if cond]"
    assert all(line.startswith(" " * 13) for line in long[1:])
    assert words(" ".join(long[1:])) == words(entries[1][1])
    assert two_columns(entries, None)[0] == ["z [count]" + " " * 32 + "step one instruction (or count)"]


def test_fitting_takes_the_longest_wording_that_fits():
    variants = ("a long title here", "a title", "t")
    assert fitting(variants, 80) == "a long title here"
    assert fitting(variants, 10) == "a title"
    assert fitting(variants, 0) == ""


@pytest.mark.parametrize("width", WIDTHS)
def test_the_monitors_help_fits_the_width_and_says_everything(width):
    monitor = Monitor(C64(sid_seed=1))
    monitor.width = width
    text = monitor.execute("help")
    assert max(len(line) for line in text.splitlines()) <= width
    for usage, description in HELP:
        assert " ".join(words(usage) + words(description)) in " ".join(words(text))
    assert "label+offset, pc" in " ".join(words(text))
    help_z = monitor.execute("help z")
    assert max(len(line) for line in help_z.splitlines()) <= width and "step one instruction" in help_z


def test_the_monitors_help_without_a_width_is_one_line_a_command():
    monitor = Monitor(C64(sid_seed=1))
    assert len(monitor.execute("help").splitlines()) == len(HELP) + 1


@pytest.mark.parametrize("width", WIDTHS)
def test_the_monitor_panel_lays_out_help_for_its_width_and_wraps_long_output(width):
    app, window, _ = make_app(rows=26, cols=width)
    settle(app, 0.3)
    type_keys(app, window, CTRL_O)
    type_keys(app, window, *"help bank", "\n")
    shown = " ".join(words(" ".join(window.line(row) for row in range(26))))
    assert "bank [cpu|ram] what m/i/d/> read and write: what the CPU sees (ROM, I/O) or the RAM below" in shown
    assert "monitor" in window.line(0) and len(window.line(0).rstrip()) <= width
    app.panel.add("x" * 30 + " " + "y" * 30 + " " + "z" * 30)       # any output line wraps too
    app.overlay.draw(app.surface)
    shown = " ".join(words(" ".join(window.line(row) for row in range(26))))
    assert "x" * 30 + " " + "y" * 30 + " " + "z" * 30 in shown


@pytest.mark.parametrize("width", WIDTHS)
def test_the_version_menu_shows_every_description_whole(width):
    app, window, _ = make_app(rows=26, cols=width, versions=VERSIONS)
    settle(app, 0.3)
    type_keys(app, window, F0 + 10)
    shown = box_text(window, 26)
    for version in VERSIONS:
        assert " ".join(words(version.description)) in shown, (width, version.name)
    assert "arrows + Enter or 1-9 start it (the C64 resets); Esc closes" in shown
    assert all(len(window.line(row)) <= width for row in range(26))


def test_the_version_menu_keeps_the_chosen_entry_in_view_in_a_short_box():
    many = [dataclasses.replace(VERSIONS[0], name="v%d" % n) for n in range(30)]
    app, window, _ = make_app(rows=26, cols=40, versions=many)
    settle(app, 0.3)
    type_keys(app, window, F0 + 10)
    for _ in range(20):
        type_keys(app, window, FakeCurses.KEY_DOWN, seconds=0.05)
    assert "v20" in box_text(window, 26) and "v0 " not in box_text(window, 26) + " "


@pytest.mark.parametrize("width", WIDTHS)
def test_the_help_panel_fits_the_width_in_pages_that_show_every_key(width):
    app, window, _ = make_app(rows=26, cols=width)
    settle(app, 0.3)
    type_keys(app, window, F0 + 11)
    seen = []
    for _ in range(10):
        assert all(len(window.line(row)) <= width for row in range(26))
        seen.append(box_text(window, 26))
        if "any key closes this panel" in seen[-1]:
            break
        assert "any key goes on, Esc closes" in seen[-1]
        type_keys(app, window, " ")
    shown = " ".join(seen)
    for keys, text in HELP_LINES:
        assert " ".join(words(keys) + words(text)) in shown, (width, keys)
    assert "ryg64-001" in shown
    type_keys(app, window, " ")
    assert app.overlay is None
    if width >= 78:
        assert len(seen) == 1                       # 80x26: one page, as before


def test_esc_closes_the_help_panel_on_any_page():
    app, window, _ = make_app(rows=26, cols=40)
    settle(app, 0.3)
    type_keys(app, window, F0 + 11)
    assert "page 1 of" in box_text(window, 26)
    type_keys(app, window, "\x1b")
    assert app.overlay is None


def test_the_help_panels_pages_are_one_box_size_so_no_edge_is_left_behind():
    app, window, _ = make_app(rows=26, cols=40)
    settle(app, 0.3)
    type_keys(app, window, F0 + 11)
    while app.overlay is not None:
        box_rows = [row for row in range(26) if window.line(row).startswith(("+", "|"))]
        assert box_rows == list(range(26))[:len(box_rows)] and window.line(box_rows[-1]).startswith("+-")
        assert sum(window.line(row).startswith("+") for row in box_rows) == 2
        type_keys(app, window, " ")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_in_a_real_40_by_26_terminal_the_menu_and_the_monitors_help_are_whole():
    command = "cd %s && %s ryg.py --no-config ryg3en; sleep 30" % (ROOT, sys.executable)
    tmux = Tmux("sh -c '%s'" % command, cols=40, rows=26)
    try:
        tmux.wait_for("ryg3en")
        tmux.send("F10")
        screen = tmux.wait_for(lambda screen: "Versions" in screen and "Esc closes" in screen)
        shown = " ".join(" ".join(re.findall(r"\| (.*) \|", screen)).split())
        for version in VERSIONS:
            if version.available():
                assert " ".join(words(version.description)) in shown, (version.name, screen)
        assert all(len(line) <= 40 for line in screen.splitlines())
        tmux.send("Escape")
        tmux.send("C-o")
        tmux.wait_for("monitor")
        tmux.send("help bank", "Enter")
        screen = tmux.wait_for("RAM below")
        assert "what m/i/d/> read and write: what the CPU sees (ROM, I/O) or the RAM below" in " ".join(
            words(screen))
    finally:
        tmux.kill()
