"""BASIC listings as text: a listing read into the program a C64 would hold after it was
typed in, and a program written as a listing.

A listing is a text file (UTF-8), one numbered BASIC line per text line, written as a C64
shows it: `10 PRINT "{clr}HELLO"`.  Each line is read as if typed at READY.: its
characters become the PETSCII bytes the keys give, the line number is read as LINGET
reads it, and the rest is tokenised by BASIC's own cruncher (kernal.basic.crunch, CRUNCH
at $A579) -- no keyword inside quotes, after REM or in DATA, `?` is PRINT, a shifted
letter ends an abbreviation; the spaces at the end of a line are dropped, as the screen
editor drops them.  A line number alone deletes that line, a later line with
a number replaces the earlier one, and the lines are stored in order of their numbers.

Characters, as petcat (VICE's lister) writes them:

* letters: `case="upper"` (the default) reads both cases as the C64's plain letters, the
  ones it shows as capitals in its upper-case set; `case="mixed"` reads a listing of the
  C64's lower-case set, petcat's own output: lower case plain ($41-$5A), capitals
  shifted ($C1-$DA);
* `\\` or `£` is the pound sign, `^` or `↑` the up arrow, `_` or `←` the left arrow,
  `~` or `π` pi ($FF);
* `{name}` any other byte, in braces: the control codes by their names ({clr}, {home},
  {down}, {rvs on}, {red}, {f1} ...; petcat's short names and the spelled-out colours of
  printed listings), a key with SHIFT or C= ({SHIFT-A}, {CBM-K}), {$8d} or {141} for any
  byte, a count to repeat ({3 down}, or petcat's {down*3}); case does not matter inside.

Blank lines and lines starting with `;` (petcat's header) are skipped.  A line without a
number, a number over 63999, a line over 255 bytes tokenised (BASIC keeps a line's link,
number, tokens and end in an 8-bit count), a character or {code} that is no PETSCII
byte, a file that is not text or has no line: ListingError, naming the file and row.

Writing (listing_of) is the other way: each line as petcat -2 would list it, so that
reading the text back gives the same bytes; a line that cannot (bytes no typed line gives,
such as a graphic character outside quotes) is listed all the same and named in a note.
"""

import errno
import os
import re

from c64.host import files as hostfiles
from c64.loader import PrgError, parse_prg, read_prg
from charset.keys import KEYBOARD, KeyParseError, parse_keys
from kernal.basic import KEYWORDS, crunch
from kernal.basic.direct import MAX_LINE, split_line_number
from kernal.locations import BASIC_START, BASIC_TOP

LISTING_SUFFIXES = (".bas", ".txt")
CASES = ("upper", "mixed")
FILE_LIMIT = 4 * 1024 * 1024        # bytes of a listing read at most (a full 38 KB program lists in ~200 KB)
LONGEST_LINE = 255                  # a stored line: link, number, tokens and the end zero (MAIN1's count)
PI, QUOTE, COLON = 0xFF, 0x22, 0x3A
T_DATA, T_REM = 0x80 + KEYWORDS.index("DATA"), 0x80 + KEYWORDS.index("REM")


class ListingError(PrgError):
    """A listing that cannot be read, or a program that cannot be listed: one line saying why."""


def is_listing_path(path):
    """True for a file named as a listing (.bas, .txt; any case)."""
    return os.path.splitext(str(path))[1].lower() in LISTING_SUFFIXES


# -- characters ---------------------------------------------------------------------------------
SIGNS = {"@": 0x40, "[": 0x5B, "]": 0x5D, "\\": 0x5C, "\u00a3": 0x5C, "^": 0x5E, "\u2191": 0x5E,
         "_": 0x5F, "\u2190": 0x5F, "~": PI, "\u03c0": PI}
CODE = re.compile(r"\{([^{}]*)\}")
COUNTED = re.compile(r"(?:(\d+)\s+)?(.*?)(?:\s*\*\s*(\d+))?")       # {3 down}, {down*3}

# The names petcat writes for the control codes.
CONTROL_NAMES = {
    0x03: "stop", 0x05: "wht", 0x08: "dish", 0x09: "ensh", 0x0E: "swlc", 0x11: "down", 0x12: "rvon",
    0x13: "home", 0x14: "del", 0x1B: "esc", 0x1C: "red", 0x1D: "rght", 0x1E: "grn", 0x1F: "blu",
    0x81: "orng", 0x85: "f1", 0x86: "f3", 0x87: "f5", 0x88: "f7", 0x89: "f2", 0x8A: "f4", 0x8B: "f6",
    0x8C: "f8", 0x8D: "sret", 0x8E: "swuc", 0x90: "blk", 0x91: "up", 0x92: "rvof", 0x93: "clr",
    0x94: "inst", 0x95: "brn", 0x96: "lred", 0x97: "gry1", 0x98: "gry2", 0x99: "lgrn", 0x9A: "lblu",
    0x9B: "gry3", 0x9C: "pur", 0x9D: "left", 0x9E: "yel", 0x9F: "cyn",
}


def _graphic_names():
    """Byte -> SHIFT-x or CBM-x for the graphic characters $A1-$DF, from the keyboard's
    tables (charset.keys.KEYBOARD): the key's shortest ASCII name."""
    names = {}
    for column, modifier in ((3, "CBM"), (2, "SHIFT")):            # SHIFT's name wins where both give it
        for row in KEYBOARD:
            code = row[column]
            key = min((name for name in row[0] if name.isascii()), key=len)
            if code is not None and 0xA1 <= code <= 0xDF:
                names[code] = "%s-%s" % (modifier, key.upper())
    return names


GRAPHIC_NAMES = _graphic_names()


def character_text(byte, case):
    """One PETSCII byte as a listing writes it (not a keyword)."""
    if byte in CONTROL_NAMES:
        return "{%s}" % CONTROL_NAMES[byte]
    if 0x20 <= byte <= 0x3F or byte in (0x40, 0x5B, 0x5D):
        return chr(byte)
    if 0x41 <= byte <= 0x5A:
        return chr(byte) if case == "upper" else chr(byte + 0x20)
    if 0xC1 <= byte <= 0xDA and case == "mixed":
        return chr(byte - 0x80)
    if byte in GRAPHIC_NAMES:
        return "{%s}" % GRAPHIC_NAMES[byte]
    return {0x5C: "\\", 0x5E: "^", 0x5F: "_", PI: "~"}.get(byte, "{$%02x}" % byte)


def _code_bytes(inner, where):
    """The bytes of one {code}."""
    counted = COUNTED.fullmatch(inner.strip())
    name = counted.group(2)
    digits = (counted.group(1) or counted.group(3) or "1").lstrip("0") or "0"
    count = int(digits) if len(digits) <= 4 else LONGEST_LINE + 1
    if not 1 <= count <= LONGEST_LINE:
        raise ListingError("%s: %s: a count goes from 1 to %d (the bytes of a line at most)"
                           % (where, _brace(inner), LONGEST_LINE))
    if " ".join(name.lower().split()) == "pi":
        return bytes([PI]) * count                          # pi as BASIC keeps it; the key gives $DE
    try:
        codes = parse_keys("{%s}" % name)
    except KeyParseError:
        codes = None
    if not codes or len(codes) != 1 or not isinstance(codes[0], int):
        raise ListingError("%s: %s is no PETSCII code (a name such as {clr}, {SHIFT-A}, "
                           "{CBM-K}, or {$8d} for any byte)" % (where, _brace(inner)))
    return bytes(codes) * count


def _brace(inner):
    """A {code} for a message, cut short if it is long."""
    return "{%s}" % (inner if len(inner) <= 30 else inner[:30] + "...")


def text_to_petscii(text, case="upper", where="the listing"):
    """A line of listing text -> the PETSCII bytes its keys give (ListingError if it holds a
    character the C64 does not have)."""
    out = bytearray()
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "{":
            match = CODE.match(text, i)
            if match is None:
                raise ListingError("%s: a { without its } at column %d" % (where, i + 1))
            out += _code_bytes(match.group(1), where)
            i = match.end()
            continue
        if "a" <= ch <= "z":
            out.append(ord(ch) - 0x20)
        elif "A" <= ch <= "Z":
            out.append(ord(ch) if case == "upper" else ord(ch) + 0x80)
        elif " " <= ch <= "?":
            out.append(ord(ch))
        elif ch in SIGNS:
            out.append(SIGNS[ch])
        else:
            raise ListingError("%s: %s at column %d is no C64 character; write it as a {code}"
                               % (where, _shown(ch), i + 1))
        i += 1
    return bytes(out)


def _shown(ch):
    if ch == "}":
        return "a } without its {"
    if ch == "\t":
        return "a tab"
    return ("%r (U+%04X)" % (ch, ord(ch))) if ch.isprintable() else "character U+%04X" % ord(ch)


# -- reading ------------------------------------------------------------------------------------
def read_line(text, case="upper", where="the listing"):
    """(line number, tokenised body) of one listing line, as BASIC would store it typed."""
    typed = text_to_petscii(text, case, where).strip(b" ")    # the screen editor drops the spaces at the end
    if not typed[:1].isdigit():
        raise ListingError("%s: no line number at its start: %s" % (where, _quoted(text)))
    number, rest = split_line_number(typed)
    if number > MAX_LINE:
        digits = re.match(rb"[\d ]*", typed).group().replace(b" ", b"").decode()
        raise ListingError("%s: line number %s is over %d, the highest BASIC takes"
                           % (where, digits if len(digits) <= 12 else digits[:12] + "...", MAX_LINE))
    if 0 in rest:
        raise ListingError("%s: line %d holds a zero byte ({$00}), which ends a BASIC line: no "
                           "line can hold one" % (where, number))
    body = crunch(rest)
    if len(body) + 5 > LONGEST_LINE:
        raise ListingError("%s: line %d is %d bytes tokenised (with its link, number and end); "
                           "BASIC takes %d at most" % (where, number, len(body) + 5, LONGEST_LINE))
    return number, body


def _quoted(text):
    text = text.strip()
    return repr(text if len(text) <= 40 else text[:40] + "...")


def read_listing(text, case="upper", name="the listing"):
    """The listing's text -> {line number: tokenised body}, as typed line after line."""
    if not text.strip():
        raise ListingError("%s is empty: no BASIC line to read" % name)
    lines = {}
    for row, raw in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), 1):
        if not raw.strip() or raw.lstrip().startswith(";"):
            continue
        number, body = read_line(raw, case, "%s:%d" % (name, row))
        if body:
            lines[number] = body
        else:
            lines.pop(number, None)                 # a number alone deletes the line
    if not lines:
        raise ListingError("%s holds no BASIC line" % name)
    return lines


def program_image(lines, start=BASIC_START):
    """The bytes BASIC keeps from `start` for {number: body}: each line's link, number,
    body and end zero in order of the numbers, then the two zeros that end the program.
    (A program too long for memory is made all the same, its links wrapping at 64 KB as
    addresses do: the caller compares its size with BASIC's room.)"""
    image = bytearray()
    for number in sorted(lines):
        body = lines[number]
        link = (start + len(image) + 4 + len(body) + 1) & 0xFFFF
        image += bytes((link & 0xFF, link >> 8, number & 0xFF, number >> 8)) + body + b"\x00"
    return bytes(image + b"\x00\x00")


def decode_listing(data, name):
    """A listing file's bytes -> its text; ListingError for a file that is not text."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise ListingError("%s is UTF-16 text (it starts with that byte order mark): save it as "
                           "UTF-8 to read it as a listing" % name)
    if b"\x00" in data:
        hint = " (a .prg? it starts as one loaded at $%04X)" % (data[0] | data[1] << 8) if len(data) > 2 else ""
        raise ListingError("%s is not a text listing: it holds zero bytes, as a binary file does%s"
                           % (name, hint))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ListingError("%s is not UTF-8 text (byte $%02X at position %d)"
                           % (name, data[error.start], error.start)) from None
    return text[1:] if text.startswith("\ufeff") else text


def read_listing_file(path, case="upper", sys=None):
    """A listing file -> the checked Program (c64.loader) of its tokenised lines at BASIC's
    start, as the .prg SAVEd after typing them in would be."""
    name = os.path.basename(path)
    try:
        data = hostfiles.read_bytes(path, FILE_LIMIT)
    except FileNotFoundError:
        raise ListingError("no such file: %s" % path) from None
    except OSError as error:
        if error.errno == errno.EFBIG:
            raise ListingError("%s is larger than %d MB: no BASIC listing is" % (path, FILE_LIMIT >> 20)) from None
        raise ListingError("cannot read %s: %s" % (path, error.strerror or error)) from None
    image = program_image(read_listing(decode_listing(data, name), case, name))
    if len(image) > BASIC_TOP - BASIC_START:
        raise ListingError("%s is %d bytes tokenised; BASIC has %d" % (name, len(image), BASIC_TOP - BASIC_START))
    return parse_prg(bytes((BASIC_START & 0xFF, BASIC_START >> 8)) + image, name, sys)


def read_program(path, sys=None, case="upper"):
    """A program file by its name: a listing (.bas, .txt) as read_listing_file reads it,
    anything else as a .prg (c64.loader.read_prg)."""
    return read_listing_file(path, case, sys) if is_listing_path(path) else read_prg(path, sys)


# -- writing ------------------------------------------------------------------------------------
def line_text(number, body, case="upper"):
    """One stored line as a listing writes it: keywords outside quotes, REM's text and DATA
    (where CRUNCH makes none), everything else by character_text."""
    upper = case == "upper"
    out = ["%d " % number]
    quoted = rem = data = False
    for index, byte in enumerate(body):
        if quoted or rem or data or byte < 0x80 or byte > 0xCB:
            out.append(character_text(byte, case))
            if byte == QUOTE and not rem:
                quoted = not quoted
            elif byte == COLON and data and not quoted:
                data = False
            continue
        word = KEYWORDS[byte - 0x80]
        if word == "PRINT" and body[index + 1:index + 2] == b"#":
            word = "?"                              # PRINT then #, as typed: PRINT# would be read
        out.append(word if upper else word.lower())
        rem, data = byte == T_REM, byte == T_DATA
    return "".join(out)


def program_lines(program):
    """[(number, body)] of a Program's BASIC, following the links as LIST does (to a link
    whose high byte is zero), and the address where the program ends (after that link)."""
    if program.load_address != BASIC_START:
        raise ListingError("%s is loaded at $%04X, not at BASIC's start ($%04X): no BASIC program"
                           % (program.name, program.load_address, BASIC_START))
    data, start = program.data, program.load_address

    def byte(addr):
        return data[addr - start] if start <= addr < program.end else 0

    lines, addr, seen = [], start, set()
    while byte(addr + 1) and addr not in seen:
        seen.add(addr)
        end = addr + 4
        while end < program.end and data[end - start]:
            end += 1
        if end >= program.end:
            raise ListingError("%s: its BASIC line at $%04X runs past the end of the file" % (program.name, addr))
        lines.append((byte(addr + 2) | byte(addr + 3) << 8, bytes(data[addr + 4 - start:end - start])))
        addr = byte(addr) | byte(addr + 1) << 8
    if not lines:
        raise ListingError("%s holds no BASIC line" % program.name)
    if addr in seen or not start <= addr < program.end:     # a chain that loops or leaves the file
        return lines, program.end
    return lines, min(addr + 2, program.end)


def listing_of(program, case="upper"):
    """(the listing's text, notes): the Program's BASIC lines as text, and a note for each
    thing reading the text back would not give back as it was."""
    lines, end = program_lines(program)
    texts, differ = [], []
    for number, body in lines:
        text = line_text(number, body, case)
        texts.append(text)
        try:
            same = read_line(text, case) == (number, body)
        except ListingError:
            same = False
        if not same:
            differ.append(str(number))
    notes = []
    if differ:
        notes.append("%s: %s %s would read back as other bytes: %s no typed line gives"
                     % (program.name, "line" if len(differ) == 1 else "lines",
                        ", ".join(differ[:10]) + (" ..." if len(differ) > 10 else ""),
                        "it holds bytes" if len(differ) == 1 else "they hold bytes"))
    elif program_image(dict(lines)) != bytes(program.data[:end - BASIC_START]):
        notes.append("%s: its lines are not laid out as BASIC lays them out (their links or order), "
                     "which reading the listing back makes anew" % program.name)
    if end < program.end:
        notes.append("%s: the %d bytes after the BASIC program (machine code?) are not in the listing"
                     % (program.name, program.end - end))
    return "".join(text + "\n" for text in texts), notes
