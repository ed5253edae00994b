"""The curses session: terminal modes set and always restored, the drawing surface, the log file.

run_terminal() is what `python ryg.py` calls: it checks there is a terminal,
opens the log (c64.host.logfile: the per-user state folder, or --log), lets curses.wrapper set the
terminal up and restore it whatever happens (quit, Ctrl-C, a crash), runs
app.TerminalApp inside, and prints a one-line reason on the way out; the
details of a crash go to the log, not to the screen.
"""

import logging
import os
import sys

from c64.host.signals import Ended, ended_in
from c64.machine import C64
from c64.host import logfile
from c64.terminal.app import SCREENSHOT_BASE, TerminalApp
from c64.terminal.colours import CursesColours, detect_depth
from c64.terminal.surface import AnsiSurface, CursesSurface
from charset.colours import DEFAULT_PALETTE

log = logging.getLogger("ryg64")


def setup_log(path=None):
    """Log to `path` (--log; None: the per-user default, c64.host.logfile); returns the
    file's path, or a few words saying there is none."""
    handler, problem = logfile.open_log(path)
    for old in [h for h in log.handlers if logfile.is_log_handler(h)]:
        log.removeHandler(old)
        logfile.close_log(old)
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    return logfile.describe() if problem is None else problem


def _session(stdscr, curses, program, args, cpu_class, glyph_mode, played=None):
    """Inside curses.wrapper: set the terminal up, run the app, return (status, message).

    played: a list that gets the TerminalApp, so its last program can be remembered.
    """
    curses.raw()                      # Ctrl-C, Ctrl-Q, Ctrl-V... arrive as keys
    stdscr.keypad(True)
    if hasattr(curses, "set_escdelay"):
        curses.set_escdelay(25)       # Esc is RUN/STOP: do not wait a second for a sequence
    try:
        curses.curs_set(0)            # the C64 draws its own cursor in screen RAM
    except curses.error:
        pass
    has_colours = curses.has_colors()
    if has_colours:
        try:
            curses.use_default_colors()
        except curses.error:
            pass
    palette = getattr(args, "palette", None) or DEFAULT_PALETTE
    depth = detect_depth(args.colors, os.environ, getattr(curses, "COLORS", 0), has_colours)
    log.info("terminal %s, %sx%s, colours %s, glyphs %s", os.environ.get("TERM"), *stdscr.getmaxyx(),
             depth, glyph_mode)
    if depth == "truecolor":
        stdscr.refresh()
        surface = AnsiSurface(sys.stdout, stdscr.getmaxyx, stdscr, palette=palette)
    else:
        surface = CursesSurface(stdscr, CursesColours(curses, depth, palette))

    def machine_factory():
        return C64(sid_seed=args.seed, ntsc=args.ntsc, disk_folder=args.disk, cpu_class=cpu_class)

    settings_path = getattr(args, "settings_path", None)
    notes = ["settings: %s" % settings_path if settings_path else
             "settings: not remembered (--no-config)"]
    if settings_path and getattr(args, "settings_broken", False):
        notes.append("  (not valid: used the defaults, the file is left as it is)")
    chosen = getattr(args, "settings", None)
    last_move = getattr(args, "last_move", None)
    app = TerminalApp(program, stdscr, surface, curses, machine_factory, glyph_mode=glyph_mode,
                      warp=bool(args.warp), folder=".", palette=palette,
                      screenshot_base=getattr(args, "screenshot", None) or SCREENSHOT_BASE, help_notes=notes,
                      level=chosen.level if chosen is not None else 0,
                      last_move=last_move if last_move is not None else (chosen is None or chosen.last_move))
    if played is not None:
        played.append(app)
    try:
        code, message = app.run()
        if code == 0 and app.error:
            message = "the program had stopped: %s" % app.error
        return code, message
    finally:
        surface.close()


def has_terminal():
    return sys.stdin.isatty() and sys.stdout.isatty()


def set_host_locale(environ=None):
    """Take the host's locale for curses (its character encoding decides the glyphs).

    A locale the environment names but the host has not installed (LANG=es_ES.UTF-8
    in a bare container) is no reason to stop: the C library's default stays, with
    UTF-8 characters when the name asked for UTF-8.  Returns the LC_CTYPE set."""
    import locale

    environ = os.environ if environ is None else environ
    try:
        return locale.setlocale(locale.LC_ALL, "")
    except locale.Error:
        pass
    wanted = next((environ[n] for n in ("LC_ALL", "LC_CTYPE", "LANG") if environ.get(n)), "")
    if "utf8" in wanted.lower().replace("-", ""):
        for fallback in ("C.UTF-8", "C.utf8", "en_US.UTF-8"):
            try:
                return locale.setlocale(locale.LC_CTYPE, fallback)
            except locale.Error:
                continue
    return locale.setlocale(locale.LC_CTYPE)


def terminal_problem(curses, environ=None, fd=None):
    """Why this terminal cannot show the C64 screen (TERM unset, unknown to terminfo, or
    without cursor addressing: TERM=dumb), in words; None when it can.  Platforms whose
    curses has no terminfo (Windows) are not asked."""
    environ = os.environ if environ is None else environ
    if not hasattr(curses, "setupterm") or not hasattr(curses, "tigetstr") or os.name == "nt":
        return None
    term = environ.get("TERM")
    if not term:
        return "TERM is not set, so curses cannot know this terminal"
    try:
        fd = sys.stdout.fileno() if fd is None else fd
    except (OSError, ValueError):               # not a real file (a test's captured stdout)
        return None
    try:
        curses.setupterm(term, fd)
    except curses.error:
        return "the terminal type TERM=%s is unknown to curses (no terminfo entry)" % term
    if not curses.tigetstr("cup"):
        return "this terminal (TERM=%s) cannot move the cursor, which the C64 screen needs" % term
    return None


def terminal_refusal():
    """Why the front end cannot start here (no curses, no terminal, one curses cannot
    drive), in words for the user; None when it can."""
    try:
        import curses
    except ImportError:
        return "curses is not available (on Windows: pip install windows-curses); use --headless"
    if not has_terminal():
        return "the C64 screen needs a terminal (stdin and stdout); use --headless for scripts"
    problem = terminal_problem(curses)
    if problem:
        return "%s; run it in a terminal such as xterm (TERM=xterm-256color), or use --headless" % problem
    return None


def run_terminal(program, args, cpu_class):
    """The interactive front end for `python ryg.py`; returns the exit status."""
    refusal = terminal_refusal()
    if refusal:
        sys.stderr.write("ryg: %s\n" % refusal)
        return 2
    import curses
    from c64.terminal.glyphmode import choose_glyph_mode

    path = setup_log(getattr(args, "log", None))
    set_host_locale()
    glyph_mode = choose_glyph_mode(getattr(args, "glyphs", None) or args.ascii)
    played = []
    for name in ("LINES", "COLUMNS"):
        os.environ.pop(name, None)    # ncurses would trust these over the terminal's real (and changing) size
    try:
        code, message = curses.wrapper(_session, curses, program, args, cpu_class, glyph_mode, played)
    except KeyboardInterrupt:
        code, message = 130, "interrupted"
    except Ended as ended:              # curses.wrapper has restored the terminal; ryg.main says it
        log.info("quit: status %d, ended by %s", ended.status, ended.name)
        raise
    except Exception as error:          # the terminal is restored by curses.wrapper; say why, briefly
        ended = ended_in(error)
        if ended is not None:           # restoring a terminal that is gone (SIGHUP) failed
            log.info("quit: status %d, ended by %s (%s)", ended.status, ended.name, error)
            raise ended from None
        log.exception("the front end crashed")
        sys.stderr.write("ryg: the front end crashed: %s: %s (details in %s)\n"
                         % (type(error).__name__, error, path))
        return 1
    if message:
        sys.stderr.write("ryg: %s\n" % message)
    if played:
        remember(args, played[-1].program, played[-1].keep_level())
    else:
        remember(args, program)
    log.info("quit: status %d, %s", code, message)
    return code


def remember(args, program, level=0):
    """Write the settings file: the settings in use, `program` as the last version if it is
    bundled, and ryg3's `level` last played (1-9; 0: the one remembered stays)."""
    path = getattr(args, "settings_path", None)
    chosen = getattr(args, "settings", None)
    if not path or chosen is None or getattr(args, "settings_broken", False):
        return
    from dataclasses import replace

    from asm.versions import find_version
    from c64.host import settings
    name = program.name[:-4] if program.name.lower().endswith(".prg") else program.name
    version = find_version(name)
    if version is not None and version.available():
        chosen = replace(chosen, version=version.name)
    if 1 <= level <= 9:
        chosen = replace(chosen, level=level)
    warning = settings.save(path, chosen)
    if warning:
        sys.stderr.write("ryg: %s\n" % warning)
