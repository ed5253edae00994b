"""Settings that stay between runs of the C64 screen: palette, colours, glyphs, warp, last version.

They live in a small INI file, settings.ini, in the per-user config folder
platformdirs gives (~/.config/ryg64 on Linux, ~/Library/Application
Support/ryg64 on macOS, %LOCALAPPDATA%\\ryg64 on Windows); the environment
variable RYG64_CONFIG_DIR names another folder (the tests use it, so they
never touch the real one).  The terminal front end reads the file when it
starts and writes it when it quits: what was given on the command line
then stays (`--palette grey` once, and grey it is until another
`--palette`), and so does the bundled version last played.  `--no-config`
neither reads nor writes it; headless runs never use it, so a script gives
the same result on every machine.

A file that cannot be read or parsed, or a value that is not one of the
choices, gets one line of warning and the default for what was wrong; such
a file is not written back (the user's text stays for them to fix).

    [ryg64]
    palette = vice        vice | pepto | grey
    colors = auto         auto | truecolor | 256 | 16 | 8 | mono
    glyphs = auto         auto | unicode | legacy | ascii
    warp = no             yes | no: start in warp
    version = ryg3        the bundled version `ryg` starts without a name
"""

import configparser
import os
import stat
import tempfile
from dataclasses import dataclass, fields, replace

from charset.colours import PALETTE_CHOICES

ENV_DIR = "RYG64_CONFIG_DIR"
APP_NAME = "ryg64"
FILE_NAME = "settings.ini"
SECTION = "ryg64"

COLOUR_CHOICES = ("auto", "truecolor", "256", "16", "8", "mono")
GLYPH_CHOICES = ("auto", "unicode", "legacy", "ascii")
BOOLEANS = {"yes": True, "no": False, "true": True, "false": False, "on": True, "off": False,
            "1": True, "0": False}


@dataclass(frozen=True)
class Settings:
    palette: str = "vice"
    colors: str = "auto"
    glyphs: str = "auto"
    warp: bool = False
    version: str = ""            # "" : the default version


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
    if path is None or not os.path.exists(path):
        return defaults, None
    parser = configparser.ConfigParser(interpolation=None)
    try:
        with open(path, encoding="utf-8") as handle:
            parser.read_file(handle)
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
        elif name == "warp":
            if text.lower() in BOOLEANS:
                values[name] = BOOLEANS[text.lower()]
            else:
                problems.append("warp = %s (have yes|no)" % text)
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


def dump(settings):
    """The file's text for `settings`."""
    lines = ["# RYG64 settings: read when the C64 screen starts, written when it quits.",
             "# ryg --no-config ignores this file; delete it to go back to the defaults.",
             "[%s]" % SECTION]
    for field in fields(Settings):
        value = getattr(settings, field.name)
        if isinstance(value, bool):
            value = "yes" if value else "no"
        lines.append("%s = %s" % (field.name, value))
    return "\n".join(lines) + "\n"


def save(path, settings):
    """Write `settings` to `path` (creating its folder); returns a one-line warning or None."""
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
            out.write(dump(settings))
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
    return " ".join(str(error).split())
