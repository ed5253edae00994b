"""The renderer against a fake curses window: layout, border, glyphs, colours, changed cells only, too small.

FakeCurses and FakeWindow are also used by tests/terminal/test_terminal_app.py.
"""

import io

import pytest

from charset.colours import color_for_depth
from c64.terminal.colours import CursesColours
from c64.terminal.glyphmode import choose_glyph_mode
from c64.terminal.render import COLUMNS, ROWS, Renderer, ScreenState, compute_layout, fit_line
from c64.terminal.surface import AnsiSurface, CursesSurface, Style


class FakeCursesError(Exception):
    pass


class FakeCurses:
    """The parts of the curses module the front end uses, with ncurses' key numbers."""
    error = FakeCursesError
    KEY_DOWN, KEY_UP, KEY_LEFT, KEY_RIGHT, KEY_HOME, KEY_BACKSPACE = 258, 259, 260, 261, 262, 263
    KEY_F0 = 264
    KEY_DC, KEY_IC, KEY_NPAGE, KEY_PPAGE, KEY_ENTER = 330, 331, 338, 339, 343
    KEY_END, KEY_SNEXT, KEY_SDC, KEY_SHOME, KEY_RESIZE = 360, 370, 383, 391, 410
    A_REVERSE, A_BOLD = 1 << 18, 1 << 21
    COLOR_PAIRS = 256

    def __init__(self, colour_pairs=256):
        self.COLOR_PAIRS = colour_pairs
        self.pairs = {}

    def init_pair(self, number, fg, bg):
        if not 0 < number < self.COLOR_PAIRS:
            raise FakeCursesError("bad pair")
        self.pairs[number] = (fg, bg)

    @staticmethod
    def color_pair(number):
        return number << 8

    def update_lines_cols(self):
        pass


class FakeClock:
    """Seconds that pass only when the test (or a get_wch timeout) says so, plus a tick per reading."""

    def __init__(self, tick=0.0005):
        self.now = 1000.0
        self.tick = tick

    def __call__(self):
        self.now += self.tick
        return self.now

    def sleep(self, seconds):
        self.now += seconds


class FakeWindow:
    """A curses window in memory: a grid of (char, attr), scripted keys, errors where curses gives them.

    keys: items get_wch() returns in turn (str or int); ("resize", rows, cols) resizes the
    window and returns KEY_RESIZE.  When the script is empty get_wch() lets the timeout pass on
    the clock and raises the curses error, as a real timeout does.
    """

    def __init__(self, rows=30, cols=80, keys=(), clock=None):
        self.resize(rows, cols)
        self.keys = list(keys)
        self.clock = clock
        self.timeouts = []
        self.delay = -1
        self.writes = []
        self.refreshes = 0

    def resize(self, rows, cols):
        self.rows, self.cols = rows, cols
        self.cells = [[(" ", 0)] * cols for _ in range(rows)]

    def getmaxyx(self):
        return self.rows, self.cols

    def addstr(self, y, x, text, attr=0):
        if not (0 <= y < self.rows and 0 <= x < self.cols):
            raise FakeCursesError("addstr outside the window")
        self.writes.append((y, x, text, attr))
        for offset, char in enumerate(text):
            if x + offset >= self.cols:
                raise FakeCursesError("addstr past the right edge")
            self.cells[y][x + offset] = (char, attr)
        if y == self.rows - 1 and x + len(text) == self.cols:
            raise FakeCursesError("cursor moved past the bottom-right cell")   # what curses does

    def erase(self):
        self.cells = [[(" ", 0)] * self.cols for _ in range(self.rows)]

    clear = erase

    def refresh(self):
        self.refreshes += 1

    def timeout(self, ms):
        self.delay = ms

    def get_wch(self):
        self.timeouts.append(self.delay)
        if self.keys:
            key = self.keys.pop(0)
            if isinstance(key, tuple) and key[0] == "resize":
                self.resize(key[1], key[2])
                return FakeCurses.KEY_RESIZE
            return key
        if self.clock is not None and self.delay > 0:
            self.clock.sleep(self.delay / 1000)
        raise FakeCursesError("no input")

    # -- for assertions -----------------------------------------------------------------
    def line(self, y):
        return "".join(char for char, _ in self.cells[y])

    def text(self):
        return "\n".join(self.line(y) for y in range(self.rows))

    def attr_at(self, y, x):
        return self.cells[y][x][1]


class RecordingColours:
    """Colours that encode the style itself as the attribute, so tests can read it back."""

    def __init__(self):
        self.styles = []

    def attr(self, style):
        if style not in self.styles:
            self.styles.append(style)
        return self.styles.index(style) + 1

    def style_of(self, attr):
        return self.styles[attr - 1]


def blank_state(border=14, background=6, lower=False, colour=14):
    codes = [bytes([0x20] * COLUMNS) for _ in range(ROWS)]
    colours = [bytes([colour] * COLUMNS) for _ in range(ROWS)]
    return ScreenState(codes, colours, border, background, lower)


def with_text(state, row, column, codes):
    rows = list(state.codes)
    line = bytearray(rows[row])
    line[column:column + len(codes)] = bytes(codes)
    rows[row] = bytes(line)
    return state._replace(codes=rows)


def make_renderer(rows=30, cols=80, mode="unicode"):
    window = FakeWindow(rows, cols)
    colours = RecordingColours()
    renderer = Renderer(CursesSurface(window, colours, FakeCursesError), mode)
    renderer.update_layout()
    return window, colours, renderer


# -- layout ------------------------------------------------------------------------------
def test_the_smallest_terminal_that_fits_shows_the_screen_and_status_line_without_a_border():
    layout = compute_layout(26, 40)
    assert (layout.top, layout.left, layout.border_rows, layout.border_cols) == (0, 0, 0, 0)
    assert (layout.screen_top, layout.screen_left, layout.status_y) == (0, 0, 25)


def test_a_roomy_terminal_gets_a_border_of_four_columns_and_two_rows_centred():
    layout = compute_layout(40, 100)
    assert (layout.border_rows, layout.border_cols, layout.width) == (2, 4, 48)
    assert layout.left == (100 - 48) // 2
    assert layout.screen_left == layout.left + 4
    assert layout.status_y == layout.top + 29


def test_a_terminal_below_40x26_has_no_layout():
    assert compute_layout(25, 80) is None
    assert compute_layout(40, 39) is None


# -- drawing the screen ----------------------------------------------------------------------
def test_screen_codes_appear_at_the_screen_position_in_their_colours():
    window, colours, renderer = make_renderer(26, 40)
    state = with_text(blank_state(), 3, 5, [0x08, 0x09])          # "HI" in screen codes
    renderer.draw(state)
    assert window.line(3)[5:7] == "HI"
    assert colours.style_of(window.attr_at(3, 5)) == Style(14, 6, False)


def test_the_border_is_a_frame_in_the_border_colour_round_the_screen():
    window, colours, renderer = make_renderer(30, 48)
    renderer.draw(blank_state(border=2))
    layout = renderer.layout
    assert colours.style_of(window.attr_at(layout.top, layout.left)) == Style(2, 2, True)
    assert colours.style_of(window.attr_at(layout.screen_top + 10, layout.left + 3)) == Style(2, 2, True)
    assert colours.style_of(window.attr_at(layout.screen_top + 10, layout.screen_left + 40)) == Style(2, 2, True)
    assert colours.style_of(window.attr_at(layout.screen_top, layout.screen_left)) == Style(14, 6, False)


def test_only_changed_cells_are_written_on_the_next_frame():
    window, _, renderer = make_renderer()
    state = blank_state()
    assert renderer.draw(state) > 1000
    assert renderer.draw(state) == 0
    window.writes.clear()
    written = renderer.draw(with_text(state, 12, 20, [0x01]))
    assert written == 1
    assert len(window.writes) == 1 and window.writes[0][2] == "A"


def test_a_border_colour_change_repaints_the_frame_but_not_the_screen():
    window, _, renderer = make_renderer(30, 48)
    renderer.draw(blank_state(border=14))
    window.writes.clear()
    renderer.draw(blank_state(border=0))
    rows_written = {y for y, _, _, _ in window.writes}
    layout = renderer.layout
    assert layout.top in rows_written
    assert all(len(text) <= 48 for _, _, text, _ in window.writes)
    assert not any(x == layout.screen_left for _, x, _, _ in window.writes)


def test_a_background_change_repaints_everything():
    _, _, renderer = make_renderer()
    renderer.draw(blank_state(background=6))
    assert renderer.draw(blank_state(background=0)) >= COLUMNS * ROWS


def test_reverse_video_swaps_the_cell_colour_and_the_background():
    window, colours, renderer = make_renderer(26, 40)
    renderer.draw(with_text(blank_state(colour=1), 0, 0, [0x81, 0xA0]))   # reversed A, reversed space
    assert window.line(0)[:2] == "A "
    assert colours.style_of(window.attr_at(0, 0)) == Style(6, 1, True)
    assert colours.style_of(window.attr_at(0, 1)) == Style(6, 1, True)


def test_the_blinking_cursor_is_the_reversed_cell_the_kernal_leaves_in_screen_ram():
    """The KERNAL blink flips bit 7 of the code under the cursor: one cell changes, drawn as a block."""
    window, colours, renderer = make_renderer(26, 40)
    state = with_text(blank_state(), 1, 0, [0x3F, 0x20])            # "? " and the cursor cell
    renderer.draw(state)
    window.writes.clear()
    renderer.draw(with_text(state, 1, 1, [0xA0]))                    # cursor phase on
    assert len(window.writes) == 1
    assert colours.style_of(window.attr_at(1, 1)) == Style(6, 14, True)
    renderer.draw(state)                                            # phase off again
    assert colours.style_of(window.attr_at(1, 1)) == Style(14, 6, False)


def test_d018_lower_case_set_shows_lower_case_letters():
    window, _, renderer = make_renderer(26, 40)
    renderer.draw(with_text(blank_state(lower=True), 0, 0, [0x01, 0x41]))
    assert window.line(0)[:2] == "aA"
    renderer.draw(with_text(blank_state(lower=False), 0, 0, [0x01, 0x41]))
    assert window.line(0)[:2] == "A\u2660"


def test_graphics_glyphs_follow_the_glyph_mode():
    for mode, expected in (("unicode", "\U0001fb70"), ("legacy", "\u258f"), ("ascii", "|")):
        window, _, renderer = make_renderer(26, 40, mode)
        renderer.draw(with_text(blank_state(), 0, 0, [0x54]))         # left edge line, set 1
        assert window.line(0)[0] == expected, mode


def test_the_bottom_right_cell_can_be_written_without_an_error():
    window, _, renderer = make_renderer(26, 40)
    renderer.draw_status("x" * 10, "help", Style(0, 15, True))
    assert window.line(25).endswith("help")


def test_the_status_line_is_under_the_picture_and_redrawn_only_when_it_changes():
    window, _, renderer = make_renderer(30, 48)
    renderer.draw(blank_state())
    renderer.draw_status(" 100%  ryg23", "help ", Style(0, 15, True))
    assert window.line(renderer.layout.status_y).strip().startswith("100%  ryg23")
    window.writes.clear()
    renderer.draw_status(" 100%  ryg23", "help ", Style(0, 15, True))
    assert window.writes == []


def test_fit_line_keeps_the_width_cutting_the_left_part_before_dropping_the_right():
    assert fit_line("abc", "xy", 8) == "abc   xy"
    long_left = "L" * 50
    assert fit_line(long_left, "keys", 30) == "L" * 26 + "keys"
    assert fit_line(long_left, "k" * 20, 30) == "L" * 30


# -- too small, resize ----------------------------------------------------------------------------
def test_a_too_small_terminal_shows_the_enlarge_message_and_no_screen():
    window, _, renderer = make_renderer(20, 30)
    assert renderer.layout is None
    renderer.draw_too_small()
    assert "enlarge to 40x26" in window.text()
    assert "30x20" in window.text()
    assert renderer.draw(blank_state()) == 0


def test_the_enlarge_message_fits_even_a_tiny_terminal():
    window, _, renderer = make_renderer(2, 10)
    renderer.draw_too_small()
    assert window.line(0) == "enlarge to"
    assert window.line(1).strip() == "(the termi"


def test_growing_the_terminal_recomputes_the_layout_and_repaints_everything():
    window, _, renderer = make_renderer(20, 30)
    assert not renderer.update_layout()
    window.resize(30, 60)
    assert renderer.update_layout()
    assert renderer.draw(with_text(blank_state(), 0, 0, [0x01])) >= COLUMNS * ROWS
    layout = renderer.layout
    assert window.line(layout.screen_top)[layout.screen_left] == "A"


def test_shrinking_below_the_minimum_switches_to_the_message_and_back():
    window, _, renderer = make_renderer(30, 60)
    renderer.draw(blank_state())
    window.resize(24, 60)
    assert not renderer.update_layout()
    renderer.draw_too_small()
    assert "enlarge" in window.text()
    window.resize(26, 40)
    assert renderer.update_layout()
    renderer.draw(with_text(blank_state(), 24, 39, [0x02]))
    assert window.line(24)[39] == "B"


# -- surfaces ----------------------------------------------------------------------------------------
def test_the_truecolor_surface_writes_exact_rgb_with_sgr_38_2_and_48_2():
    stream = io.StringIO()
    surface = AnsiSurface(stream, lambda: (26, 40))
    surface.put(2, 3, "HI", Style(1, 6, False))
    surface.flush()
    out = stream.getvalue()
    r, g, b = color_for_depth(6, "truecolor")
    assert "\x1b[3;4H" in out
    assert "38;2;255;255;255" in out and "48;2;%d;%d;%d" % (r, g, b) in out
    assert out.endswith("HI")


def test_the_truecolor_surface_clips_at_the_edge_and_resets_attributes_on_close():
    stream = io.StringIO()
    surface = AnsiSurface(stream, lambda: (26, 40))
    surface.put(0, 38, "ABCD", Style(1, 6, False))
    surface.put(30, 0, "gone", Style(1, 6, False))
    surface.close()
    out = stream.getvalue()
    assert "AB" in out and "ABC" not in out and "gone" not in out
    assert out.endswith("\x1b[0m")


HOSTILE = "A\x1b[2JB\x9b31mC\x07D\rE\nF\x7fG"          # a file name or message with controls
SHOWN = "A?[2JB?31mC?D?E?F?G"


def test_the_truecolor_surface_sends_no_control_character_of_the_text_it_draws():
    stream = io.StringIO()
    surface = AnsiSurface(stream, lambda: (26, 40))
    surface.put(0, 0, HOSTILE, Style(1, 6, False))
    surface.flush()
    out = stream.getvalue()
    assert out.endswith(SHOWN)
    assert out.count("\x1b") == 2 and "\x9b" not in out and "\x07" not in out and "\r" not in out


def test_the_curses_surface_draws_control_characters_as_one_cell_each():
    window = FakeWindow(26, 40)
    surface = CursesSurface(window, RecordingColours(), FakeCursesError)
    surface.put(0, 0, HOSTILE, Style(1, 6, False))
    assert window.line(0).startswith(SHOWN)


def test_curses_colours_give_each_fg_bg_combination_its_own_pair_once():
    fake = FakeCurses()
    colours = CursesColours(fake, 256)
    first = colours.attr(Style(1, 6, False))
    assert colours.attr(Style(1, 6, False)) == first
    assert fake.pairs[first >> 8] == (color_for_depth(1, 256), color_for_depth(6, 256))
    assert colours.attr(Style(6, 1, True)) != first


def test_glyph_mode_comes_from_the_locale_and_the_c_library():
    assert choose_glyph_mode(True, "UTF-8", lambda c: 1, platform="linux") == "ascii"
    assert choose_glyph_mode(False, "UTF-8", lambda c: 1, platform="linux") == "unicode"
    assert choose_glyph_mode(False, "utf8", lambda c: -1, platform="linux") == "legacy"
    assert choose_glyph_mode(False, "ANSI_X3.4-1968", lambda c: 1, platform="linux") == "ascii"
    assert choose_glyph_mode(False, "ISO-8859-1", lambda c: 1, platform="linux") == "ascii"


@pytest.mark.parametrize("mode", ["unicode", "legacy", "ascii"])
def test_every_screen_code_draws_as_one_printable_character(mode):
    window, _, renderer = make_renderer(26, 40, mode)
    for lower in (False, True):
        for start in range(0, 256, 40):
            codes = [c % 256 for c in range(start, start + 40)]
            renderer.draw(with_text(blank_state(lower=lower), 0, 0, codes))
            line = window.line(0)
            assert len(line) == 40 and all(ch.isprintable() or ch == "\u00a0" for ch in line)
            if mode == "ascii":
                assert all(" " <= ch <= "~" for ch in line)


def test_a_snapshot_reads_screen_colours_border_background_and_charset_from_the_machine():
    from c64.machine import C64
    from c64.terminal.render import snapshot
    machine = C64()
    machine.poke(0x0400 + 41, 0x01)
    machine.poke(0xD800 + 41, 0x07)
    machine.poke(0xD020, 0x02)
    machine.poke(0xD021, 0x00)
    machine.poke(0xD018, 0x17)
    state = snapshot(machine)
    assert state.codes[1][1] == 0x01 and state.colours[1][1] & 0x0F == 7
    assert (state.border, state.background, state.lower) == (2, 0, True)


def test_a_blanked_display_shows_the_border_colour_all_over():
    from c64.machine import C64
    from c64.terminal.render import snapshot
    machine = C64()
    machine.poke(0x0400, 0x01)
    machine.poke(0xD020, 0x05)
    machine.poke(0xD011, 0x0B)                     # $D011 bit 4 off: screen blanked
    window, colours, renderer = make_renderer(26, 40)
    renderer.draw(snapshot(machine))
    assert window.line(0)[0] == " "
    assert colours.style_of(window.attr_at(0, 0)) == Style(5, 5, False)
