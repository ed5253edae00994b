"""The curses front end: the C64 screen in a terminal, with warp, a version menu and help.

Modules, one job each:
  session    the curses session: terminal set up and restored, log file (run_terminal)
  app        the frame loop and the emulator keys
  render     screen/colour RAM -> terminal cells, border, status line, too-small message
  surface    where cells are drawn: a curses window, or raw SGR for truecolor
  colours    colour depth detection (--colors) and C64 colour -> terminal colour
  glyphmode  Unicode / legacy / ASCII glyphs for this locale and C library
  keys       host keys -> emulator commands or C64 keys (via charset.keys)
  pacing     real-time frame schedule and the speed meter
  status     the status line's text
  menu       the version menu and the help panel

The machine (c64.machine) never imports this package or curses.
"""


def run_terminal(program, args, cpu_class):
    """Run `program` (a c64.loader.Program) interactively; returns the exit status.

    args: the ryg.py namespace (.warp .ntsc .colors .ascii .disk .seed).
    """
    from c64.terminal.session import run_terminal as run
    return run(program, args, cpu_class)


def terminal_refusal():
    """Why the front end cannot start here, in words for the user; None when it can."""
    from c64.terminal.session import terminal_refusal as refusal
    return refusal()
