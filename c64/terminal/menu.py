"""Overlays on the C64 screen: the version menu and the help panel.

Both are boxes drawn over the picture while the emulation is paused; the
caller repaints the screen when they close, and when a box drawn is not where
the last one was (draw returns its rows and columns).  Keys reach them raw (as
get_wch returned them) and they answer what to do next.
"""

import os
from collections import namedtuple

from asm.versions import saved_game_headers
from charset.colours import BLACK, BLUE, LIGHT_GREY, WHITE
from c64.host import files as hostfiles
from c64.loader import runnable_start
from c64.terminal.keys import HELP_LINES
from c64.terminal.surface import Style
from c64.textfit import two_columns, wrapped

BOX = Style(BLACK, LIGHT_GREY, False)
SELECTED = Style(WHITE, BLUE, True)

# name: shown; description: one line; path: the .prg to start.
MenuEntry = namedtuple("MenuEntry", "name description path")

CLOSE = "close"


def menu_entries(versions, folder=".", data_files=None):
    """The bundled versions (asm.versions.Version objects), then the programs among the
    .prg files of `folder` and its BASIC listings (.bas: c64.listing).  Data files (saved games and anything else the machine could
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
        elif name.lower().endswith(".bas") and os.path.isfile(path):
            entries.append(MenuEntry(name, "a BASIC listing in this folder", path))
    entries.append(MenuEntry("BASIC", "COMMODORE 64 BASIC V2, no program", None))
    return entries


def _is_program(path, saved_games):
    try:
        with os.fdopen(hostfiles.open_regular(path), "rb") as handle:
            head = handle.read(4096)
            size = os.fstat(handle.fileno()).st_size
    except OSError:
        return False
    if len(head) >= 2 and (head[0] | head[1] << 8, size) in saved_games:
        return False
    return runnable_start(head) is not None


def _box(surface, lines, styles, title, inner=0):
    """Draw lines in a box centred on the surface, at least `inner` wide inside its edges;
    returns where it went: (top, left, height, width)."""
    rows, cols = surface.size()
    inner = max([inner, len(title) + 2] + [len(line) for line in lines])
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
    return top, left, height, width


class VersionMenu:
    """A list of programs to choose from: arrows and Enter, or the entry's number.

    at_stake: what starting one would lose ("the game in progress"), or None; then the
    menu says so, and a choice is asked about first (y starts it, any other key goes
    back to the list), as the game's own N and Q ask."""

    def __init__(self, entries, curses_module, current=None, data_files=(), at_stake=None):
        self.entries = entries
        self.at_stake = at_stake
        self.asking = None                       # the entry asked about, while asked
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
        if self.asking is not None:
            entry, self.asking = self.asking, None
            return entry if key in ("y", "Y") else None
        if key in self.keys_close:
            return CLOSE
        if not self.entries:
            return CLOSE if key in self.keys_enter else None
        chosen = None
        if key in self.keys_up:
            self.selected = (self.selected - 1) % len(self.entries)
        elif key in self.keys_down:
            self.selected = (self.selected + 1) % len(self.entries)
        elif key in self.keys_enter:
            chosen = self.entries[self.selected]
        elif isinstance(key, str) and key.isdigit() and 1 <= int(key) <= min(9, len(self.entries)):
            chosen = self.entries[int(key) - 1]
            self.selected = int(key) - 1
        if chosen is not None and self.at_stake:
            self.asking = chosen
            return None
        return chosen

    def draw(self, surface):
        rows, cols = surface.size()
        room = max(1, cols - 4)                 # inside the box's edges
        if not self.entries:
            lines = [line for text in ("no RYG version is built and no .prg here", "", "Esc closes")
                     for line in wrapped(text, room)]
            return _box(surface, lines, [BOX] * len(lines), "Versions")
        footer = [""] + wrapped("arrows + Enter or 1-9 start it (the C64 resets); Esc closes", room)
        if self.at_stake:
            footer = [""] + wrapped("arrows + Enter or 1-9 start it: the C64 resets and %s is lost "
                                    "(asks first); Esc closes" % self.at_stake, room)
        if self.asking is not None:             # in the footer's place, as many rows: the box keeps its size
            question = "Start %s? The C64 resets: %s is lost. (y/n)" % (self.asking.name, self.at_stake)
            asked = [""] + wrapped(question, room)
            footer = asked + [""] * (len(footer) - len(asked))
        if self.data_files:
            names = ", ".join(self.data_files)
            if len(names) > room - 2:
                names = names[:max(0, room - 5)] + "..."
            footer += [""] + wrapped("data files, not programs (a saved game: O in ryg3 loads it):", room)
            footer += ["  " + names]
        terms = [("%d %s" % (index + 1, entry.name) if index < 9 else "  " + entry.name, entry.description)
                 for index, entry in enumerate(self.entries)]
        laid_out = two_columns(terms, room)
        self.first = self.shown_from(laid_out, max(1, rows - 2 - len(footer)))
        lines, styles = [], []
        budget = max(1, rows - 2 - len(footer))
        shown = 0
        for index in range(self.first, len(laid_out)):
            if len(lines) + len(laid_out[index]) > budget and lines:
                break
            lines += laid_out[index]
            styles += [SELECTED if index == self.selected else BOX] * len(laid_out[index])
            shown += 1
        title = "Versions"
        if shown < len(laid_out):               # a short terminal: say that the arrows reach more
            title = "Versions %d-%d of %d" % (self.first + 1, self.first + shown, len(laid_out))
        return _box(surface, lines + footer, styles + [BOX] * len(footer), title)

    def shown_from(self, laid_out, budget):
        """The first entry to show so that the selected one's lines are in the `budget` rows."""
        first = min(self.first, self.selected)
        while first < self.selected and sum(len(lines) for lines in laid_out[first:self.selected + 1]) > budget:
            first += 1
        return first


class HelpPanel:
    """Every key of the front end, then `notes` (where settings and screenshots go).  In a
    terminal too small for all of it, it comes in pages: a key shows the next, Esc closes;
    on the last page any key closes it."""

    def __init__(self, notes=()):
        self.notes = list(notes)
        self.page = 0
        self.pages = 1                  # as many as the last draw needed

    def handle(self, key):
        if key != "\x1b" and self.page + 1 < self.pages:
            self.page += 1
            return None
        return CLOSE

    def draw(self, surface):
        rows, cols = surface.size()
        room = max(1, cols - 4)                 # inside the box's edges
        widest = max(len(keys) for keys, _ in HELP_LINES) + 2
        blocks = two_columns(HELP_LINES, room, widest=min(widest, room // 2))
        # The notes after the emulator's own keys, so that the first page shows those.
        at = HELP_LINES.index(("", "")) if ("", "") in HELP_LINES else len(HELP_LINES)
        blocks[at:at] = [wrapped(note, room, "  ") for note in self.notes]
        lines = [line for block in blocks for line in block]
        more = "page %d of %d: any key goes on, Esc closes"
        footer_rows = len(wrapped(more % (9, 9), room))
        height = max(1, rows - 3 - footer_rows)             # the box's edges and a blank line
        pages = [[]]
        for block in blocks:                                # a key and its text on one page
            if pages[-1] and len(pages[-1]) + len(block) > height:
                pages.append([])
            pages[-1] += block
        pages = [page[start:start + height] for page in pages for start in range(0, len(page), height)]
        if len(pages) > 1:                                  # every page the same size
            pages = [page + [""] * (height - len(page)) for page in pages]
        self.pages = len(pages)
        self.page = min(self.page, self.pages - 1)
        last = "any key closes this panel" if self.page + 1 == self.pages else more % (self.page + 1, self.pages)
        footer = wrapped(last, room)
        shown = pages[self.page] + [""] * (1 + footer_rows - len(footer)) + footer
        return _box(surface, shown, [BOX] * len(shown), "RYG64 keys", max(len(line) for line in lines + shown))
