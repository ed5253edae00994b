"""Which glyphs the terminal can show: Unicode with Symbols for Legacy Computing, without, or ASCII.

The modes are charset.glyphs' "unicode", "legacy" and "ascii".  --ascii
forces ASCII; a locale that is not UTF-8 gets ASCII (ncurses could not
encode anything else; the C library's encoding decides, not Python's, which
is UTF-8 in the C locale); a C library whose wcwidth() does not know the
U+1FBxx block (glibc before 2.36 returns -1, and ncurses then drops the
character) gets "legacy", the same picture with look-alikes from the
Basic Multilingual Plane.  On Windows (PDCurses, windows-curses) a cell
holds a 16-bit wchar_t, so nothing outside the Basic Multilingual Plane
can be drawn: "legacy" is the best there is, whatever the console's code
page (PDCurses writes wide characters itself).
"""

import locale
import sys

LEGACY_PROBE = 0x1FB70          # the first C64 glyph of Symbols for Legacy Computing


def libc_wcwidth(codepoint):
    """wcwidth() of the C library for the current locale, or None where there is none (Windows)."""
    if sys.platform == "win32":
        return None
    try:
        import ctypes
        import ctypes.util
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None)
        function = libc.wcwidth
    except (ImportError, OSError, AttributeError):     # no ctypes (some builds), no libc, no wcwidth
        return None
    function.argtypes = [ctypes.c_wchar]
    function.restype = ctypes.c_int
    return function(chr(codepoint))


def c_library_encoding():
    """The character encoding of the C library's locale, which ncurses encodes with.

    Not locale.getpreferredencoding(): in the C locale Python turns its UTF-8 mode on
    by itself and says UTF-8 while the C library (and so ncurses) has only ASCII."""
    try:
        return locale.nl_langinfo(locale.CODESET)
    except (AttributeError, ValueError):          # no nl_langinfo (Windows)
        return locale.getpreferredencoding(False)


def choose_glyph_mode(force=None, encoding=None, wcwidth=libc_wcwidth, platform=None):
    """ "unicode", "legacy" or "ascii" for this terminal (call after locale.setlocale).

    force: True or "ascii" for ASCII; "unicode" or "legacy" to skip the wcwidth()
    probe (still ASCII in a locale that is not UTF-8); None, False or "auto": detect.
    platform: sys.platform; "win32" (PDCurses) gives "legacy" unless ASCII is forced.
    """
    if force is True or force == "ascii":
        return "ascii"
    if (sys.platform if platform is None else platform) == "win32":
        return "legacy"
    encoding = (encoding or c_library_encoding() or "").lower().replace("-", "").replace("_", "")
    if encoding not in ("utf8", "utf8mb4", "cp65001"):
        return "ascii"
    if force in ("unicode", "legacy"):
        return force
    width = wcwidth(LEGACY_PROBE)
    if width is not None and width != 1:
        return "legacy"
    return "unicode"
