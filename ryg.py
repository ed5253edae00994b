#!/usr/bin/env python3
"""RYG64: play RYG ("Raton y Gatos"), a Commodore 64 board-game AI, on a ROM-less C64 in the terminal.

    ryg                    ryg3 in a C64 screen (curses), in Spanish when the
                           locale (LC_ALL / LC_MESSAGES / LANG) is es*, else ryg3en
    ryg ryg23              a bundled version by name (see --list)
    ryg path/to/your.prg   any .prg file, LOADed and RUN as on a C64
    ryg game.d64           the first program on a disk image (.d64 .d71 .d81), the image as drive 8
    ryg game.bas           a BASIC listing as text (.bas .txt), tokenised as typed in, and RUN
    ryg --listing x.prg    print a program's BASIC as such a listing
    ryg --basic            COMMODORE 64 BASIC V2 at the READY. prompt, no program
    ryg --headless --keys "01{return}" ryg23     scripted run, screen printed as text

`ryg` is the command the install puts on the PATH; in a checkout, `python ryg.py`.
"""

import argparse
import errno
import os
import sys

try:
    import py65  # noqa: F401  (the 6502 CPU: every run needs it, and `python ryg.py` runs uninstalled)
except ImportError:
    sys.exit("ryg: py65, the 6502 CPU, is not installed for this Python (%s): activate the virtual "
             "environment (. .venv/bin/activate), or install: python -m pip install -e \".[test]\" "
             "(README.md, Install and play)" % sys.executable)

from asm import versions
from c64.headless import DEFAULT_MAX_CYCLES
from c64 import listing
from c64.host import settings
from c64.textfit import printable
from charset.colours import PALETTE_CHOICES
from c64.loader import (BASIC_START, PrgError, UsageError, basic_program, check_image, is_image_path,
                       new_disk_image, not_ram_at, parse_address, read_image_program, read_prg)

EPILOG = """\
keys for --keys / --keys-file are written petcat-style: plain characters, plus
{return} {down} {up} {left} {right} {home} {clr} {del} {inst} {stop} {f1}..{f8}
{space} colour names such as {wht}, {rvs on}/{rvs off}, {13} or {$0d} for any
PETSCII code, and a count to repeat: {3 down}.  {restore} presses RESTORE;
{ctrl} holds CTRL down for half a second while the program runs ({4 ctrl}: two
seconds), which slows the screen's scrolling as on a C64 (LIST{return}{4 ctrl}).

in the C64 screen: F12 or Ctrl-W toggles warp, F10 or Ctrl-V opens the version
menu, F9 or Ctrl-R resets and restarts the program, Ctrl-O opens the monitor,
Ctrl-Q quits (asks y/n), Ctrl-C quits at once; F1..F8 are the C64 function keys, Esc is RUN/STOP,
PageUp is RESTORE, Home is CLR/HOME, Ctrl-S holds CTRL (slower scrolling: hold it
during a LIST), Ctrl-P writes a screenshot (PNG and SVG); the help
panel (F11 or Ctrl-K) lists them all and says where the settings file is.

the C64 screen remembers --palette, --colors, --glyphs, --warp/--no-warp,
--last-move/--no-last-move, the last bundled version played (what `ryg` alone
starts next) and ryg3's level in a settings file (CONFIG_PATH);
--no-config ignores it, headless runs never use it.

--headless runs until the keys are used up and the program waits for another,
until it returns to BASIC, or until a limit: --max-cycles N, by default
DEFAULT_LIMIT.  The limit counts C64 cycles, not seconds (a run ends at
the same point on any host): most programs run at 20 emulated MHz or more,
under two minutes for the default, but one that keeps the machine in its
slowest paths (an NMI every few cycles: about 0.15 MHz) would take hours --
give it a smaller --max-cycles, or end it with Ctrl-C.

exit status:
  0    the run ended as the program chose (it waits for a key, or is back in BASIC)
  1    the 6502 program stopped on an error (a JAM, BRK, an unimplemented routine)
  2    bad input (a missing or broken .prg, bad --keys, an unwritable --transcript)
  3    a limit ended a headless run (--max-cycles, or the default limit)
  130  interrupted (Ctrl-C)
"""
KEYS_FILE_LIMIT = 1024 * 1024       # bytes of --keys-file read at most
BYTE_ORDER_MARK = "\ufeff"


def _positive_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not a whole number: %r" % text) from None
    if value <= 0:
        raise argparse.ArgumentTypeError("must be at least 1, not %d" % value)
    return value


def build_parser():
    parser = argparse.ArgumentParser(
        prog="ryg", description="RYG, a Commodore 64 board-game AI, on a ROM-less C64 emulator.",
        epilog=EPILOG.replace("DEFAULT_LIMIT", "%s cycles (about %d minutes of C64 time)" % (
            format(DEFAULT_MAX_CYCLES, ","), round(DEFAULT_MAX_CYCLES / 985248 / 60))).replace(
            "CONFIG_PATH", settings.config_path() or "no config folder on this system"),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("program", nargs="?",
                        help="a bundled version name (see --list), or the path of a .prg file, a BASIC listing "
                             "as text (.bas, .txt: typed in and RUN) or a disk image "
                             "(default: the bundled version played last on the C64 screen; the first "
                             "time, and headless, ryg3 when the locale is Spanish, LC_ALL / LC_MESSAGES / "
                             "LANG es*, else ryg3en)")
    parser.add_argument("--list", action="store_true", help="list the bundled versions and exit")
    parser.add_argument("--basic", action="store_true",
                        help="boot to BASIC's start banner and READY. with no program")
    parser.add_argument("--warp", action=argparse.BooleanOptionalAction, default=None,
                        help="start in warp mode (as fast as the host can); --no-warp: at C64 speed")
    parser.add_argument("--ntsc", action="store_true", help="NTSC timing (1,022,727 Hz, 60 frames/s) instead of PAL")
    parser.add_argument("--listing", action="store_true",
                        help="print the program's BASIC lines as a text listing (petcat's way) and exit")
    parser.add_argument("--case", choices=listing.CASES, default=None,
                        help="letters of a listing (.bas, .txt, --listing): upper (default), the C64's "
                             "upper-case set, either case read as its plain letters; mixed, its lower-case "
                             "set as petcat writes it, capitals the shifted letters")
    parser.add_argument("--sys", metavar="ADDR", help="start the .prg's machine code at ADDR, without "
                        "BASIC (for a file with no BASIC line; decimal, $hex or 0xhex)")
    parser.add_argument("--cpu", choices=("fast", "py65"), default="fast",
                        help="CPU core: the fast translating core (default) or plain py65 stepping")
    parser.add_argument("--disk", metavar="DIR", default=None,
                        help="host folder, or .d64/.d71/.d81 disk image, seen as disk drive 8 "
                             "(default: the current folder; the image `ryg image.d64` starts)")
    parser.add_argument("--new-disk", metavar="IMAGE", default=None,
                        help="make an empty disk image (.d64, .d71 or .d81 by its name) and use it "
                             "as drive 8 (as --disk)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the SID noise generator")
    parser.add_argument("--screenshot", metavar="FILE.png|FILE.svg",
                        help="headless: write the screen as a PNG or SVG picture at the end of the run; "
                        "in the terminal: the file name Ctrl-P numbers (FILE-001.png, ...; "
                        "without this option both ryg64-001.png and ryg64-001.svg)")
    parser.add_argument("--palette", choices=PALETTE_CHOICES, default=None,
                        help="C64 colours: vice (VICE's colodore, the default), pepto, or grey")
    screen = parser.add_argument_group("terminal")
    screen.add_argument("--colors", choices=settings.COLOUR_CHOICES, default=None,
                        help="colour depth (default: what the terminal says)")
    screen.add_argument("--glyphs", choices=settings.GLYPH_CHOICES, default=None,
                        help="unicode (Symbols for Legacy Computing), legacy (look-alikes for fonts "
                        "without them), ascii; default auto: what the locale and C library can show")
    screen.add_argument("--ascii", action="store_true", help="ASCII glyphs only (the same as --glyphs ascii)")
    screen.add_argument("--last-move", action=argparse.BooleanOptionalAction, default=None,
                        help="the classic versions' last move (the cats' reply) on the status line, "
                        "as their boards show it (the default); --no-last-move: the screen as the program prints it")
    screen.add_argument("--no-config", action="store_true",
                        help="neither read nor write the settings file (palette, colours, glyphs, warp, "
                        "the last version and ryg3's level are remembered there; `ryg --help` shows where)")
    screen.add_argument("--log", metavar="FILE",
                        help="log errors and crashes to FILE (default: ryg64.log in your state folder, "
                             "e.g. ~/.local/state/ryg64)")
    headless = parser.add_argument_group("headless")
    headless.add_argument("--headless", action="store_true",
                          help="run without curses, in warp; print the screen at the end")
    headless.add_argument("--keys", metavar="TEXT", default="", help="keys to type, petcat-style")
    headless.add_argument("--keys-file", metavar="FILE", help="read the keys to type from FILE")
    headless.add_argument("--max-cycles", metavar="N", type=_positive_int, default=None,
                          help="stop after N emulated cycles (default %s)" % format(DEFAULT_MAX_CYCLES, ","))
    headless.add_argument("--screen-format", choices=("text", "hex"), default="text",
                          help="text lines, or per row 40 screen codes and 40 colours in hex")
    headless.add_argument("--peek", metavar="ADDR[-ADDR]", action="append", default=[],
                          help="also print memory at exit (repeatable)")
    headless.add_argument("--transcript", metavar="FILE",
                          help="write everything printed through CHROUT to FILE as text")
    monitor = parser.add_argument_group("monitor (headless)")
    monitor.add_argument("--moncommands", metavar="FILE",
                         help="run the monitor commands in FILE at the start, then the next ones "
                         "at every stop (breakpoint, watch); output on stdout")
    monitor.add_argument("--break", metavar="LABEL|ADDR", dest="breaks", action="append", default=[],
                         help="a breakpoint (repeatable); the label of a bundled version or an address")
    monitor.add_argument("--profile", action="store_true",
                         help="count C64 cycles per routine (by label) and print the table at the end")
    return parser


def fail(message, status=2):
    sys.stderr.write("ryg: %s\n" % printable(message))
    return status


def list_versions(out=None, last=None):
    """The bundled versions; `last`: the one played last, which `ryg` alone starts now."""
    out = out or sys.stdout
    available = versions.available_versions()
    default = versions.default_version()
    if not available:
        out.write("no RYG version is built yet (python -m asm.build)\n")
        return
    for version in available:
        mark = " (default)" if default and version.name == default.name else ""
        if last == version.name and mark == "":
            mark = " (played last: what `ryg` starts)"
        out.write("%-8s %s%s\n" % (version.name, version.description, mark))


def resolve_program(name, sys_address):
    """A version name or a path -> a checked Program."""
    if name is None:
        version = versions.default_version()
        if version is None:
            raise PrgError("no RYG version is built yet: run python -m asm.build, or give a .prg path")
        return read_prg(version.path, sys_address)
    version = versions.find_version(name)
    if version is not None and not os.path.exists(name):
        if not version.ready:
            raise PrgError("%s is still in development; to try it anyway: ryg %s"
                           % (name, os.path.relpath(version.path)))
        if not version.available():
            raise PrgError("%s is a known version but its .prg is not built (python -m asm.build)" % name)
        return read_prg(version.path, sys_address)
    if not os.path.exists(name) and not name.lower().endswith(".prg") and os.path.exists(name + ".prg"):
        name += ".prg"
    if not os.path.exists(name) and os.sep not in name and "." not in name:
        known = ", ".join(v.name for v in versions.available_versions())
        raise PrgError("%s is neither a bundled version (%s) nor a file" % (name, known or "none built"))
    program = read_prg(name, sys_address)
    if sys_address is None:
        refuse_data_file(program)
    return program


def refuse_data_file(program):
    """A .prg that is data, not a program (as the F10 menu tells them apart), is not run:
    a ryg3 saved game, or bytes loaded inside a page with no SYS line.  --sys still runs it."""
    if (program.load_address, 2 + len(program.data)) in versions.saved_game_headers():
        raise PrgError("%s is a ryg3 saved game, not a program: load it in ryg3 with O" % program.name)
    if program.load_address != BASIC_START and program.load_address & 0xFF:
        if looks_like_text(bytes([program.load_address & 0xFF, program.load_address >> 8]) + program.data):
            raise PrgError("%s is a text file, not a C64 program: ryg starts a .prg, a BASIC listing "
                           "(.bas or .txt) or a disk image (.d64, .d71, .d81)" % program.name)
        raise PrgError("%s looks like a data file, not a program (loaded at $%04X, inside a page, with no "
                       "SYS line); to run it anyway give --sys ADDR" % (program.name, program.load_address))
    hidden_by = not_ram_at(program.load_address)
    if hidden_by is not None:
        raise PrgError("%s is loaded at $%04X, under %s: a C64 runs those bytes there, not the "
                       "program's; give --sys ADDR to start it elsewhere"
                       % (program.name, program.load_address, hidden_by))


def looks_like_text(data):
    """True when a file's first KB is UTF-8 text (printable, tabs and line ends): a README
    named on the command line, say, rather than a .prg."""
    head = data[:1024]
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError as error:
        if error.start < len(head) - 3:          # not only a character cut at the end of the KB
            return False
        text = head[:error.start].decode("utf-8")
    return all(char.isprintable() or char in "\t\r\n" for char in text)


def print_listing(program, case):
    """--listing: the program's BASIC as text on stdout, what it leaves out on stderr."""
    text, notes = listing.listing_of(program, case)
    sys.stdout.write(text)
    sys.stdout.flush()
    for note in notes:
        _say(note)
    return 0


def parse_peek(text):
    start_text, _, end_text = text.partition("-")
    start = parse_address(start_text)
    end = parse_address(end_text) if end_text else start
    if end < start:
        raise UsageError("--peek %s: the end is before the start" % text)
    return start, end


def cpu_class(name):
    if name == "py65":
        from c64.cpu import CPU
        return CPU
    try:
        from c64.fastcpu import FastCPU
    except ImportError:
        from c64.cpu import CPU
        return CPU
    return FastCPU


def read_text_file(path, what, limit=KEYS_FILE_LIMIT):
    """The text of a file an option names (the keys file, the monitor commands): a regular
    file (c64.host.files: no FIFO, device or folder) of at most `limit` bytes of UTF-8, a
    leading byte order mark (Windows editors write one) skipped; UsageError with one line
    naming `what` otherwise."""
    from c64.host import files as hostfiles
    try:
        data = hostfiles.read_bytes(path, limit)
    except OSError as error:
        if error.errno == errno.EFBIG:
            raise UsageError("%s %s is larger than %d MB" % (what, path, limit // (1024 * 1024))) from None
        raise UsageError("cannot read %s %s: %s" % (what, path, error.strerror or error)) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UsageError("%s %s is not UTF-8 text (byte $%02X at position %d)"
                         % (what, path, data[error.start], error.start)) from None
    return text[1:] if text.startswith(BYTE_ORDER_MARK) else text


def read_keys_file(path):
    """The text of a --keys-file (read_text_file)."""
    return read_text_file(path, "the keys file")


def apply_settings(args, err=None):
    """Terminal runs: the settings file's values where the command line gave none.

    Sets args.settings (what to remember at the end: the command line over the
    file) and args.settings_path (None with --no-config or without a config folder).
    """
    err = err or sys.stderr
    path = None if args.no_config else settings.config_path()
    names = [v.name for v in versions.available_versions()]
    stored, warning = settings.load(path, names)
    if warning:
        err.write("ryg: %s (left as it is)\n" % printable(warning))
    args.settings_broken = bool(warning)     # a file the user must fix is not overwritten
    if args.ascii:
        args.glyphs = "ascii"
    chosen = {}
    for name in ("palette", "colors", "glyphs", "warp", "last_move"):
        value = getattr(args, name)
        if value is None:
            setattr(args, name, getattr(stored, name))
        else:
            chosen[name] = value
    args.settings = settings.Settings(**{**stored.__dict__, **chosen})
    args.settings_path = path
    return args


def remembered_version(args):
    """The bundled version last played, when no program was named and it is still there."""
    name = args.settings.version
    version = versions.find_version(name) if name else None
    return name if version is not None and version.available() else None


def main(argv=None):
    """The command line; returns the exit status (see EPILOG).  Ctrl-C anywhere is
    `interrupted` and 130; a signal that ends the program (SIGHUP, SIGTERM...: see
    c64.host.signals) is said and 128 + its number, after the terminal is restored; a
    reader that goes away (`| head`) ends the run quietly."""
    from c64.host.signals import Ended, ended_by_signals
    try:
        with ended_by_signals():
            return _main(argv)
    except KeyboardInterrupt:
        _say("interrupted")
        return 130
    except Ended as ended:
        _say("ended by %s" % ended.name)
        return ended.status
    except BrokenPipeError:
        try:                            # nothing more can reach the reader; Python's own flush
            devnull = os.open(os.devnull, os.O_WRONLY)     # at exit must not complain either
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 141                      # 128 + SIGPIPE, as a shell reports it


def _say(message):
    """One line on stderr, if stderr is still there (after SIGHUP it may not be)."""
    try:
        sys.stderr.write("ryg: %s\n" % printable(message))
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def terminal_refusal():
    """Why the terminal front end cannot start here, or None."""
    try:
        from c64.terminal import terminal_refusal as refusal
    except ImportError:
        return "the terminal front end is not available in this build; use --headless"
    return refusal()


def _main(argv):
    args = build_parser().parse_args(argv)
    if args.list:
        list_versions(last=None if args.headless else remembered_version(apply_settings(args)))
        return 0
    if not args.headless and not args.listing:
        apply_settings(args)
    try:
        sys_address = parse_address(args.sys) if args.sys else None
        name = args.program
        if args.basic and name:
            raise PrgError("--basic starts without a program; give either --basic or a program")
        if args.listing and (name is None or args.basic):
            raise UsageError("--listing needs a program: a .prg, a listing, a disk image or a version name")
        if name is None and not args.headless and not args.basic:
            name = remembered_version(args)
        image = None
        if name is not None and is_image_path(name) and not os.path.isdir(name):
            image = name                   # autostart: its first program, the image as drive 8
            program = read_image_program(name, sys_address)
            if sys_address is None:
                refuse_data_file(program)
        elif name is not None and listing.is_listing_path(name):
            program = listing.read_listing_file(name, args.case or "upper", sys_address)
        else:
            program = basic_program() if args.basic else resolve_program(name, sys_address)
        if args.case is not None and not args.listing and not listing.is_listing_path(name or ""):
            raise UsageError("--case is for a BASIC listing (.bas, .txt) or --listing")
        if args.listing:
            return print_listing(program, args.case or "upper")
        peeks = [parse_peek(p) for p in args.peek]
        from charset.keys import MAX_KEYS, KeyParseError, parse_keys
        sources = [("--keys", args.keys)]
        if args.keys_file:
            sources.append(("the keys file %s" % args.keys_file, read_keys_file(args.keys_file)))
        key_codes = []
        for where, text in sources:
            try:
                key_codes += parse_keys(text)
            except KeyParseError as error:
                raise UsageError("bad keys in %s: %s" % (where, error))
        if len(key_codes) > MAX_KEYS:
            raise UsageError("--keys and the keys file make more than %s keys" % format(MAX_KEYS, ","))
        if args.screenshot is not None:
            from c64.host.screenshot import kind_of
            try:
                kind_of(args.screenshot)
            except ValueError as error:
                raise UsageError("--screenshot: %s" % error)
        if args.new_disk is not None:
            if args.disk is not None or image is not None:
                raise UsageError("--new-disk is drive 8: give it, or --disk, or a disk image to start, not two")
            args.disk = args.new_disk      # (made last, once every other option is checked)
        else:
            if args.disk is None:
                args.disk = image if image is not None else "."
            if is_image_path(args.disk) and not os.path.isdir(args.disk):
                if not os.path.lexists(args.disk):
                    raise UsageError("no such disk image: %s (ryg --new-disk %s makes an empty one)"
                                     % (args.disk, args.disk))
                check_image(args.disk)
            elif not os.path.isdir(args.disk):
                raise UsageError("--disk %s is neither a folder nor a disk image (.d64, .d71, .d81)" % args.disk)
        moncommands = None
        if args.moncommands:
            moncommands = read_text_file(args.moncommands, "the monitor commands").splitlines()
        if (moncommands is not None or args.breaks or args.profile) and not args.headless:
            raise UsageError("--moncommands, --break and --profile need --headless "
                           "(in the terminal the monitor opens with its key)")
        if args.new_disk is not None:      # last: a refused run leaves no image behind
            refusal = None if args.headless else terminal_refusal()
            if refusal:
                raise UsageError(refusal)
            new_disk_image(args.new_disk)
    except UsageError as error:             # PrgError too
        return fail(str(error))
    if args.headless:
        from c64 import headless
        return headless.run(program, key_codes, max_cycles=args.max_cycles,
                            screen_format=args.screen_format, peeks=peeks, transcript=args.transcript,
                            sid_seed=args.seed, ntsc=args.ntsc, disk_folder=args.disk,
                            cpu_class=cpu_class(args.cpu), moncommands=moncommands,
                            breaks=args.breaks, profile=args.profile,
                            screenshot=args.screenshot, palette=args.palette)
    try:
        from c64.terminal import run_terminal
    except ImportError:
        return fail("the terminal front end is not available in this build; use --headless")
    return run_terminal(program, args, cpu_class(args.cpu))


if __name__ == "__main__":
    sys.exit(main())
