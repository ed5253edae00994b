"""Settings that stay between runs of the C64 screen: palette, colours, glyphs, warp, last
version and ryg3's level, the last move on the status line.

They live in a small INI file, settings.ini, in the per-user config folder
platformdirs gives (~/.config/ryg64 on Linux, ~/Library/Application
Support/ryg64 on macOS, %LOCALAPPDATA%\\ryg64 on Windows); the environment
variable RYG64_CONFIG_DIR names another folder (the tests use it, so they
never touch the real one).  The terminal front end reads the file when it
starts and writes it when it quits: what was given on the command line
then stays (`--palette grey` once, and grey it is until another
`--palette`), and so do the bundled version last played and the level of
ryg3's ladder last played at.  `--no-config`
neither reads nor writes it; headless runs never use it, so a script gives
the same result on every machine.

A file that cannot be read or parsed, or a value that is not one of the
choices, gets one line of warning and the default for what was wrong; such
a file is not written back (the user's text stays for them to fix).  Only a
regular file of at most MAX_BYTES is read (a folder, a FIFO, /dev/zero or a
larger file is refused in one line, c64.host.files).  Saving writes the file
only when a setting changed, and then updates those values in place: the
person's comments, spelling and order stay.

    [ryg64]
    palette = vice        vice | pepto | grey
    colors = auto         auto | truecolor | 256 | 16 | 8 | mono
    glyphs = auto         auto | unicode | legacy | ascii
    warp = no             yes | no: start in warp
    version = ryg3        the bundled version `ryg` starts without a name
    level = 1             ryg3's level (1-9) the game starts at; empty: 8
    last_move = yes       yes | no: the classic versions' last move on the status line
"""

import configparser
import os
import re
import stat
import tempfile
from dataclasses import dataclass, fields, replace

from c64.host import files as hostfiles
from charset.colours import PALETTE_CHOICES

ENV_DIR = "RYG64_CONFIG_DIR"
APP_NAME = "ryg64"
FILE_NAME = "settings.ini"
SECTION = "ryg64"
MAX_BYTES = 64 * 1024             # a settings file is a few lines: a larger one is refused unread
LONGEST_WARNING = 120             # characters of a parser's complaint quoted in a warning

COLOUR_CHOICES = ("auto", "truecolor", "256", "16", "8", "mono")
GLYPH_CHOICES = ("auto", "unicode", "legacy", "ascii")
LEVEL_CHOICES = tuple("123456789")
BOOLEANS = {"yes": True, "no": False, "true": True, "false": False, "on": True, "off": False,
            "1": True, "0": False}


@dataclass(frozen=True)
class Settings:
    palette: str = "vice"
    colors: str = "auto"
    glyphs: str = "auto"
    warp: bool = False
    version: str = ""            # "" : the default version
    level: int = 0               # ryg3's starting level 1..9; 0: the program's own (8)
    last_move: bool = True       # the classic versions' last move on the status line


CHOICES = {"palette": PALETTE_CHOICES, "colors": COLOUR_CHOICES, "glyphs": GLYPH_CHOICES}


def config_dir(env=None):
    """The folder of the settings file: $RYG64_CONFIG_DIR, else platformdirs' user config dir, else None."""
    env = os.environ if env is None else env
    if env.get(ENV_DIR):
        return env[ENV_DIR]
    try:
        from platformdirs import user_config_dir
    except ImportError:           # not installed: run without remembered settings
        return None
    return user_config_dir(APP_NAME, appauthor=False)


def config_path(env=None):
    folder = config_dir(env)
    return None if folder is None else os.path.join(folder, FILE_NAME)


def load(path, known_versions=()):
    """(Settings, warning or None) from the file at `path`; a missing file is the defaults, silently.

    known_versions: the names a `version` may have (anything else is dropped with a warning).
    """
    defaults = Settings()
    if path is None or not os.path.lexists(path):
        return defaults, None
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(read_text(path))
    except (OSError, UnicodeDecodeError, configparser.Error) as error:
        return defaults, "ignoring the settings file %s: %s" % (path, _one_line(error))
    if not parser.has_section(SECTION):
        return defaults, "ignoring the settings file %s: no [%s] section" % (path, SECTION)
    values, problems = {}, []
    for name, text in parser.items(SECTION):
        text = text.strip()
        if name in CHOICES:
            if text.lower() in CHOICES[name]:
                values[name] = text.lower()
            else:
                problems.append("%s = %s (have %s)" % (name, text, "|".join(CHOICES[name])))
        elif name in ("warp", "last_move"):
            if text.lower() in BOOLEANS:
                values[name] = BOOLEANS[text.lower()]
            else:
                problems.append("%s = %s (have yes|no)" % (name, text))
        elif name == "level":
            if _parsed(name, text) is not None:
                values[name] = _parsed(name, text)
            else:
                problems.append("level = %s (have 1-9, or nothing)" % text)
        elif name == "version":
            if not text or text.lower() in known_versions:
                values[name] = text.lower()
            else:
                problems.append("version = %s (not a bundled version)" % text)
        else:
            problems.append("unknown setting %s" % name)
    warning = None
    if problems:
        warning = "settings file %s: ignored %s" % (path, "; ".join(problems))
    return replace(defaults, **values), warning


def read_text(path):
    """The settings file's text: a regular file of at most MAX_BYTES of UTF-8 (c64.host.files)."""
    return hostfiles.read_bytes(path, MAX_BYTES).decode("utf-8")


def value_text(value):
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value) if value else ""          # level 0: none remembered
    return value


def dump(settings, old=None):
    """The file's text for `settings`: the template, or `old` (the file's text) with the
    values that changed updated in place and the rest as the person wrote it."""
    if old is None:
        lines = ["# RYG64 settings: read when the C64 screen starts, written when it quits.",
                 "# ryg --no-config ignores this file; delete it to go back to the defaults.",
                 "[%s]" % SECTION]
        lines += [("%s = %s" % (field.name, value_text(getattr(settings, field.name)))).rstrip()
                  for field in fields(Settings)]
        return "\n".join(lines) + "\n"
    newline = "\r\n" if "\r\n" in old else "\n"
    lines = old.splitlines(keepends=True)
    if lines and not lines[-1].endswith(("\n", "\r")):
        lines[-1] += newline
    inside, section_end, seen = False, None, set()
    for index, line in enumerate(lines):
        header = _HEADER.match(line.strip())
        if header:
            inside = header.group(1) == SECTION
            if inside:
                section_end = index + 1
            continue
        option = _OPTION.match(line) if inside else None
        if option is None or option.group(2).lower() not in _NAMES:
            continue
        name = option.group(2).lower()
        seen.add(name)
        section_end = index + 1
        wanted = getattr(settings, name)
        if _parsed(name, option.group(4)) != wanted:
            lines[index] = option.group(1) + option.group(2) + option.group(3) + value_text(wanted) + newline
    missing = ["%s = %s%s" % (name, value_text(getattr(settings, name)), newline) for name in _NAMES
               if name not in seen and getattr(settings, name) != getattr(Settings(), name)]
    if section_end is None:
        lines += [newline, "[%s]%s" % (SECTION, newline)] if lines else ["[%s]%s" % (SECTION, newline)]
        section_end = len(lines)
    lines[section_end:section_end] = missing
    return "".join(lines)


_NAMES = [field.name for field in fields(Settings)]
_HEADER = re.compile(r"\[(.+)\]")                       # configparser's SECTCRE, on the stripped line
_OPTION = re.compile(r"([ \t]*)(\w+)([ \t]*[=:][ \t]*)(.*?)\s*$")


def _parsed(name, text):
    """What load() makes of a value's text (None when it would refuse it)."""
    text = text.strip().lower()
    if name in ("warp", "last_move"):
        return BOOLEANS.get(text)
    if name == "level":
        if not text:
            return 0
        return int(text) if text in LEVEL_CHOICES else None
    if name in CHOICES:
        return text if text in CHOICES[name] else None
    return text


def save(path, settings):
    """Write `settings` to `path` (creating its folder) when they differ from what it says,
    keeping the rest of the person's text (dump); returns a one-line warning or None.

    A file there that is not a regular one of UTF-8 text (a FIFO, a device, a folder, too
    large) is left alone with a warning; a link there is replaced, never written through."""
    try:
        old = read_text(path)
    except FileNotFoundError:
        old = None
    except (OSError, UnicodeDecodeError) as error:
        return "cannot write the settings file %s: %s" % (path, _one_line(error))
    text = dump(settings, old)
    if text == old:
        return None
    temporary = None
    try:
        folder = os.path.dirname(path)
        os.makedirs(folder, exist_ok=True)
        try:
            mode = stat.S_IMODE(os.stat(path).st_mode)     # the file keeps its mode
        except OSError:
            mask = os.umask(0o022)
            os.umask(mask)
            mode = 0o666 & ~mask
        # A new name each time (mkstemp: O_EXCL), never a fixed one a link could be planted at.
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".settings-", suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
        temporary = None
    except OSError as error:
        return "cannot write the settings file %s: %s" % (path, error.strerror or error)
    finally:
        if temporary is not None:
            try:
                os.unlink(temporary)
            except OSError:
                pass
    return None


def _one_line(error):
    """The error as one line of at most LONGEST_WARNING characters (configparser quotes the line it refuses)."""
    text = " ".join(str(getattr(error, "strerror", None) or error).split())
    return text if len(text) <= LONGEST_WARNING else text[:LONGEST_WARNING - 3] + "..."
