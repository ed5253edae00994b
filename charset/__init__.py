"""Character-level C64 knowledge, pure data and functions (no curses, no machine).

petscii  PETSCII <-> screen codes as the KERNAL editor converts them
glyphs   screen codes -> Unicode / BMP-only / ASCII characters, both sets
bitmaps  screen codes -> 8x8 pixel pictures (this project's drawing), both sets
colours  the 16 colours, palettes, and their terminal equivalents per depth
keys     petcat-style key text and host (curses) keys -> PETSCII
"""

from .petscii import petscii_to_screen, screen_to_petscii, screen_to_petscii_canonical, quote_mode_screen
from .glyphs import glyph, screen_to_text
from .colours import color_for_depth, nearest_xterm256, nearest_of, petscii_colour_codes
from .keys import parse_keys, host_key_to_c64, KeyParseError, KEY_NAMES

__all__ = [
    "petscii_to_screen", "screen_to_petscii", "screen_to_petscii_canonical", "quote_mode_screen",
    "glyph", "screen_to_text",
    "color_for_depth", "nearest_xterm256", "nearest_of", "petscii_colour_codes",
    "parse_keys", "host_key_to_c64", "KeyParseError", "KEY_NAMES",
]
