"""The C64 screen as SVG (c64.screenshot): cells, border, palette, reverse video, colour RAM, charset."""

import re
import xml.etree.ElementTree as ET

import pytest

import ryg
from c64.machine import C64
from c64.screenshot import (BORDER_X, BORDER_Y, CELL, COLUMNS, FONT_FAMILY, HEIGHT, ROWS, SCALE, WIDTH,
                            ScreenState, screen_state, svg)
from charset.colours import COLODORE, GREY, PEPTO_PAL

SVG = "{http://www.w3.org/2000/svg}"
LEFT, TOP = BORDER_X * SCALE, BORDER_Y * SCALE
BLUE, LIGHT_BLUE, WHITE, RED, BLACK = 6, 14, 1, 2, 0


def hex_of(rgb):
    return "#%02x%02x%02x" % rgb


def blank_state(border=LIGHT_BLUE, background=BLUE, lower=False, colour=LIGHT_BLUE):
    return ScreenState([bytearray([0x20] * COLUMNS) for _ in range(ROWS)],
                       [bytearray([colour] * COLUMNS) for _ in range(ROWS)], border, background, lower)


def glyphs(document):
    """[(x, y, fill, text)] of every glyph drawn."""
    root = ET.fromstring(document)
    out = []
    for group in root.iter(SVG + "g"):
        y = int(re.match(r"translate\(0 (\d+)\)", group.get("transform")).group(1))
        for text in group.iter(SVG + "text"):
            out.append((int(text.get("x")), y, group.get("fill"), text.text))
    return out


def rects(document):
    root = ET.fromstring(document)
    return [(int(r.get("x", 0)), int(r.get("y", 0)), int(r.get("width")), int(r.get("height")), r.get("fill"))
            for r in root.iter(SVG + "rect")]


def cell_of(x, y):
    return (y - TOP) // CELL, (x - LEFT) // CELL


def test_the_picture_is_the_border_round_40_by_25_cells_of_background():
    document = svg(blank_state(border=LIGHT_BLUE, background=BLUE))
    root = ET.fromstring(document)
    assert (int(root.get("width")), int(root.get("height"))) == (WIDTH, HEIGHT) == (768, 544)
    assert rects(document) == [(0, 0, WIDTH, HEIGHT, hex_of(COLODORE[LIGHT_BLUE])),
                               (LEFT, TOP, 40 * CELL, 25 * CELL, hex_of(COLODORE[BLUE]))]
    assert glyphs(document) == []          # spaces draw nothing


def test_every_cell_gets_its_glyph_at_its_own_place_in_its_colour_ram_colour():
    state = blank_state()
    for row in range(ROWS):
        for column in range(COLUMNS):
            state.codes[row][column] = 1 + (row + column) % 26          # A..Z
            state.colours[row][column] = (row * COLUMNS + column) % 16
    drawn = glyphs(svg(state))
    assert len(drawn) == 1000
    for x, y, fill, text in drawn:
        row = (y - TOP) // CELL
        column = (x - LEFT) // CELL
        assert (x - LEFT) % CELL == 0
        assert text == chr(ord("A") + (row + column) % 26)
        assert fill == hex_of(COLODORE[(row * COLUMNS + column) % 16])


def test_reverse_video_fills_the_cell_with_its_colour_and_draws_the_glyph_in_the_background_colour():
    state = blank_state(background=BLUE)
    state.codes[3][5] = 0x81              # reversed A
    state.colours[3][5] = RED
    state.codes[3][6] = 0xA0              # reversed space: a solid block
    state.colours[3][6] = RED
    document = svg(state)
    assert (LEFT + 5 * CELL, TOP + 3 * CELL, 2 * CELL, CELL, hex_of(COLODORE[RED])) in rects(document)
    assert [(cell_of(x, y - 13), fill, text) for x, y, fill, text in glyphs(document)] == \
        [((3, 5), hex_of(COLODORE[BLUE]), "A")]


def test_the_character_set_follows_d018_upper_case_and_graphics_or_lower_and_upper_case():
    state = blank_state()
    state.codes[0][:3] = bytes([0x01, 0x41, 0x53])          # A, then $41/$53: graphics or capitals
    upper = [text for *_, text in glyphs(svg(state._replace(lower=False)))]
    lower = [text for *_, text in glyphs(svg(state._replace(lower=True)))]
    assert upper == ["A", "\u2660", "\u2665"]
    assert lower == ["a", "A", "S"]


def test_the_font_is_named_with_monospace_fallbacks():
    document = svg(blank_state())
    assert FONT_FAMILY.startswith("'C64 Pro Mono'") and FONT_FAMILY.endswith("monospace")
    assert "font-family:%s" % FONT_FAMILY in document


@pytest.mark.parametrize("name, table", [("vice", COLODORE), ("pepto", PEPTO_PAL), ("grey", GREY)])
def test_the_palette_chooses_the_colours(name, table):
    state = blank_state(border=RED, background=BLACK)
    state.codes[0][0] = 1
    state.colours[0][0] = WHITE
    document = svg(state, palette=name)
    assert [r[4] for r in rects(document)] == [hex_of(table[RED]), hex_of(table[BLACK])]
    assert glyphs(document)[0][2] == hex_of(table[WHITE])


def test_the_grey_palette_keeps_each_colours_lightness_and_only_greys():
    assert all(r == g == b for r, g, b in GREY)
    assert GREY[BLACK] == (0, 0, 0) and GREY[WHITE] == (255, 255, 255)
    assert GREY[BLUE] < GREY[14] < GREY[15] < GREY[7]    # blue < light blue < light grey < yellow


def test_an_unknown_palette_is_refused():
    with pytest.raises(ValueError, match="unknown palette"):
        svg(blank_state(), palette="cga")


def test_the_machines_screen_comes_from_the_screen_ram_d018_selects_and_colour_ram():
    machine = C64(sid_seed=1)
    machine.poke(0xD020, 2)
    machine.poke(0xD021, 0)
    machine.poke(0xD018, 0x36)            # screen at $0C00, characters at $1800: lower/upper case
    machine.poke(0x0C00, 0x01)
    machine.poke(0x0400, 0x02)            # the old screen: not shown
    machine.poke(0xD800, 7)
    state = screen_state(machine)
    assert state.codes[0][0] == 0x01 and state.lower is True
    assert (state.border, state.background, state.colours[0][0]) == (2, 0, 7)
    drawn = glyphs(svg(state))
    assert drawn[0][2:] == (hex_of(COLODORE[7]), "a")


def test_with_the_display_off_the_picture_is_all_border():
    machine = C64(sid_seed=1)
    machine.poke(0xD020, 2)
    machine.poke(0x0400, 0x01)
    machine.poke(0xD011, machine.peek(0xD011) & ~0x10)
    document = svg(screen_state(machine))
    assert glyphs(document) == []
    assert {r[4] for r in rects(document)} == {hex_of(COLODORE[2])}


def test_headless_screenshot_writes_the_final_screen_the_same_every_run(tmp_path, capsys):
    first, second = tmp_path / "a.svg", tmp_path / "b.svg"
    for path in (first, second):
        assert ryg.main(["--headless", "--seed", "1", "--keys", "03{return}", "--screenshot", str(path),
                         "ryg23"]) == 0
    assert first.read_bytes() == second.read_bytes()
    texts = "".join(text for *_, text in glyphs(first.read_text(encoding="utf-8")))
    assert "QUEJUGADADESEA?" in texts


def test_headless_screenshot_to_a_folder_that_does_not_exist_is_one_line_and_status_2(tmp_path, capsys):
    status = ryg.main(["--headless", "--keys", "03{return}", "--screenshot", str(tmp_path / "no" / "x.svg"),
                       "ryg23"])
    assert status == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("ryg: cannot write the screenshot")
