"""Headless mode: run a program without a terminal, feed scripted keys, print the screen.

Used by scripts, bug reports and the tests: `python ryg.py --headless
--keys "01{return}" ryg23`.  The run ends when the keys are used up and
the program waits for the keyboard -- a program that returns to BASIC ends at
READY., where a C64 would wait, after the rest of its BASIC has run -- at a limit (--max-cycles, or
DEFAULT_MAX_CYCLES; exit status 3), on a CPU error (exit status 1, with the
reason on stderr) or on Ctrl-C (status 130).
A --screenshot FILE.svg or FILE.png is written with the screen as it is then (c64.host.screenshot).
"""

import sys

from c64.host import files as hostfiles
from c64.machine import C64, StopReason
from c64.textfit import printable

DEFAULT_MAX_CYCLES = 2_000_000_000       # ~34 minutes of C64 time

# Exit statuses (ryg.py --help lists them).
EXIT_OK, EXIT_ERROR, EXIT_BAD_INPUT, EXIT_LIMIT, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


def format_text(machine):
    return "\n".join(line.rstrip() for line in machine.screen_lines())


def format_hex(machine):
    """Each row: its number, 40 screen codes, then 40 colour nibbles."""
    rows = []
    for number, (codes, colours) in enumerate(zip(machine.screen_codes(), machine.colour_codes())):
        rows.append("%02d %s %s" % (number, codes.hex(), "".join("%x" % c for c in colours)))
    return "\n".join(rows)


def format_peek(machine, start, end):
    lines = []
    for row in range(start, end + 1, 16):
        values = " ".join("%02x" % machine.peek(a) for a in range(row, min(row + 16, end + 1)))
        lines.append("$%04X: %s" % (row, values))
    return "\n".join(lines)


def transcript_text(codes):
    """CHROUT output as text: printable PETSCII as ASCII, RETURN as a newline, other codes as {name}.
    A line feed ($0A, which BASIC prints after READY. and BREAK) is left out: the screen
    ignores it."""
    from charset.glyphs import screen_to_text
    from charset.keys import key_name
    from charset.petscii import petscii_to_screen
    out = []
    for code in codes:
        if code in (0x0D, 0x8D):
            out.append("\n")
            continue
        if code == 0x0A:
            continue
        screen = petscii_to_screen(code)
        if screen is None:
            out.append(key_name(code))          # already in braces: "{clr}"
        else:
            out.append(screen_to_text(bytes([screen])))
    return "".join(out)


class TranscriptFile:
    """A machine's transcript (C64(transcript=...)) streamed to a text file as
    transcript_text() writes it: at most BUFFER codes are held before they are written,
    so a long run costs no memory.  A context manager; close() writes the rest."""

    BUFFER = 4096

    def __init__(self, path):
        self.handle = hostfiles.open_stream(path)      # a regular file, never through a link
        self.pending = bytearray()

    def append(self, code):
        pending = self.pending
        pending.append(code)
        if len(pending) >= self.BUFFER:
            self.flush()

    def flush(self):
        if self.pending:
            self.handle.write(transcript_text(self.pending))
            self.pending.clear()
        self.handle.flush()

    def close(self):
        if not self.handle.closed:
            try:
                self.flush()
            finally:
                self.handle.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def run(program, keys=(), max_cycles=None, screen_format="text", peeks=(),
        transcript=None, sid_seed=None, ntsc=False, disk_folder=".", cpu_class=None,
        out=None, err=None, moncommands=None, breaks=(), profile=False, screenshot=None, palette=None):
    """Run `program` (a c64.loader.Program) headless; returns the process exit status.

    max_cycles: the limit (None: DEFAULT_MAX_CYCLES).  Ctrl-C during the run prints the
    screen as it is and returns EXIT_INTERRUPTED.
    out/err default to the sys.stdout/sys.stderr of the moment of the call (not of import).
    moncommands (a list of monitor command lines), breaks (addresses or labels) and
    profile attach the monitor (c64.monitor.script): its output goes to `out` before
    the screen.
    """
    default_limit = max_cycles is None
    if default_limit:
        max_cycles = DEFAULT_MAX_CYCLES
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    options = {} if cpu_class is None else {"cpu_class": cpu_class}
    status = 0
    sink = None
    if transcript is not None:
        try:
            sink = TranscriptFile(transcript)
        except OSError as error:
            err.write("ryg: cannot write the transcript %s: %s\n" % (printable(transcript), error.strerror or error))
            status = 2
    machine = C64(sid_seed=sid_seed, ntsc=ntsc, disk_folder=disk_folder, transcript=sink, **options)
    interrupted = False
    try:
        machine.run_program(program)
        machine.type_keys(keys)
        if moncommands is not None or breaks or profile:
            from c64.monitor.script import MonitorScript
            script = MonitorScript(machine, moncommands or (), out, breaks, profile)
            reason = script.run(max_cycles)
        else:
            limit = machine.cycles + max_cycles
            reason = machine.run(max_cycles)
            while reason is StopReason.BASIC and machine.cycles < limit:
                reason = machine.run(limit - machine.cycles)     # on to READY., where a C64 waits
    except KeyboardInterrupt:
        interrupted, reason = True, None
    finally:
        if sink is not None:
            try:
                sink.close()
            except OSError as error:
                err.write("ryg: cannot write the transcript %s: %s\n"
                          % (printable(transcript), error.strerror or error))
                status = 2
    out.write((format_hex(machine) if screen_format == "hex" else format_text(machine)) + "\n")
    for start, end in peeks:
        out.write(format_peek(machine, start, end) + "\n")
    if screenshot is not None:
        from c64.host.screenshot import write_picture
        try:
            write_picture(machine, screenshot, **({"palette": palette} if palette else {}))
        except OSError as error:
            err.write("ryg: cannot write the screenshot %s: %s\n" % (printable(screenshot), error.strerror or error))
            status = 2
    left = _keys_left(machine)
    if interrupted:
        err.write("ryg: interrupted\n")
        return EXIT_INTERRUPTED
    if reason is StopReason.ERROR:
        err.write("ryg: the program stopped: %s%s\n" % (machine.error, left and "; " + left))
        return EXIT_ERROR
    if reason is StopReason.CYCLES:
        if default_limit:
            limit = "the default limit of %s cycles; --max-cycles N for another" % format(max_cycles, ",")
        else:
            limit = "--max-cycles %d" % max_cycles
        err.write("ryg: stopped after %s cycles (%s)%s\n"
                  % (format(machine.cycles, ","), limit, left and "; " + left))
        return status or EXIT_LIMIT
    if left:
        err.write("ryg: %s\n" % left)
    return status


def _keys_left(machine):
    """'2 keys not typed: {f1}X' when scripted keys were left over, else '' -- counting a
    key still down in the matrix that no keyboard scan took (the interrupt was off)."""
    from charset.keys import format_keys
    keys = list(machine.kernal.keyboard.arriving) + list(machine.pending_keys)
    count = len(keys)
    if not count:
        return ""
    text = format_keys(keys)
    if len(text) > 40:
        text = text[:40] + "..."
    return "%d key%s not typed: %s" % (count, "" if count == 1 else "s", text)
