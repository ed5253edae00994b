"""The C64 screen as SVG and PNG (c64.host.screenshot): cells drawn pixel by pixel from the
project's 8x8 pictures, border, palette, reverse video, colour RAM, charset, the text."""

import xml.etree.ElementTree as ET

import pytest

import ryg
from c64.machine import C64
from c64.host.screenshot import (BORDER_X, BORDER_Y, COLUMNS, HEIGHT, PIXELS_X, PIXELS_Y, ROWS, SCALE, WIDTH,
                            ScreenState, picture, png, screen_state, svg)
from charset.bitmaps import bitmap
from charset.colours import COLODORE, GREY, PEPTO_PAL
from tests.tools.pictures import SVG, png_pixels, png_texts, svg_pixels

BLUE, LIGHT_BLUE, WHITE, RED, BLACK, BROWN = 6, 14, 1, 2, 0, 9


def hex_of(rgb):
    return "#%02x%02x%02x" % rgb


def blank_state(border=LIGHT_BLUE, background=BLUE, lower=False, colour=LIGHT_BLUE):
    return ScreenState([bytearray([0x20] * COLUMNS) for _ in range(ROWS)],
                       [bytearray([colour] * COLUMNS) for _ in range(ROWS)], border, background, lower)


def cell(grid, row, column):
    """The 8x8 colours of a character cell of a picture in C64 pixels."""
    top, left = BORDER_Y + row * 8, BORDER_X + column * 8
    return [grid[top + y][left:left + 8] for y in range(8)]


def expected_cell(code, lower, colour, background, table=COLODORE):
    """What the VIC shows: a set pixel in the colour, a clear one in the background."""
    return [[hex_of(table[colour]) if bits & (0x80 >> x) else hex_of(table[background]) for x in range(8)]
            for bits in bitmap(code, lower)]


def test_the_picture_is_the_border_round_40_by_25_cells_of_background():
    document = svg(blank_state(border=LIGHT_BLUE, background=BLUE))
    root = ET.fromstring(document)
    assert (int(root.get("width")), int(root.get("height"))) == (WIDTH, HEIGHT) == (768, 544)
    assert root.get("viewBox") == "0 0 384 272" and (PIXELS_X * SCALE, PIXELS_Y * SCALE) == (WIDTH, HEIGHT)
    width, height, grid = svg_pixels(document)
    for y in range(height):
        for x in range(width):
            inside = BORDER_X <= x < BORDER_X + 320 and BORDER_Y <= y < BORDER_Y + 200
            assert grid[y][x] == hex_of(COLODORE[BLUE if inside else LIGHT_BLUE]), (x, y)
    assert root.findall(SVG + "path") == []          # spaces draw nothing


def test_every_cell_is_its_characters_pixels_in_its_colour_ram_colour():
    state = blank_state()
    for row in range(ROWS):
        for column in range(COLUMNS):
            state.codes[row][column] = (row * COLUMNS + column) % 128
            state.colours[row][column] = (row * 7 + column) % 16
    _, _, grid = svg_pixels(svg(state))
    for row in range(ROWS):
        for column in range(COLUMNS):
            assert cell(grid, row, column) == expected_cell(
                state.codes[row][column], False, state.colours[row][column], BLUE), (row, column)


def test_the_picture_needs_no_font_one_path_per_colour():
    state = blank_state()
    state.codes[0][:5] = bytes([0x08, 0x05, 0x0C, 0x0C, 0x0F])           # HELLO
    state.colours[0][:5] = bytes([WHITE, WHITE, RED, WHITE, RED])
    document = svg(state)
    root = ET.fromstring(document)
    assert root.findall(".//" + SVG + "text") == [] and "font" not in document
    assert sorted(path.get("fill") for path in root.iter(SVG + "path")) == sorted(
        [hex_of(COLODORE[WHITE]), hex_of(COLODORE[RED])])
    assert root.get("shape-rendering") == "crispEdges"


def test_reverse_video_is_the_inverted_picture():
    state = blank_state(background=BLUE)
    state.codes[3][5] = 0x81              # reversed A
    state.colours[3][5] = RED
    state.codes[3][6] = 0xA0              # reversed space: a solid block
    state.colours[3][6] = RED
    _, _, grid = svg_pixels(svg(state))
    assert cell(grid, 3, 5) == expected_cell(0x81, False, RED, BLUE)
    assert cell(grid, 3, 5) != expected_cell(0x01, False, RED, BLUE)
    assert cell(grid, 3, 6) == [[hex_of(COLODORE[RED])] * 8] * 8


def test_the_character_set_follows_d018_upper_case_and_graphics_or_lower_and_upper_case():
    state = blank_state()
    state.codes[0][:3] = bytes([0x01, 0x41, 0x53])          # A, then $41/$53: graphics or capitals
    _, _, upper = svg_pixels(svg(state._replace(lower=False)))
    _, _, lower = svg_pixels(svg(state._replace(lower=True)))
    for column, code in enumerate(state.codes[0][:3]):
        assert cell(upper, 0, column) == expected_cell(code, False, LIGHT_BLUE, BLUE)
        assert cell(lower, 0, column) == expected_cell(code, True, LIGHT_BLUE, BLUE)
    assert cell(upper, 0, 1) != cell(lower, 0, 1)           # a spade, or an A
    assert cell(lower, 0, 1) == cell(upper, 0, 0)           # set 2's capital A is set 1's A


def test_the_screens_text_is_the_title_and_description_of_the_svg_and_the_png():
    state = blank_state()
    state.codes[2][:5] = bytes([0x08, 0x09, 0x20, 0x26, 0x3C])          # "HI &<"
    state.codes[4][0] = 0x81                                            # a reversed A reads A
    root = ET.fromstring(svg(state, title="ryg3en"))
    assert root.find(SVG + "title").text == "ryg3en"
    assert root.find(SVG + "desc").text == "\n\nHI &<\n\nA"
    assert root.get("role") == "img" and root.get("aria-labelledby") == "title screen"
    assert ET.fromstring(svg(blank_state())).find(SVG + "title").text == "C64 screen"
    assert png_texts(png(state, title="ryg3en")) == {"Title": "ryg3en", "Description": "\n\nHI &<\n\nA"}
    assert png_texts(picture(state, "x.png", title="ryg3en"))["Title"] == "ryg3en"


@pytest.mark.parametrize("name, table", [("vice", COLODORE), ("pepto", PEPTO_PAL), ("grey", GREY)])
def test_the_palette_chooses_the_colours(name, table):
    state = blank_state(border=RED, background=BLACK)
    state.codes[0][0] = 1
    state.colours[0][0] = WHITE
    _, _, grid = svg_pixels(svg(state, palette=name))
    assert grid[0][0] == hex_of(table[RED])
    assert cell(grid, 0, 0) == expected_cell(1, False, WHITE, BLACK, table)
    assert png_pixels(png(state, palette=name))[2][0][0] == hex_of(table[RED])


def test_the_grey_palette_keeps_each_colours_lightness_and_only_greys():
    assert all(r == g == b for r, g, b in GREY)
    assert GREY[BLACK] == (0, 0, 0) and GREY[WHITE] == (255, 255, 255)
    assert GREY[BLUE] < GREY[14] < GREY[15] < GREY[7]    # blue < light blue < light grey < yellow


def test_an_unknown_palette_is_refused():
    with pytest.raises(ValueError, match="unknown palette"):
        svg(blank_state(), palette="cga")
    with pytest.raises(ValueError, match="unknown palette"):
        png(blank_state(), palette="cga")


def test_the_png_shows_the_svgs_pixels_at_twice_the_size():
    state = blank_state(border=BROWN)
    for column in range(COLUMNS):
        state.codes[column % ROWS][column] = 0x40 + column + (0x80 if column % 3 == 0 else 0)
        state.colours[column % ROWS][column] = column % 16
    svg_width, svg_height, drawn = svg_pixels(svg(state))
    width, height, rows = png_pixels(png(state))
    assert (width, height) == (WIDTH, HEIGHT) == (svg_width * SCALE, svg_height * SCALE)
    for y in range(height):
        assert rows[y] == [colour for colour in drawn[y // SCALE] for _ in range(SCALE)], y


def test_the_file_name_chooses_svg_or_png():
    state = blank_state()
    assert picture(state, "shot.svg") == svg(state).encode("utf-8")
    assert picture(state, "a/b/SHOT.PNG") == png(state)
    for name in ("shot.jpg", "shot", "svg"):
        with pytest.raises(ValueError, match="FILE.svg or FILE.png"):
            picture(state, name)


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
    _, _, grid = svg_pixels(svg(state))
    assert cell(grid, 0, 0) == expected_cell(0x01, True, 7, 0)


def test_a_program_s_own_characters_in_ram_are_drawn_as_the_vic_reads_them():
    machine = C64(sid_seed=1)
    machine.poke(0xD021, 0)
    machine.poke(0x0400, 0x01)
    machine.poke(0xD800, 7)
    before = screen_state(machine)
    assert before.font[8:16] == bytes(bitmap(0x01))           # the character ROM at $1000
    machine.poke(0xD018, 0x1C)            # characters at $3000: RAM, an "A" of stripes there
    for row in range(8):
        machine.poke(0x3008 + row, 0xAA if row % 2 else 0x55)
    _, _, grid = svg_pixels(svg(screen_state(machine)))
    yellow, black = hex_of(COLODORE[7]), hex_of(COLODORE[0])
    assert cell(grid, 0, 0)[0] == [black, yellow] * 4 and cell(grid, 0, 0)[1] == [yellow, black] * 4


def test_with_the_display_off_the_picture_is_all_border():
    machine = C64(sid_seed=1)
    machine.poke(0xD020, 2)
    machine.poke(0x0400, 0x01)
    machine.poke(0xD011, machine.peek(0xD011) & ~0x10)
    state = screen_state(machine)
    _, _, grid = svg_pixels(svg(state))
    assert {colour for row in grid for colour in row} == {hex_of(COLODORE[2])}
    assert {colour for row in png_pixels(png(state))[2] for colour in row} == {hex_of(COLODORE[2])}


def test_headless_screenshot_writes_the_final_screen_the_same_every_run(tmp_path, capsys):
    first, second, third = tmp_path / "a.svg", tmp_path / "b.svg", tmp_path / "c.png"
    for path in (first, second, third):
        assert ryg.main(["--headless", "--seed", "1", "--keys", "03{return}", "--screenshot", str(path),
                         "ryg23"]) == 0
    assert first.read_bytes() == second.read_bytes()
    assert "QUE JUGADA DESEA?" in ET.fromstring(first.read_text(encoding="utf-8")).find(SVG + "desc").text
    _, _, drawn = svg_pixels(first.read_text(encoding="utf-8"))
    assert png_pixels(third.read_bytes())[2][::SCALE] == [
        [colour for colour in row for _ in range(SCALE)] for row in drawn]


def test_headless_screenshot_to_a_folder_that_does_not_exist_is_one_line_and_status_2(tmp_path, capsys):
    status = ryg.main(["--headless", "--keys", "03{return}", "--screenshot", str(tmp_path / "no" / "x.svg"),
                       "ryg23"])
    assert status == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("ryg: cannot write the screenshot")


def test_a_screenshot_name_that_is_not_svg_or_png_is_one_line_and_status_2(tmp_path, capsys):
    status = ryg.main(["--headless", "--keys", "03{return}", "--screenshot", str(tmp_path / "x.gif"), "ryg23"])
    assert status == 2
    err = capsys.readouterr().err
    assert err == "ryg: --screenshot: a screenshot is FILE.svg or FILE.png, not x.gif\n"
    assert not (tmp_path / "x.gif").exists()
