"""Keys: petcat-style key text -> PETSCII, and host (curses) keys -> PETSCII.

Two jobs, both table-driven:

* parse_keys("n{return}{3 down}{f1}") -> [0x4E, 0x0D, 0x11, 0x11, 0x11, 0x85]
  for scripted input (tests, headless mode).
* host_key_to_c64(key) for the curses front end: a character or KEY_* code
  from get_wch() -> the PETSCII byte a C64 user would get, "restore" for the
  RESTORE key, or None when the C64 has no such key.

Two keys are not PETSCII bytes: RESTORE ("restore", an NMI) and CTRL held down
alone ("ctrl": it types nothing, but the screen editor's scroll slows down while it
is held; {ctrl} in key text, Ctrl-S in the terminal, see c64.machine.C64.hold_ctrl).

Letter case, a deliberate difference between the two:
  petcat proper reads lower-case letters as plain keys ($41-$5A) and
  upper-case as SHIFT+letter ($C1-$DA).  parse_keys does NOT: both "n" and
  "N" give $4E, because key scripts are written for the game, which prints
  and reads upper-case text in set 1; a shifted letter there would be a
  graphics char.  Write {shift-n} to get $CE.
  host_key_to_c64 follows the C64 keyboard instead (VICE symbolic keymap):
  host "a" -> $41, host "A" (i.e. Shift+A) -> $C1; the terminal front end then
  types the plain letter while the upper-case/graphics set is on screen, so
  what is typed is what is seen (c64.terminal.app, TerminalApp.as_shown).

Sources: the KERNAL keyboard decode tables at $EB81 plain, $EBC2 SHIFT,
$EC03 C=, $EC78 CTRL (docs/c64.md, "Keyboard"), VICE's host-key conventions
(its keymaps) and, for curses, this project's choice; the control codes and
their key names.  Brace names follow petcat (VICE's BASIC lister).
"""

from __future__ import annotations

import re
from typing import Mapping

RESTORE = "restore"   # the RESTORE key is an NMI, not a PETSCII byte
CTRL = "ctrl"         # CTRL held down alone: no PETSCII byte, the scroll slows down


class KeyParseError(ValueError):
    """Bad key text; the message names the token and its 0-based position."""


# --- the C64 keyboard: what each key gives plain / SHIFT / C= / CTRL ------
# Ref 8.1 (KERNAL tables $EB81, $EBC2, $EC03, $EC78).  None = no character.
# First column: the names a key answers to in {shift-x}, {cbm-x}, {ctrl-x}.
KEYBOARD: tuple[tuple[tuple[str, ...], int, int, int, int | None], ...] = (
    (("del", "inst"),           0x14, 0x94, 0x94, None),
    (("return",),               0x0D, 0x8D, 0x8D, None),
    (("right", "left"),         0x1D, 0x9D, 0x9D, None),   # CRSR left/right key
    (("f7", "f8"),              0x88, 0x8C, 0x8C, None),
    (("f1", "f2"),              0x85, 0x89, 0x89, None),
    (("f3", "f4"),              0x86, 0x8A, 0x8A, None),
    (("f5", "f6"),              0x87, 0x8B, 0x8B, None),
    (("down", "up"),            0x11, 0x91, 0x91, None),   # CRSR up/down key
    (("3",), 0x33, 0x23, 0x96, 0x1C), (("w",), 0x57, 0xD7, 0xB3, 0x17),
    (("a",), 0x41, 0xC1, 0xB0, 0x01), (("4",), 0x34, 0x24, 0x97, 0x9F),
    (("z",), 0x5A, 0xDA, 0xAD, 0x1A), (("s",), 0x53, 0xD3, 0xAE, 0x13),
    (("e",), 0x45, 0xC5, 0xB1, 0x05), (("5",), 0x35, 0x25, 0x98, 0x9C),
    (("r",), 0x52, 0xD2, 0xB2, 0x12), (("d",), 0x44, 0xC4, 0xAC, 0x04),
    (("6",), 0x36, 0x26, 0x99, 0x1E), (("c",), 0x43, 0xC3, 0xBC, 0x03),
    (("f",), 0x46, 0xC6, 0xBB, 0x06), (("t",), 0x54, 0xD4, 0xA3, 0x14),
    (("x",), 0x58, 0xD8, 0xBD, 0x18), (("7",), 0x37, 0x27, 0x9A, 0x1F),
    (("y",), 0x59, 0xD9, 0xB7, 0x19), (("g",), 0x47, 0xC7, 0xA5, 0x07),
    (("8",), 0x38, 0x28, 0x9B, 0x9E), (("b",), 0x42, 0xC2, 0xBF, 0x02),
    (("h",), 0x48, 0xC8, 0xB4, 0x08), (("u",), 0x55, 0xD5, 0xB8, 0x15),
    (("v",), 0x56, 0xD6, 0xBE, 0x16), (("9",), 0x39, 0x29, 0x29, 0x12),
    (("i",), 0x49, 0xC9, 0xA2, 0x09), (("j",), 0x4A, 0xCA, 0xB5, 0x0A),
    (("0",), 0x30, 0x30, 0x30, 0x92), (("m",), 0x4D, 0xCD, 0xA7, 0x0D),
    (("k",), 0x4B, 0xCB, 0xA1, 0x0B), (("o",), 0x4F, 0xCF, 0xB9, 0x0F),
    (("n",), 0x4E, 0xCE, 0xAA, 0x0E), (("+",), 0x2B, 0xDB, 0xA6, None),
    (("p",), 0x50, 0xD0, 0xAF, 0x10), (("l",), 0x4C, 0xCC, 0xB6, 0x0C),
    (("-",), 0x2D, 0xDD, 0xDC, None), ((".",), 0x2E, 0x3E, 0x3E, None),
    ((":",), 0x3A, 0x5B, 0x5B, 0x1B), (("@",), 0x40, 0xBA, 0xA4, 0x00),
    ((",",), 0x2C, 0x3C, 0x3C, None), (("\u00a3", "pound"), 0x5C, 0xA9, 0xA8, 0x1C),
    (("*",), 0x2A, 0xC0, 0xDF, None), ((";",), 0x3B, 0x5D, 0x5D, 0x1D),
    (("home", "clr"),           0x13, 0x93, 0x93, None),
    (("=",), 0x3D, 0x3D, 0x3D, 0x1F),
    (("\u2191", "up arrow", "^"), 0x5E, 0xDE, 0xDE, 0x1E),
    (("/",), 0x2F, 0x3F, 0x3F, None), (("1",), 0x31, 0x21, 0x81, 0x90),
    (("\u2190", "left arrow"),  0x5F, 0x5F, 0x5F, 0x06),
    (("2",), 0x32, 0x22, 0x95, 0x05),
    (("space",),                0x20, 0xA0, 0xA0, None),
    (("q",), 0x51, 0xD1, 0xAB, 0x11),
    (("stop", "run"),           0x03, 0x83, 0x83, None),   # RUN/STOP key
)

_MODIFIER_COLUMN = {"shift": 2, "cbm": 3, "c=": 3, "ctrl": 4}
_KEY_BY_NAME = {name: row for row in KEYBOARD for name in row[0]}


# --- brace names ---------------------------------------------------------
# name -> PETSCII (or "restore").  The first name listed for a code is its
# preferred name (used by KEY_NAMES); later ones are accepted aliases.
# petcat names plus the spelled-out forms the project's tests use.
NAMED_KEYS: tuple[tuple[str, int | str], ...] = (
    ("return", 0x0D), ("cr", 0x0D),
    ("shift-return", 0x8D), ("sret", 0x8D),
    ("down", 0x11), ("up", 0x91), ("left", 0x9D), ("right", 0x1D), ("rght", 0x1D),
    ("home", 0x13), ("clr", 0x93), ("clear", 0x93),
    ("del", 0x14), ("inst", 0x94),
    ("stop", 0x03), ("run", 0x83),
    ("f1", 0x85), ("f2", 0x89), ("f3", 0x86), ("f4", 0x8A),
    ("f5", 0x87), ("f6", 0x8B), ("f7", 0x88), ("f8", 0x8C),
    # colours, KERNAL $E8DA order (ref 2.1)
    ("blk", 0x90), ("wht", 0x05), ("red", 0x1C), ("cyn", 0x9F),
    ("pur", 0x9C), ("grn", 0x1E), ("blu", 0x1F), ("yel", 0x9E),
    ("orng", 0x81), ("brn", 0x95), ("lred", 0x96), ("gry1", 0x97),
    ("gry2", 0x98), ("lgrn", 0x99), ("lblu", 0x9A), ("gry3", 0x9B),
    ("rvs on", 0x12), ("rvon", 0x12), ("rvson", 0x12),
    ("rvs off", 0x92), ("rvof", 0x92), ("rvsoff", 0x92),
    ("space", 0x20), ("shift-space", 0xA0),
    ("pi", 0xDE),            # what SHIFT+up-arrow types; prints as sc $5E like $FF
    ("pound", 0x5C), ("up arrow", 0x5E), ("left arrow", 0x5F),
    ("lower", 0x0E), ("swlc", 0x0E), ("upper", 0x8E), ("swuc", 0x8E),
    ("lock", 0x08), ("dish", 0x08), ("unlock", 0x09), ("ensh", 0x09),
    ("esc", 0x1B),
    # the spelled-out names of printed listings (magazines, tok64, petcat's other tables)
    ("black", 0x90), ("white", 0x05), ("cyan", 0x9F), ("purple", 0x9C), ("green", 0x1E),
    ("blue", 0x1F), ("yellow", 0x9E), ("orange", 0x81), ("brown", 0x95),
    ("lt red", 0x96), ("light red", 0x96), ("pink", 0x96),
    ("gry 1", 0x97), ("grey 1", 0x97), ("gray 1", 0x97), ("grey1", 0x97), ("dark grey", 0x97), ("dark gray", 0x97),
    ("gry 2", 0x98), ("grey 2", 0x98), ("gray 2", 0x98), ("grey2", 0x98), ("grey", 0x98), ("gray", 0x98),
    ("lt green", 0x99), ("light green", 0x99), ("lt blue", 0x9A), ("light blue", 0x9A),
    ("gry 3", 0x9B), ("grey 3", 0x9B), ("gray 3", 0x9B), ("grey3", 0x9B), ("light grey", 0x9B), ("light gray", 0x9B),
    ("reverse on", 0x12), ("reverse off", 0x92), ("insert", 0x94), ("delete", 0x14),
    ("lower case", 0x0E), ("upper case", 0x8E),
    ("rvs", 0x12), ("off", 0x92), ("spaces", 0x20),     # COMPUTE!'s {RVS} {OFF} {2 SPACES}
    ("restore", RESTORE),
    ("ctrl", CTRL),
)
_CODE_BY_NAME = dict(NAMED_KEYS)

# PETSCII (or "restore") -> preferred petcat name, for messages and help.
KEY_NAMES: dict[int | str, str] = {}
for _name, _code in NAMED_KEYS:
    KEY_NAMES.setdefault(_code, _name)
del _name, _code


# --- single characters -----------------------------------------------------
# Typed host character -> PETSCII, following VICE's symbolic keymap and the
# ref 8.2 [suggestion] list.  Letters are handled in code (case matters for
# the host, not for parse_keys).  Characters the C64 has no key for are
# absent: ` { } and control characters other than those below.
_CHAR_CODES: dict[str, int] = {chr(c): c for c in range(0x20, 0x40)}   # space, digits, punctuation
_CHAR_CODES.update({
    "@": 0x40, "[": 0x5B, "]": 0x5D,
    "\\": 0x5C, "\u00a3": 0x5C,   # pound key (VICE: host \ and the pound sign)
    "^": 0x5E, "\u2191": 0x5E,    # up-arrow key
    "~": 0x5F, "\u2190": 0x5F,    # left-arrow key
    "_": 0x5F,                    # left-arrow key: PETSCII $5F is ASCII's _, so drive 8 lists a
                                  # host file my_game.prg as MY<-GAME and typing _ must match it
    "\u03c0": 0xDE,               # pi = SHIFT + up-arrow
    "|": 0xDD,                    # SHIFT + minus, a vertical line glyph
    "\n": 0x0D, "\r": 0x0D,       # Enter
})


def _letter_code(ch: str) -> int | None:
    if "a" <= ch <= "z":
        return ord(ch) - 0x20          # $41-$5A
    if "A" <= ch <= "Z":
        return ord(ch) + 0x80          # $C1-$DA (shifted)
    return None


# --- parse_keys --------------------------------------------------------------

_BRACE_RE = re.compile(r"\{([^{}]*)\}")
_REPEAT_RE = re.compile(r"^(\d+)\s+(\S.*)$")
_MODIFIED_RE = re.compile(r"^(shift|cbm|c=|ctrl)[- ](.+)$")


MAX_KEYS = 1_000_000        # keys one text may give (--keys, --keys-file, C64.type): 8 MB of list


def _token_code(token: str, pos: int) -> int | str:
    """PETSCII for the inside of one pair of braces (no repeat count)."""
    name = " ".join(token.lower().split())
    if name in _CODE_BY_NAME:
        return _CODE_BY_NAME[name]
    if re.fullmatch(r"\d+", name):
        value = int(name) if len(name) <= 6 else 0x100
    elif re.fullmatch(r"(\$|0x)[0-9a-f]+", name):
        digits = name.lstrip("$").removeprefix("0x").lstrip("0") or "0"
        value = int(digits, 16) if len(digits) <= 4 else 0x100
    else:
        value = None
    if value is not None:
        if value > 0xFF:
            raise KeyParseError(f"key code {{{token}}} at position {pos} is not a byte (0-255)")
        return value
    modified = _MODIFIED_RE.match(name)
    if modified:
        modifier, key = modified.groups()
        row = _KEY_BY_NAME.get(key.strip())
        if row is None:
            raise KeyParseError(f"unknown key {key.strip()!r} in {{{token}}} at position {pos}")
        code = row[_MODIFIER_COLUMN[modifier]]
        if code is None:
            raise KeyParseError(f"{{{token}}} at position {pos} gives no character on a C64")
        return code
    raise KeyParseError(f"unknown key name {{{token}}} at position {pos}")


def parse_keys(text: str) -> list[int | str]:
    """petcat-style key text -> list of PETSCII bytes (and "restore", "ctrl").

    Plain characters: letters of either case -> $41-$5A (see module doc),
    other characters as host_key_to_c64 maps them, newline -> RETURN.
    Braces: {name} (case-insensitive, see NAMED_KEYS), {13} or {$0d},
    {shift-x} / {cbm-x} / {ctrl-x} for any key of the C64 keyboard, {ctrl} for CTRL
    held down alone, and a repeat count in front, {3 down}.  More than MAX_KEYS keys in all is a
    KeyParseError, found before anything of that size is built.
    """
    keys: list[int | str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "{":
            match = _BRACE_RE.match(text, i)
            if match is None:
                raise KeyParseError(f"unterminated '{{' at position {i}: {text[i:i + 20]!r}")
            token = match.group(1)
            count, inner = 1, token
            repeat = _REPEAT_RE.match(token.strip())
            if repeat:
                digits, inner = repeat.group(1).lstrip("0") or "0", repeat.group(2)
                count = int(digits) if len(digits) <= 7 else MAX_KEYS + 1
            if len(keys) + count > MAX_KEYS:
                raise KeyParseError(f"{{{token[:20]}{'...' if len(token) > 20 else ''}}} at position {i} "
                                    f"makes more than {MAX_KEYS:,} keys")
            keys.extend([_token_code(inner, i)] * count)
            i = match.end()
            continue
        if ch == "\r" and text[i + 1:i + 2] == "\n":   # CR LF is one RETURN
            i += 1
            continue
        code = _letter_code(ch)
        if code is not None:
            code &= 0x7F                               # both cases unshifted
        else:
            code = _CHAR_CODES.get(ch)
        if code is None:
            if ch == "}":
                raise KeyParseError(f"stray '}}' at position {i} (no matching '{{')")
            raise KeyParseError(f"character {ch!r} at position {i} has no C64 key")
        if len(keys) >= MAX_KEYS:
            raise KeyParseError(f"more than {MAX_KEYS:,} keys (at position {i})")
        keys.append(code)
        i += 1
    return keys


def key_name(code: int | str) -> str:
    """Readable name of one key for messages: "{return}", "A", "{$07}"."""
    if code in KEY_NAMES:
        return "{" + KEY_NAMES[code] + "}"
    if isinstance(code, int) and (0x20 <= code <= 0x5A or code in (0x5B, 0x5D)):
        return chr(code)
    return f"{{${code:02x}}}"


def format_keys(keys) -> str:
    """Inverse of parse_keys: parse_keys(format_keys(k)) == list(k)."""
    return "".join(key_name(k) for k in keys)


# --- host keys (curses) --------------------------------------------------------

# curses key name (as curses.keyname() spells it) -> PETSCII or "restore".
# Ref 8.2 [suggestion], VICE symbolic keymap.  F9-F12 and the like are the
# emulator's own keys and deliberately absent (-> None).
HOST_KEYS: dict[str, int | str] = {
    "KEY_ENTER": 0x0D,
    "KEY_BACKSPACE": 0x14, "KEY_DC": 0x14,
    "KEY_IC": 0x94, "KEY_SDC": 0x94,           # Insert; Shift+Delete = SHIFT+DEL
    "KEY_HOME": 0x13, "KEY_SHOME": 0x93,
    "KEY_UP": 0x91, "KEY_DOWN": 0x11, "KEY_LEFT": 0x9D, "KEY_RIGHT": 0x1D,
    "KEY_F(1)": 0x85, "KEY_F(2)": 0x89, "KEY_F(3)": 0x86, "KEY_F(4)": 0x8A,
    "KEY_F(5)": 0x87, "KEY_F(6)": 0x8B, "KEY_F(7)": 0x88, "KEY_F(8)": 0x8C,
    "KEY_PPAGE": RESTORE,
    "KEY_NPAGE": 0x5E, "KEY_SNEXT": 0xDE,      # up-arrow; Shift+PgDn = pi
    "KEY_END": 0x5F,                           # left-arrow
    # PDCurses (windows-curses) names the numeric keypad's keys itself; ncurses sends
    # them as characters.  PDCurses' Alt+letter codes (ALT_A ...) are not C64 keys.
    "PADENTER": 0x0D, "PADSLASH": 0x2F, "PADSTAR": 0x2A, "PADMINUS": 0x2D, "PADPLUS": 0x2B,
    "PADSTOP": 0x2E,
}

# Control characters a terminal sends for keys the C64 has.
_HOST_CONTROL_CHARS = {"\x1b": 0x03, "\x7f": 0x14, "\x08": 0x14, "\n": 0x0D, "\r": 0x0D}


def build_host_keymap(curses_module) -> dict[int, int | str]:
    """HOST_KEYS keyed by the curses module's KEY_* numbers.

    Works with the real curses module or any object with KEY_* attributes
    (KEY_F(n) is taken as KEY_F0 + n).  Names the module lacks are skipped.
    """
    keymap: dict[int, int | str] = {}
    for name, code in HOST_KEYS.items():
        fkey = re.fullmatch(r"KEY_F\((\d+)\)", name)
        if fkey:
            base = getattr(curses_module, "KEY_F0", None)
            number = None if base is None else base + int(fkey.group(1))
        else:
            number = getattr(curses_module, name, None)
        if number is not None:
            keymap[number] = code
    return keymap


_default_keymap: dict[int, int | str] | None = None


def _curses_keymap() -> dict[int, int | str]:
    global _default_keymap
    if _default_keymap is None:
        import curses   # only when an int key code actually needs decoding
        _default_keymap = build_host_keymap(curses)
    return _default_keymap


def host_key_to_c64(key: str | int, keymap: Mapping[int, int | str] | None = None) -> int | str | None:
    """PETSCII for a key from curses get_wch()/getch(), "restore", or None.

    *key* is a str (one character) or an int: < 256 is a character code,
    otherwise a curses KEY_* number looked up in *keymap* (default: built
    from the curses module on first use).  None means the C64 has no such
    key (or it belongs to the emulator: F9-F12, Ctrl-letters, Tab...).
    """
    if isinstance(key, int):
        if key >= 256:
            return (keymap if keymap is not None else _curses_keymap()).get(key)
        if key < 0:
            return None   # curses ERR
        key = chr(key)
    if len(key) != 1:
        return None
    code = _letter_code(key)
    if code is not None:
        return code
    if key in _HOST_CONTROL_CHARS:
        return _HOST_CONTROL_CHARS[key]
    if key < " ":
        return None       # Ctrl-letters: emulator keys
    return _CHAR_CODES.get(key)
