"""8x8 pixel pictures of the screen codes of both character sets, drawn for this project.

A C64 character is 8x8 pixels; the VIC draws a set pixel in the cell's colour-RAM colour
and a clear one in the background colour ($D021).  These pictures are this project's own
drawing in the C64's manner (strokes two pixels wide, letters on rows 0-6 with row 7
empty, graphics reaching the cell's edges so that they join), not the Commodore character
ROM.  They are keyed by the character charset.glyphs gives a screen code (SC_UPPER,
SC_LOWER), so both sets share what they share: set 2's capitals are set 1's letters.
Screen codes $80-$FF are $00-$7F in reverse video: every pixel inverted, as in the ROM.

`bitmap(sc, lower)` is 8 bytes, one per pixel row from the top, bit 7 the leftmost pixel.
"""

from __future__ import annotations

import functools
import operator

from charset.glyphs import SC_LOWER, SC_UPPER

# Letters, digits, signs and the drawn graphics: a key line of characters, then eight
# rows of pixels per character ('#' set, '.' clear).
DRAWN = """
@        A        B        C        D        E        F        G
..####.. ...##... .#####.. ..####.. .####... .######. .######. ..####..
.##..##. ..####.. .##..##. .##..##. .##.##.. .##..... .##..... .##..##.
.##.###. .##..##. .##..##. .##..... .##..##. .##..... .##..... .##.....
.##.###. .##..##. .#####.. .##..... .##..##. .#####.. .#####.. .##.###.
.##..... .######. .##..##. .##..... .##..##. .##..... .##..... .##..##.
.##...#. .##..##. .##..##. .##..##. .##.##.. .##..... .##..... .##..##.
..####.. .##..##. .#####.. ..####.. .####... .######. .##..... ..####..
........ ........ ........ ........ ........ ........ ........ ........

H        I        J        K        L        M        N        O
.##..##. ..####.. ...####. .##..##. .##..... .##...## .##..##. ..####..
.##..##. ...##... ....##.. .##.##.. .##..... .###.### .###.##. .##..##.
.##..##. ...##... ....##.. .####... .##..... .####### .######. .##..##.
.######. ...##... ....##.. .###.... .##..... .##.#.## .######. .##..##.
.##..##. ...##... ....##.. .####... .##..... .##...## .##.###. .##..##.
.##..##. ...##... .##.##.. .##.##.. .##..... .##...## .##..##. .##..##.
.##..##. ..####.. ..###... .##..##. .######. .##...## .##..##. ..####..
........ ........ ........ ........ ........ ........ ........ ........

P        Q        R        S        T        U        V        W
.#####.. ..####.. .#####.. ..####.. .######. .##..##. .##..##. .##...##
.##..##. .##..##. .##..##. .##..##. ...##... .##..##. .##..##. .##...##
.##..##. .##..##. .##..##. .##..... ...##... .##..##. .##..##. .##...##
.#####.. .##..##. .#####.. ..####.. ...##... .##..##. .##..##. .##.#.##
.##..... .##..##. .####... .....##. ...##... .##..##. .##..##. .#######
.##..... ..####.. .##.##.. .##..##. ...##... .##..##. ..####.. .###.###
.##..... ....###. .##..##. ..####.. ...##... ..####.. ...##... .##...##
........ ........ ........ ........ ........ ........ ........ ........

X        Y        Z        [        £        ]        ↑        ←
.##..##. .##..##. .######. ..####.. ...###.. ..####.. ........ ........
.##..##. .##..##. .....##. ..##.... ..##..#. ....##.. ...##... ...#....
..####.. .##..##. ....##.. ..##.... ..##.... ....##.. ..####.. ..##....
...##... ..####.. ...##... ..##.... .#####.. ....##.. .######. .#######
..####.. ...##... ..##.... ..##.... ..##.... ....##.. ...##... .#######
.##..##. ...##... .##..... ..##.... ..##.... ....##.. ...##... ..##....
.##..##. ...##... .######. ..####.. .######. ..####.. ...##... ...#....
........ ........ ........ ........ ........ ........ ...##... ........

!        "        #        $        %        &        '        (
...##... .##..##. .##..##. ...##... .##...#. ..####.. ....##.. ....##..
...##... .##..##. .##..##. ..#####. .##..##. .##..##. ...##... ...##...
...##... .##..##. ######## .##..... ....##.. ..####.. ..##.... ..##....
...##... ........ .##..##. ..####.. ...##... ..###... ........ ..##....
........ ........ ######## .....##. ..##.... .##..### ........ ..##....
........ ........ .##..##. .#####.. .##..##. .##..##. ........ ...##...
...##... ........ .##..##. ...##... .#...##. ..###.## ........ ....##..
........ ........ ........ ........ ........ ........ ........ ........

)        *        +        ,        -        .        /        0
..##.... ........ ........ ........ ........ ........ ........ ..####..
...##... .##..##. ...##... ........ ........ ........ ......## .##..##.
....##.. ..####.. ...##... ........ ........ ........ .....##. .##.###.
....##.. ######## .######. ........ .######. ........ ....##.. .###.##.
....##.. ..####.. ...##... ........ ........ ........ ...##... .##..##.
...##... .##..##. ...##... ...##... ........ ...##... ..##.... .##..##.
..##.... ........ ........ ...##... ........ ...##... .##..... ..####..
........ ........ ........ ..##.... ........ ........ ........ ........

1        2        3        4        5        6        7        8
...##... ..####.. ..####.. .....##. .######. ..####.. .######. ..####..
..###... .##..##. .##..##. ....###. .##..... .##..##. .##..##. .##..##.
...##... .....##. .....##. ...####. .#####.. .##..... ....##.. .##..##.
...##... ....##.. ...###.. ..##.##. .....##. .#####.. ...##... ..####..
...##... ..##.... .....##. .####### .....##. .##..##. ...##... .##..##.
...##... .##..... .##..##. .....##. .##..##. .##..##. ...##... .##..##.
.######. .######. ..####.. .....##. ..####.. ..####.. ...##... ..####..
........ ........ ........ ........ ........ ........ ........ ........

9        :        ;        <        =        >        ?        ♠
..####.. ........ ........ ....###. ........ .###.... ..####.. ...##...
.##..##. ........ ........ ...##... ........ ...##... .##..##. ..####..
.##..##. ...##... ...##... ..##.... .######. ....##.. .....##. .######.
..#####. ........ ........ .##..... ........ .....##. ....##.. ########
.....##. ........ ........ ..##.... .######. ....##.. ...##... ########
.##..##. ...##... ...##... ...##... ........ ...##... ........ ...##...
..####.. ........ ...##... ....###. ........ .###.... ...##... ..####..
........ ........ ..##.... ........ ........ ........ ........ ........

♥        ♣        ♦        •        ○        π        ✓        ◥
.##..##. ..###... ...##... ........ ........ ........ ........ ########
######## .#####.. ..####.. ..####.. ..####.. ........ ......## .#######
######## ..###... .######. .######. .##..##. .####### .....##. ..######
######## ##.#.##. ######## .######. .#....#. ..##.##. #...##.. ...#####
.######. #######. .######. .######. .#....#. ..##.##. ##.##... ....####
..####.. ##.#.##. ..####.. .######. .##..##. ..##.##. .###.... .....###
...##... ...#.... ...##... ..####.. ..####.. .##..##. ..#..... ......##
........ ..###... ........ ........ ........ ........ ........ .......#

◤        ╭        ╮        ╰        ╯
######## ........ ........ ...##... ...##...
#######. ........ ........ ...##... ...##...
######.. ........ ........ ...###.. ..###...
#####... .....### ###..... ....#### ####....
####.... ....#### ####.... .....### ###.....
###..... ...###.. ..###... ........ ........
##...... ...##... ...##... ........ ........
#....... ...##... ...##... ........ ........

a        b        c        d        e        f        g        h
........ ........ ........ ........ ........ ........ ........ ........
........ .##..... ........ .....##. ........ ....###. ........ .##.....
..####.. .##..... ..####.. .....##. ..####.. ...##... ..#####. .##.....
.....##. .#####.. .##..... ..#####. .##..##. .######. .##..##. .#####..
..#####. .##..##. .##..... .##..##. .######. ...##... .##..##. .##..##.
.##..##. .##..##. .##..... .##..##. .##..... ...##... ..#####. .##..##.
..#####. .#####.. ..####.. ..#####. ..####.. ...##... .....##. .##..##.
........ ........ ........ ........ ........ ........ .#####.. ........

i        j        k        l        m        n        o        p
........ ........ ........ ........ ........ ........ ........ ........
...##... .....##. .##..... ..###... ........ ........ ........ ........
........ ........ .##..... ...##... .##..##. .#####.. ..####.. .#####..
..###... .....##. .##.##.. ...##... .####### .##..##. .##..##. .##..##.
...##... .....##. .####... ...##... .####### .##..##. .##..##. .##..##.
...##... .....##. .##.##.. ...##... .##.#.## .##..##. .##..##. .#####..
..####.. .....##. .##..##. ..####.. .##...## .##..##. ..####.. .##.....
........ ..####.. ........ ........ ........ ........ ........ .##.....

q        r        s        t        u        v        w        x
........ ........ ........ ........ ........ ........ ........ ........
........ ........ ........ ...##... ........ ........ ........ ........
..#####. .#####.. ..#####. .######. .##..##. .##..##. .##...## .##..##.
.##..##. .##..##. .##..... ...##... .##..##. .##..##. .##.#.## ..####..
.##..##. .##..... ..####.. ...##... .##..##. .##..##. .####### ...##...
..#####. .##..... .....##. ...##... .##..##. ..####.. ..#####. ..####..
.....##. .##..... .#####.. ....###. ..#####. ...##... ..##.##. .##..##.
.....##. ........ ........ ........ ........ ........ ........ ........

y        z
........ ........
........ ........
.##..##. .######.
.##..##. ....##..
.##..##. ...##...
..#####. ..##....
....##.. .######.
.####... ........
"""


def parse_drawn(text: str) -> dict[str, tuple[int, ...]]:
    """{character: 8 row bytes} from blocks of a key line and eight rows of pixels."""
    pictures = {}
    lines = [line for line in text.splitlines() if line.strip()]
    for start in range(0, len(lines), 9):
        keys = lines[start].split()
        rows = [line.split() for line in lines[start + 1:start + 9]]
        for index, key in enumerate(keys):
            drawn = [row[index] for row in rows]
            if any(len(row) != 8 or set(row) - {"#", "."} for row in drawn) or key in pictures:
                raise ValueError("the picture of %r is not 8 rows of 8 pixels, or not the only one" % key)
            pictures[key] = tuple(int(row.replace("#", "1").replace(".", "0"), 2) for row in drawn)
    return pictures


def pixels(test) -> tuple[int, ...]:
    """8 row bytes with pixel (row, column) set where test(row, column) holds."""
    return tuple(sum(0x80 >> column for column in range(8) if test(row, column)) for row in range(8))


def rows(first: int, last: int):
    return pixels(lambda row, column: first <= row <= last)


def columns(first: int, last: int):
    return pixels(lambda row, column: first <= column <= last)


def merged(*parts):
    """The pixels set in any of the parts."""
    return tuple(functools.reduce(operator.or_, row) for row in zip(*parts))


def box(left=False, right=False, up=False, down=False):
    """A box-drawing line: strokes two pixels wide through the middle (rows 3-4, columns 3-4),
    reaching the edges the arms point to."""
    return pixels(lambda row, column: (3 <= row <= 4 and ((left and column <= 4) or (right and column >= 3)))
                  or (3 <= column <= 4 and ((up and row <= 4) or (down and row >= 3))))


def checker(test_cell=lambda row, column: True):
    """A one-pixel checkerboard (the C64's shade) where test_cell holds."""
    return pixels(lambda row, column: (row + column) % 2 == 0 and test_cell(row, column))


# Graphics made of blocks, lines and shades: the Unicode name says where the pixels are
# (an eighth of a cell is one pixel row or column).
MADE = {
    "\u00a0": rows(8, 8), " ": rows(8, 8),                          # no-break space, space
    "\u2500": box(left=True, right=True), "\u2502": box(up=True, down=True),
    "\u253c": box(True, True, True, True), "\u251c": box(right=True, up=True, down=True),
    "\u2524": box(left=True, up=True, down=True), "\u252c": box(left=True, right=True, down=True),
    "\u2534": box(left=True, right=True, up=True), "\u250c": box(right=True, down=True),
    "\u2510": box(left=True, down=True), "\u2514": box(right=True, up=True),
    "\u2518": box(left=True, up=True),
    "\u2571": pixels(lambda row, column: column in (6 - row, 7 - row)),          # ╱
    "\u2572": pixels(lambda row, column: column in (row, row + 1)),              # ╲
    "\u2573": pixels(lambda row, column: column in (6 - row, 7 - row, row, row + 1)),
    # vertical one eighth block-2 .. -7 (U+1FB70..75), horizontal -2 .. -7 (U+1FB76..7B)
    **{chr(0x1FB70 + k): columns(k + 1, k + 1) for k in range(6)},
    **{chr(0x1FB76 + k): rows(k + 1, k + 1) for k in range(6)},
    "\U0001fb7c": merged(columns(0, 0), rows(7, 7)), "\U0001fb7d": merged(columns(0, 0), rows(0, 0)),
    "\U0001fb7e": merged(columns(7, 7), rows(0, 0)), "\U0001fb7f": merged(columns(7, 7), rows(7, 7)),
    "\u2594": rows(0, 0), "\U0001fb82": rows(0, 1), "\U0001fb83": rows(0, 2),          # upper 1/8, 1/4, 3/8
    "\u2581": rows(7, 7), "\u2582": rows(6, 7), "\u2583": rows(5, 7), "\u2584": rows(4, 7),
    "\u258f": columns(0, 0), "\u258e": columns(0, 1), "\u258d": columns(0, 2), "\u258c": columns(0, 3),
    "\u2595": columns(7, 7), "\U0001fb87": columns(6, 7), "\U0001fb88": columns(5, 7),
    "\u2598": pixels(lambda row, column: row <= 3 and column <= 3),                # quadrants
    "\u259d": pixels(lambda row, column: row <= 3 and column >= 4),
    "\u2596": pixels(lambda row, column: row >= 4 and column <= 3),
    "\u2597": pixels(lambda row, column: row >= 4 and column >= 4),
    "\u259a": pixels(lambda row, column: (row <= 3) == (column <= 3)),
    "\u2592": checker(),                                                          # medium shade
    "\U0001fb8c": checker(lambda row, column: column <= 3),                      # left half shade
    "\U0001fb8f": checker(lambda row, column: row >= 4),                         # lower half shade
    "\U0001fb96": pixels(lambda row, column: (row // 2 + column // 2) % 2 == 1),  # inverse checker board
    "\U0001fb98": pixels(lambda row, column: (column - row) % 4 < 2),            # hatch, upper left to lower right
    "\U0001fb99": pixels(lambda row, column: (column + row) % 4 < 2),            # hatch, upper right to lower left
}

PICTURES = {**MADE, **parse_drawn(DRAWN)}


def bitmap(sc: int, lower: bool = False) -> tuple[int, ...]:
    """The 8 pixel rows of screen code sc (0-255) in set 2 (lower) or set 1; $80-$FF inverted."""
    picture = PICTURES[(SC_LOWER if lower else SC_UPPER)[sc & 0x7F]]
    return tuple(row ^ 0xFF for row in picture) if sc & 0x80 else picture


@functools.lru_cache(maxsize=None)
def character_rom() -> bytes:
    """These pictures laid out as a C64's 4 KB character ROM is: set 1 (upper case and
    graphics) at offset $000, set 2 (lower and upper case) at $800; in each, 8 bytes per
    screen code in order, $00-$7F and then their reversed $80-$FF."""
    return bytes(byte for lower in (False, True) for sc in range(256) for byte in bitmap(sc, lower))
