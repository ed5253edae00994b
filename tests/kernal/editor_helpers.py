"""Helpers of the screen editor tests (tests/kernal/test_editor*.py): a fresh editor on a
plain bytearray, PETSCII and screen-code spelling, reading rows and the link table."""

from kernal.editor import ScreenEditor

SCREEN = 0x0400
COLOUR_RAM = 0xD800
LINK_TABLE = 0xD9
LIGHT_BLUE = 14



def new_editor():
    """A ScreenEditor on 64 KB of plain RAM, after CINT."""
    mem = bytearray(0x10000)
    editor = ScreenEditor(mem)
    editor.cint()
    return editor, mem


def codes(data):
    """PETSCII bytes from a str (ASCII capitals, digits, punctuation are PETSCII) or ints."""
    if isinstance(data, str):
        return [ord(ch) for ch in data]
    return list(data)


def show(editor, *parts):
    """CHROUT every byte of every part."""
    for part in parts:
        for code in codes(part):
            editor.chrout(code)


def screen_codes(text):
    """Screen codes of ASCII text as the editor prints it (capitals $01-$1A)."""
    return bytes(ord(ch) & 0x3F if 0x40 <= ord(ch) < 0x60 else ord(ch) for ch in text)


def row(mem, number, start=0, length=40):
    at = SCREEN + number * 40 + start
    return bytes(mem[at:at + length])


def row_colours(mem, number, start=0, length=40):
    at = COLOUR_RAM + number * 40 + start
    return bytes(mem[at:at + length])


def row_text(mem, number):
    """A row as ASCII (screen codes $00-$3F), '~' for other codes, trailing spaces removed."""
    out = []
    for sc in row(mem, number):
        if sc < 0x20:
            out.append(chr(sc + 0x40))
        elif sc < 0x40:
            out.append(chr(sc))
        else:
            out.append("~")
    return "".join(out).rstrip()


def poke_text(mem, number, text, column=0):
    """Write text straight into screen RAM, as a program POKEing the screen would."""
    at = SCREEN + number * 40 + column
    mem[at:at + len(text)] = screen_codes(text)


def links(mem):
    """The line link table for rows 0-24 ($D9-$F1)."""
    return list(mem[LINK_TABLE:LINK_TABLE + 25])


def word(mem, address):
    return mem[address] | (mem[address + 1] << 8)


def start_link(number):
    """Link byte of a row that starts a logical line: $80 | high byte of its address."""
    return 0x80 | ((SCREEN + number * 40) >> 8)


def continuation_link(number):
    return (SCREEN + number * 40) >> 8


def all_starts():
    return [start_link(n) for n in range(25)]
