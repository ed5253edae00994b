"""Host signals that would end the program at once, turned into an exception so cleanup runs.

SIGHUP (the terminal went away), SIGQUIT (Ctrl-\\), SIGTERM (kill) and the
other signals whose default action ends a process would stop RYG64 without
running a single `finally`: the terminal stays in curses' raw mode (no echo,
no line editing), a transcript loses its last lines.  Inside
`ended_by_signals()` each of them raises `Ended` in the main thread instead,
so curses.wrapper restores the terminal and files are closed; the caller
exits with 128 + the signal's number, as a shell reports a death by signal.
SIGINT stays Python's KeyboardInterrupt (the front ends say `interrupted`).

Names a platform lacks are skipped (Windows has SIGTERM and SIGBREAK only),
a signal the parent set to be ignored (`nohup`) stays ignored.  SIGKILL and
SIGSTOP cannot be caught: after `kill -9` the shell's `reset` (or `stty
sane`) gives the terminal back.
"""

import contextlib
import signal

FATAL = ("SIGHUP", "SIGQUIT", "SIGTERM", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGVTALRM", "SIGPROF",
         "SIGXCPU", "SIGXFSZ", "SIGBREAK")


class Ended(BaseException):
    """A fatal signal arrived.  A BaseException, as KeyboardInterrupt is, so that the
    `except Exception` of error handlers lets it through to the top."""

    def __init__(self, number):
        super().__init__(number)
        self.number = number

    @property
    def name(self):
        try:
            return signal.Signals(self.number).name
        except ValueError:
            return "signal %d" % self.number

    @property
    def status(self):
        return 128 + self.number


def ended_in(error):
    """The Ended behind `error` (itself, or what it interrupted), or None: a cleanup that
    fails because the terminal is gone (SIGHUP) must still report the signal."""
    seen = 0
    while error is not None and seen < 10:
        if isinstance(error, Ended):
            return error
        error = error.__context__
        seen += 1
    return None


@contextlib.contextmanager
def ended_by_signals():
    """Within the block, the FATAL signals raise Ended (once: a second one while the first
    is being cleaned up is ignored, so the cleanup finishes)."""
    previous = {}
    raised = []

    def handler(number, frame):
        if not raised:
            raised.append(number)
            raise Ended(number)

    for name in FATAL:
        number = getattr(signal, name, None)
        if number is None:
            continue
        try:
            if signal.getsignal(number) == signal.SIG_IGN:
                continue
            previous[number] = signal.signal(number, handler)
        except (OSError, ValueError, RuntimeError):    # not the main thread, or not on this platform
            continue
    try:
        yield
    finally:
        for number, old in previous.items():
            try:
                signal.signal(number, old)
            except (OSError, ValueError, RuntimeError):
                pass
