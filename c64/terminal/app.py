"""The interactive C64: the frame loop and the emulator keys.

TerminalApp is the loop.  Each pass it runs the frames of emulated time
that are due (pacing.Pacer), draws what changed (render.Renderer), then
waits in get_wch() until the next frame is due or a key arrives.  While
the program waits for a key the machine skips idle time cheaply, and the
loop wakes only every IDLE_FRAMES frames, so the process sleeps nearly all
the time.  In warp it runs frame after frame and redraws ~25 times a
second; a program that waits for a key in warp is paced in real time
(there is nothing to hurry, and the cursor should blink at its speed).

Menus, the help panel, a question (quit? reset and lose the game?) and a too-small terminal pause
the emulation; the schedule resumes without trying to catch up.  So does
the monitor (Ctrl-O, or a breakpoint or watch hit, in real time or warp):
its panel (monitor_panel.MonitorPanel) runs c64.monitor's commands on the
stopped machine; leaving it (x, g or Ctrl-O) resumes at the speed the
machine had.  A 6502
error (jam, BRK, missing KERNAL routine) stops the machine with the reason
on the status line until the user resets, picks a version or quits.

The curses session round it (terminal modes, surfaces, the log file) is
c64.terminal.session.
"""

import logging
import os
import sys
import time
from collections import deque

from asm.versions import available_versions, bundled_version
from c64 import listing
from c64.loader import PrgError, basic_program
from c64.machine import StopReason
from c64.terminal.keys import Command, KeyDecoder
from c64.terminal.menu import CLOSE, HelpPanel, MenuEntry, VersionMenu, menu_entries
from c64.terminal import monitor_panel, ryg_programs
from c64.terminal.last_move import CLASSIC_VERSIONS, LastMove
from c64.terminal.pacing import WARP_REDRAW, Pacer, SpeedMeter
from c64.terminal.render import Renderer, snapshot
from c64.terminal.status import StatusInfo, status_parts
from charset.colours import DEFAULT_PALETTE
from charset.keys import RESTORE, build_host_keymap

IDLE_FRAMES = 5              # while waiting for a key: wake every 5 frames (0.1 s PAL)
BUSY_BATCH = 2               # at most this many owed frames run back to back when busy
SPEED_REFRESH = 0.5          # seconds between updates of the speed on the status line
PAUSED_WAIT = 0.5            # get_wch timeout while paused (menu, help, too small)
MAX_KEYS_PER_PASS = 64
NOTE_SECONDS = 3             # how long a note (screenshot written) replaces the help hint
# F9 while something would be lost (at_stake): the status line's question, 40 columns at most.
RESET_QUESTIONS = {"the game in progress": "Restart and lose the game? (y/n)",
                   None: "Restart, losing the C64's memory? (y/n)"}
SCREENSHOT_BASE = "ryg64"      # Ctrl-P writes ryg64-001.png and ryg64-001.svg, then -002 ... here
MAX_SCREENSHOTS = 999        # ... up to -999
# Keys typed ahead of the C64's own 10-key buffer: two screen lines.  A paste past it is
# dropped (a C64 drops keys past its buffer too) and the status line says how many.
TYPEAHEAD_LIMIT = 80
# While BASIC's READY. loop reads lines, a paste is a program listing: room for all of
# one (38,911 bytes of BASIC memory), entered line by line as the editor takes the keys.
LISTING_LIMIT = 40000
SETTLE_CYCLES = 5000         # enough for the jiffy IRQ handler and the way back to the wait

log = logging.getLogger("ryg64")


def program_label(program):
    return name_label(program.name)


def name_label(name):
    """A .prg's name as the status line shows it: without the extension."""
    return name[:-4] if name.lower().endswith(".prg") else name


class TerminalApp:
    """One interactive session on a curses-like window.

    window: gives get_wch()/timeout() (keys) and getmaxyx(); surface: where to
    draw (surface.CursesSurface or AnsiSurface); curses_module: KEY_* numbers,
    update_lines_cols, error; machine_factory(): a fresh C64; clock: seconds.
    palette: for screenshots (the surface has its own); screenshot_base: the
    name Ctrl-P numbers; help_notes: extra lines for the help panel.  level:
    the level ryg3 starts at (1-9; 0: its own), `level` afterwards the one last
    played; last_move: the classic versions' last move on the status line.
    """

    def __init__(self, program, window, surface, curses_module, machine_factory, glyph_mode="unicode",
                 warp=False, clock=time.monotonic, folder=".", versions=available_versions,
                 palette=DEFAULT_PALETTE, screenshot_base=SCREENSHOT_BASE, help_notes=(), level=0,
                 last_move=True):
        self.program = program
        self.level = level
        self.show_last_move = last_move
        self.last_move = None        # a LastMove while a classic version runs
        self.palette = palette
        self.screenshot_base = screenshot_base
        self.help_notes = list(help_notes)
        self.note = None
        self.note_time = 0.0
        self.window = window
        self.surface = surface
        self.curses = curses_module
        self.key_error = getattr(curses_module, "error", Exception)
        self.machine_factory = machine_factory
        self.renderer = Renderer(surface, glyph_mode)
        self.decoder = KeyDecoder(curses_module, build_host_keymap(curses_module))
        self.clock = clock
        self.folder = folder
        self.versions = versions
        self.warp = warp
        self.typeahead = deque()
        self.dropped_keys = 0         # in the current burst (the note says how many)
        self.dropped_at = None
        self.overlay = None          # VersionMenu or HelpPanel while open
        self.overlay_box = None      # where its box was drawn last: (top, left, height, width)
        self.question = None         # a question while asked (quit, reset), answered y or n
        self.if_yes = None           # what y does
        self.quit_code = None
        self.quit_message = None
        self.machine = None
        self.monitor = None          # c64.monitor.Monitor of the current machine, once opened
        self.panel = None            # its panel (kept while the machine lives: the scrollback)
        self.start_program(program)

    # -- machine life ------------------------------------------------------------------
    def start_program(self, program):
        """A fresh C64 running `program` (a c64.loader.Program); ryg3 starts at the
        level last played (ryg_programs)."""
        self.keep_level()
        self.program = program
        machine = self.machine = self.machine_factory()
        self.monitor = self.panel = None
        if isinstance(self.overlay, monitor_panel.MonitorPanel):
            self.overlay = None
        machine.run_program(program)
        ryg_programs.set_start_level(machine, program, self.level)
        self.typed = 0               # keys typed to this program (the version menu asks first)
        self.last_move = None
        version = bundled_version(program.name, program.data)
        if self.show_last_move and version is not None and version.name in CLASSIC_VERSIONS:
            self.last_move = LastMove()
        self.error = None
        self.idle = False            # the program waited for a key all through the last run
        self.typeahead.clear()
        self.pacer = Pacer(machine.clock_hz, machine.frame_cycles, self.clock)
        self.speed = SpeedMeter(machine.clock_hz)
        self.shown_speed = None
        self.speed_time = self.clock()
        self.paced = False
        self.cycle_base = machine.cycles
        self.renderer.invalidate()
        log.info("started %s %s", program.name,
                 "by RUN" if program.run or program.start is None else "at $%04X" % program.start)

    def keep_level(self):
        """The level ryg3 plays at now (1-9) becomes the one remembered; returns it."""
        if self.machine is not None:
            level = ryg_programs.level_played(self.machine, self.program)
            if level is not None:
                self.level = level
        return self.level

    def at_stake(self):
        """What starting another program would lose, in words, or None: ryg3's game in
        progress, or whatever keys were typed to another program."""
        in_progress = ryg_programs.game_in_progress(self.machine, self.program)
        if in_progress is not None:
            return "the game in progress" if in_progress else None
        if not self.typed:
            return None
        if bundled_version(self.program.name, self.program.data) is not None:
            return "the game in progress"
        return "what is in the C64 now"

    def emulate(self, cycles, stop_when_idle=False):
        """Run `cycles` of emulated time (or until the program waits); a 6502 error stops the machine."""
        machine = self.machine
        try:
            reason = machine.run(cycles, stop_when_idle=stop_when_idle)
        except Exception as error:       # a bug in a KERNAL trap or chip: keep the session, log the details
            log.exception("emulation failed at pc=$%04X", machine.cpu.pc)
            self.error = "emulator error: %s: %s (see %s)" % (type(error).__name__, error, log_path())
            return
        if reason is StopReason.ERROR:
            self.error = machine.error or "unknown error"
            log.error("the program stopped: %s (pc=$%04X, cycle %d)", self.error, machine.cpu.pc, machine.cycles)
        elif reason is StopReason.BASIC:
            log.info("the program returned to BASIC")
        elif reason is StopReason.BREAK:
            self.open_monitor(self.monitor.stop_text())

    def feed_keys(self):
        """Move typed-ahead keys into the C64 keyboard buffer as it has room (10 keys)."""
        machine = self.machine
        while self.typeahead:
            key = self.typeahead[0]
            if not machine.press(key):
                break                  # buffer full: try again after the program has read some
            self.typeahead.popleft()
            self.idle = False

    # -- the loop ----------------------------------------------------------------------
    def run(self):
        """Run until the user quits; returns (exit status, message or None)."""
        while self.quit_code is None:
            self.step()
        return self.quit_code, self.quit_message

    def paused(self):
        """Emulation stops while a menu, the help, a question, an error or a too-small terminal is shown."""
        return (self.overlay is not None or self.question is not None or self.error is not None
                or self.renderer.layout is None)

    def step(self):
        """One pass: emulate what is due, draw, wait for a key or the next frame."""
        self.renderer.update_layout()
        if self.paused():
            if self.paced:
                self.speed.reset()
            self.paced = False
            self.draw()
            self.wait_for_keys(PAUSED_WAIT)
            return
        self.feed_keys()
        machine = self.machine
        if self.warp and not (machine.waiting or self.idle):
            self.paced = False
            started = self.clock()
            while (self.error is None and self.overlay is None and not machine.waiting
                   and self.clock() - started < WARP_REDRAW):
                self.emulate(machine.frame_cycles)
            self.idle = machine.waiting
            self.draw()
            self.wait_for_keys(0)
            return
        if not self.paced:
            self.pacer.resync()         # time spent paused or in warp is not owed
            self.cycle_base = machine.cycles - self.pacer.frames * machine.frame_cycles
            self.speed.reset()
            self.paced = True
        due = self.pacer.frames_due()
        if due:
            waiting_before = machine.waiting
            self.pacer.ran(due if waiting_before else min(due, BUSY_BATCH))
            # Emulated time is pinned to the schedule: cycles run past a limit (the last
            # instruction, the settling below) are taken off the next run, so they never add up.
            target = self.cycle_base + self.pacer.frames * machine.frame_cycles
            self.emulate(max(0, target - machine.cycles))
            if waiting_before and not machine.waiting and self.error is None and self.overlay is None:
                # The run ended inside the jiffy IRQ handler of a waiting program: let it
                # finish and wait again, so that idle is told from busy reliably.
                self.emulate(SETTLE_CYCLES, stop_when_idle=True)
            self.idle = machine.waiting
            self.draw()
        ahead = IDLE_FRAMES if self.idle and self.error is None else 1
        self.wait_for_keys(self.pacer.seconds_until(ahead))

    # -- drawing -----------------------------------------------------------------------
    def status_info(self):
        now = self.clock()
        self.speed.add(now, self.machine.cycles)
        if now - self.speed_time >= SPEED_REFRESH or self.shown_speed is None:
            self.shown_speed = self.speed.percent()
            self.speed_time = now
        waiting = self.machine.waiting or self.idle
        question = self.question
        note = self.note if self.note and now - self.note_time < NOTE_SECONDS else None
        loaded = self.machine.loaded_name        # LOAD from BASIC replaced the program we started
        name = program_label(self.program) if loaded is None else name_label(loaded)
        move = None
        if self.last_move is not None and loaded is None:
            move = self.last_move.seen(self.machine.screen_codes(), self.machine.vic.lower_case())
        return StatusInfo(speed=self.shown_speed, warp=self.warp, name=name,
                          waiting=waiting, error=self.error, question=question, note=note,
                          drive=self.machine.drive_error(), stopped=self.stopped, move=move,
                          paused=self.overlay is not None)

    def draw(self):
        renderer = self.renderer
        if renderer.layout is None:
            renderer.draw_too_small()
        else:
            box = self.draw_picture()
            if box is not None and self.overlay_box not in (None, box):
                # The box moved or shrank (a question in the menu's footer, the list scrolled):
                # the renderer redraws only cells that changed, so the old edges need a repaint.
                self.surface.clear()
                renderer.invalidate()
                box = self.draw_picture()
            self.overlay_box = box
        self.surface.flush()

    def draw_picture(self):
        """The C64 screen, the status line and an open menu or help panel over them;
        returns where the panel's box went (None without one)."""
        renderer = self.renderer
        renderer.draw(snapshot(self.machine))
        left, right, style = status_parts(self.status_info(), renderer.status_room())
        renderer.draw_status(left, right, style)
        if self.overlay is not None and not getattr(self.overlay, "showing_screen", False):
            return self.overlay.draw(self.surface)
        return None

    # -- keys --------------------------------------------------------------------------
    def read_key(self, timeout):
        """A key from get_wch(), or None after `timeout` seconds.

        A curses without get_wch() (built without wide-character support) is read
        with getch(): ASCII keys as str, the KEY_* codes as int, -1 for none.
        """
        self.window.timeout(max(0, int(timeout * 1000 + 0.999)))
        get_wch = getattr(self.window, "get_wch", None)
        try:
            if get_wch is not None:
                return get_wch()
            key = self.window.getch()
        except self.key_error:
            return None
        if key < 0:
            return None
        return chr(key) if key < 0x80 else key

    def wait_for_keys(self, timeout):
        """Block until a key or the timeout, then take whatever else is already typed."""
        key = self.read_key(timeout)
        count = 0
        while key is not None and self.quit_code is None:
            following = None
            if key == "\x1b":
                # Alt+letter arrives as Esc and the letter at once (a lone Esc, RUN/STOP,
                # comes alone after curses' escape delay): SHIFT+letter, a graphic.
                following = self.read_key(0)
                if self.typing_to_the_program() and isinstance(following, str) \
                        and following.isascii() and following.isalpha():
                    self.queue_key(0xC1 + ord(following.upper()) - 0x41)
                    key, following = following, None
                else:
                    self.handle_key(key)
            else:
                self.handle_key(key)
            count += 1
            if count >= MAX_KEYS_PER_PASS:
                if following is not None:
                    self.handle_key(following)
                break                  # the rest waits in the terminal for the next pass
            key = following if following is not None else self.read_key(0)

    def handle_key(self, key):
        decoded = self.decoder.decode(key)
        if decoded is Command.RESIZE:
            self.resized()
            return
        if decoded is Command.INTERRUPT:
            self.quit(130, "interrupted (Ctrl-C)")
            return
        if self.question is not None:
            if key in ("y", "Y"):
                self.question, action = None, self.if_yes
                action()
            elif key in ("n", "N", "\x1b") or decoded is Command.QUIT:
                self.question = None
            return
        if self.renderer.layout is None:
            if decoded is Command.QUIT:
                self.quit(0, None)
            elif decoded is not None and not isinstance(decoded, Command) and self.error is None:
                self.queue_key(decoded)          # typed while too small: kept for the program
            return
        if decoded is Command.QUIT:
            if self.overlay is not None:
                self.close_overlay()
            self.ask("Quit RYG64? (y/n)", lambda: self.quit(0, None))
            return
        if isinstance(self.overlay, monitor_panel.MonitorPanel):
            self.monitor_key(key, decoded)
            return
        if self.overlay is not None:
            answer = self.overlay.handle(key)
            if answer is CLOSE or (decoded is Command.HELP and isinstance(self.overlay, HelpPanel)):
                self.close_overlay()
            elif isinstance(answer, MenuEntry):
                self.close_overlay()
                self.choose(answer)
            return
        if isinstance(decoded, Command):
            self.command(decoded)
        elif decoded == RESTORE and self.stopped:
            self.warm_start()
        elif decoded is not None and self.error is None:
            self.queue_key(self.as_shown(key, decoded))

    @property
    def stopped(self):
        """The error on show is the 6502 program's stop (a BRK, a JAM): RESTORE can warm start."""
        return self.error is not None and getattr(self.machine, "error", None) is not None

    def warm_start(self):
        """RUN/STOP+RESTORE after the program stopped (a BRK, a JAM): the KERNAL's warm start,
        BASIC's READY. with memory kept -- a BASIC program typed in is still there to LIST."""
        log.info("warm start after: %s", self.error)
        machine = self.machine
        machine.error = None
        machine.warm_start()
        self.error = None
        self.typeahead.clear()
        self.note = "WARM START: MEMORY KEPT"
        self.note_time = self.clock()
        self.renderer.invalidate()

    def typing_to_the_program(self):
        """True when a typed key would go to the C64 (no panel, question or error in the way)."""
        return (self.question is None and self.overlay is None and self.error is None
                and self.renderer.layout is not None)

    def as_shown(self, key, code):
        """What you type is what you see: with the upper-case/graphics set on screen an
        upper-case host letter (caps lock, a pasted listing) types the letter, not SHIFT+letter's
        graphic; with the lower/upper-case set it stays SHIFT+letter, which shows upper case."""
        if isinstance(key, str) and 0xC1 <= code <= 0xDA and key.isupper() \
                and self.machine is not None and not self.machine.vic.lower_case():
            return code - 0x80
        return code

    def queue_key(self, key):
        """A C64 key for the program, or counted as dropped when the typeahead is full: TYPEAHEAD_LIMIT
        keys, LISTING_LIMIT while BASIC's READY. loop reads lines (the status line's note says
        how many were dropped, for NOTE_SECONDS)."""
        limit = TYPEAHEAD_LIMIT
        if self.machine is not None and self.machine.basic.reading_lines():
            limit = LISTING_LIMIT
        if len(self.typeahead) < limit:
            self.typeahead.append(key)
            self.typed += 1
            return
        now = self.clock()
        if self.dropped_at is None or now - self.dropped_at >= NOTE_SECONDS:
            self.dropped_keys = 0
        self.dropped_keys += 1
        self.dropped_at = now
        self.note = "%d KEY%s DROPPED" % (self.dropped_keys, "" if self.dropped_keys == 1 else "S")
        self.note_time = now

    def command(self, command):
        if command is Command.WARP:
            self.warp = not self.warp
            self.speed.reset()
            self.shown_speed = None
        elif command is Command.MENU:
            data_files = []
            entries = menu_entries(self.versions(), self.folder, data_files)
            self.overlay = VersionMenu(entries, self.curses, current=program_label(self.program),
                                       data_files=data_files, at_stake=self.at_stake())
        elif command is Command.HELP:
            paths = next_screenshot_paths(self.screenshot_base)
            self.overlay = HelpPanel(self.help_notes + ["next screenshot (Ctrl-P): %s" % " and ".join(
                [os.path.abspath(paths[0])] + [os.path.splitext(path)[1] for path in paths[1:]])])
        elif command is Command.SCREENSHOT:
            self.take_screenshot()
        elif command is Command.RESET:
            stake = self.at_stake() if self.error is None else None     # (after a stop nothing runs)
            if stake is None:
                self.start_program(self.program)
            else:               # as the version menu asks; short enough for a 40-column status line
                self.ask(RESET_QUESTIONS.get(stake, RESET_QUESTIONS[None]), lambda: self.start_program(self.program))
        elif command is Command.MONITOR:
            self.open_monitor()

    # -- the monitor ---------------------------------------------------------------------
    def open_monitor(self, text=None):
        """Stop the machine and show the monitor panel (with `text`: why it stopped)."""
        if self.monitor is None:
            from c64.monitor import Monitor
            self.monitor = Monitor(self.machine)
        if self.panel is None:
            self.panel = monitor_panel.MonitorPanel(self.curses)
        panel = self.overlay = self.panel
        panel.address = self.machine.cpu.pc
        panel.add(text if text is not None else self.monitor.status_line())
        log.info("monitor opened at $%04X", self.machine.cpu.pc)

    def monitor_key(self, key, decoded):
        panel = self.overlay
        if panel.showing_screen:
            panel.handle(key)
            self.renderer.invalidate()
            return
        answer = panel.handle(key)
        if answer is monitor_panel.EXECUTE:
            self.monitor.width = self.surface.size()[1]          # the help is laid out to fit
            output = self.monitor.execute(panel.pending)
            panel.add(output)
            panel.address = self.machine.cpu.pc
            panel.assembling = self.monitor.assembling
            if self.monitor.resume:
                self.close_overlay()
        elif answer is monitor_panel.CLOSE:
            self.monitor.execute("x")
            self.close_overlay()
        elif answer is monitor_panel.SCREEN:
            self.renderer.invalidate()
            self.surface.clear()

    def take_screenshot(self):
        """Write the C64 screen to the next free numbered file(s); say so on the status line."""
        from c64.host.files import write_new_files
        from c64.host.screenshot import picture, screen_state
        state, title, number = screen_state(self.machine), program_label(self.program), 1
        try:
            while True:
                number = free_number(self.screenshot_base, number)
                paths = numbered_paths(self.screenshot_base, number)
                try:           # new files only (O_EXCL | O_NOFOLLOW), never over or through one made meanwhile
                    write_new_files([(path, picture(state, path, self.palette, title=title)) for path in paths])
                    break
                except FileExistsError:             # taken since it was looked at: the next number
                    if number >= MAX_SCREENSHOTS:
                        raise
                    number += 1
        except OSError as error:
            log.error("screenshot %s failed: %s", ", ".join(paths), error)
            self.note = "screenshot failed: %s" % (error.strerror or error)
        else:
            written = [os.path.basename(path) for path in paths]
            log.info("screenshot %s", ", ".join(written))
            self.note = "saved %s" % " and ".join(written)
        self.note_time = self.clock()

    def close_overlay(self):
        self.overlay = self.overlay_box = None
        self.renderer.invalidate()
        self.surface.clear()

    def choose(self, entry):
        """Start a program picked in the version menu."""
        try:
            program = basic_program() if entry.path is None else listing.read_program(entry.path)
        except PrgError as error:
            self.error = str(error)
            return
        self.start_program(program)

    def resized(self):
        update = getattr(self.curses, "update_lines_cols", None)
        if sys.platform == "win32" and hasattr(self.curses, "resize_term"):
            self.curses.resize_term(0, 0)        # PDCurses learns the new size only when told
        elif update is not None:
            update()
        if hasattr(self.surface, "resized"):
            self.surface.resized()
        self.renderer.invalidate()
        self.renderer.update_layout()

    def ask(self, question, if_yes):
        """A y/n question on the status line (the C64 paused); y runs `if_yes`."""
        self.question, self.if_yes = question, if_yes

    def quit(self, code, message):
        self.quit_code = code
        self.quit_message = message


def numbered_paths(base, number):
    """The files of screenshot `number`: shot.svg, 3 -> [shot-003.svg]; a name without a
    kind (the default ryg64) -> [ryg64-003.png, ryg64-003.svg], a picture to paste anywhere
    and one that scales."""
    from c64.host.screenshot import KINDS
    stem, extension = os.path.splitext(base)
    return ["%s-%03d%s" % (stem, number, kind) for kind in ([extension] if extension else KINDS)]


def free_number(base, number=1):
    """The first n >= number none of whose numbered_paths(base, n) is taken by a file, a
    folder or a link, dangling or not (Ctrl-P never writes through one); at most MAX_SCREENSHOTS."""
    while any(os.path.lexists(path) for path in numbered_paths(base, number)) and number < MAX_SCREENSHOTS:
        number += 1
    return number


def next_screenshot_paths(base):
    """The files the next Ctrl-P writes."""
    return numbered_paths(base, free_number(base))


def log_path():
    """Where the details of an error are, for messages (c64.host.logfile)."""
    from c64.host import logfile
    return logfile.describe()
