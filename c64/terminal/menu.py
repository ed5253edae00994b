"""Overlays on the C64 screen: the version menu and the help panel.

Both are boxes drawn over the picture while the emulation is paused; the
caller repaints the screen when they close.  Keys reach them raw (as
get_wch returned them) and they answer what to do next.
"""

import os
from collections import namedtuple

from asm.versions import saved_game_headers
from charset.colours import BLACK, BLUE, LIGHT_GREY, WHITE
from c64.loader import runnable_start
from c64.terminal.keys import HELP_LINES
from c64.terminal.surface import Style

BOX = Style(BLACK, LIGHT_GREY, False)
SELECTED = Style(WHITE, BLUE, True)

# name: shown; description: one line; path: the .prg to start.
MenuEntry = namedtuple("MenuEntry", "name description path")

CLOSE = "close"


def menu_entries(versions, folder=".", data_files=None):
    """The bundled versions (asm.versions.Version objects), then the programs among the
    .prg files of `folder`.  Data files (saved games and anything else the machine could
    not start: c64.loader.runnable_start) are not offered; their names are appended to
    the list `data_files` when one is given.  Last comes BASIC with no program (path None)."""
    entries = [MenuEntry(v.name, v.description, v.path) for v in versions]
    bundled = {os.path.realpath(e.path) for e in entries if e.path is not None}
    try:
        names = sorted(os.listdir(folder), key=str.lower)
    except OSError:
        names = []
    saved_games = saved_game_headers()
    for name in names:
        path = os.path.join(folder, name)
        if name.lower().endswith(".prg") and os.path.isfile(path) and os.path.realpath(path) not in bundled:
            if _is_program(path, saved_games):
                entries.append(MenuEntry(name, "a .prg file in this folder", path))
            elif data_files is not None:
                data_files.append(name)
    entries.append(MenuEntry("BASIC", "COMMODORE 64 BASIC V2, no program", None))
    return entries


def _is_program(path, saved_games):
    try:
        with open(path, "rb") as handle:
            head = handle.read(4096)
            size = os.fstat(handle.fileno()).st_size
    except OSError:
        return False
    if len(head) >= 2 and (head[0] | head[1] << 8, size) in saved_games:
        return False
    return runnable_start(head) is not None


def _box(surface, lines, styles, title):
    """Draw lines in a box centred on the surface; returns nothing."""
    rows, cols = surface.size()
    inner = max([len(title) + 2] + [len(line) for line in lines])
    width = min(cols, inner + 4)
    height = min(rows, len(lines) + 2)
    top = max(0, (rows - height) // 2)
    left = max(0, (cols - width) // 2)
    border = "+" + ("-" * (width - 2)) + "+"
    head = ("+- " + title + " " + "-" * width)[:width - 1] + "+"
    surface.put(top, left, head, BOX)
    for offset, line in enumerate(lines[:height - 2]):
        text = ("| " + line + " " * width)[:width - 2] + " |"
        surface.put(top + 1 + offset, left, text, BOX)
        if styles[offset] is not BOX:
            surface.put(top + 1 + offset, left + 2, (line + " " * width)[:width - 4], styles[offset])
    surface.put(top + height - 1, left, border, BOX)


class VersionMenu:
    """A list of programs to choose from: arrows and Enter, or the entry's number."""

    def __init__(self, entries, curses_module, current=None, data_files=()):
        self.entries = entries
        self.data_files = list(data_files)      # shown apart, never started
        self.keys_up = {getattr(curses_module, "KEY_UP", -1), "k"}
        self.keys_down = {getattr(curses_module, "KEY_DOWN", -1), "j"}
        self.keys_enter = {getattr(curses_module, "KEY_ENTER", -1), "\n", "\r"}
        self.keys_close = {"\x1b", "\x16", "q", getattr(curses_module, "KEY_F0", -100) + 10}
        self.selected = 0
        for index, entry in enumerate(entries):
            if entry.name == current:
                self.selected = index
        self.first = 0

    def handle(self, key):
        """CLOSE, a MenuEntry to start, or None (stay open)."""
        if key in self.keys_close:
            return CLOSE
        if not self.entries:
            return CLOSE if key in self.keys_enter else None
        if key in self.keys_up:
            self.selected = (self.selected - 1) % len(self.entries)
        elif key in self.keys_down:
            self.selected = (self.selected + 1) % len(self.entries)
        elif key in self.keys_enter:
            return self.entries[self.selected]
        elif isinstance(key, str) and key.isdigit() and 1 <= int(key) <= min(9, len(self.entries)):
            return self.entries[int(key) - 1]
        return None

    def draw(self, surface):
        rows, _ = surface.size()
        if not self.entries:
            _box(surface, ["no RYG version is built and no .prg here", "",
                           "Esc closes"], [BOX] * 3, "Versions")
            return
        visible = max(1, rows - 5)
        if self.selected < self.first:
            self.first = self.selected
        elif self.selected >= self.first + visible:
            self.first = self.selected - visible + 1
        shown = self.entries[self.first:self.first + visible]
        name_width = max(len(e.name) for e in self.entries)
        lines, styles = [], []
        for index, entry in enumerate(shown, self.first):
            number = "%d" % (index + 1) if index < 9 else " "
            lines.append("%s %-*s  %s" % (number, name_width, entry.name, entry.description))
            styles.append(SELECTED if index == self.selected else BOX)
        lines += ["", "arrows + Enter or 1-9 start it (the C64 resets); Esc closes"]
        styles += [BOX, BOX]
        if self.data_files:
            names = ", ".join(self.data_files)
            if len(names) > 60:
                names = names[:57] + "..."
            lines += ["", "data files, not programs (saved games ...):", "  " + names]
            styles += [BOX, BOX, BOX]
        _box(surface, lines, styles, "Versions")


class HelpPanel:
    """Every key of the front end, then `notes` (where settings and screenshots go); any key closes it."""

    def __init__(self, notes=()):
        self.notes = list(notes)

    def handle(self, key):
        return CLOSE

    def draw(self, surface):
        width = max(len(keys) for keys, _ in HELP_LINES)
        lines = [("%-*s  %s" % (width, keys, text)).rstrip() for keys, text in HELP_LINES]
        if self.notes:
            # After the emulator's own keys, so a short terminal still shows them.
            first_blank = lines.index("") if "" in lines else len(lines)
            _, cols = surface.size()
            room = max(20, cols - 4)
            notes = []
            for note in self.notes:
                while len(note) > room:           # a long path goes on over the next lines
                    notes.append(note[:room])
                    note = "  " + note[room:]
                notes.append(note)
            lines[first_blank:first_blank] = notes
        lines += ["", "any key closes this panel"]
        _box(surface, lines, [BOX] * len(lines), "RYG64 keys")
