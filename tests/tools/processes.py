"""Starting the program for tests that send it signals.

A test run in the background (`cmd &` in a script, nohup) has SIGINT and SIGQUIT, or
SIGHUP, ignored, and a child inherits that; the program rightly keeps a signal ignored
that it was started with (c64/host/signals.py: as nohup expects), so such a run could not
test what the program does with the signal.  The child is started with the default
dispositions instead, as a shell starts a program in the foreground.
"""

import os
import signal

DEFAULTED = ("SIGINT", "SIGQUIT", "SIGHUP", "SIGTERM", "SIGUSR1", "SIGALRM")


def _default_signals():
    for name in DEFAULTED:
        number = getattr(signal, name, None)
        if number is not None:
            signal.signal(number, signal.SIG_DFL)


def signals_as_from_a_shell():
    """Keyword arguments for subprocess.Popen: the child's signals at their defaults."""
    return {"preexec_fn": _default_signals} if os.name == "posix" else {}
