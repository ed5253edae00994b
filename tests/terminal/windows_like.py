"""A pytest plugin that makes this host look like Windows to the front end, for tests/terminal/test_windows_paths.py.

    python -m pytest -p tests.terminal.windows_like tests/terminal/test_terminal_app.py ...

Before the tests are collected it sets sys.platform to "win32", makes the
POSIX-only modules unimportable (termios, tty, pty, fcntl, resource, grp:
sys.modules[name] = None, so `import termios` raises ImportError as on
Windows), removes the POSIX-only signals from the signal module (SIGWINCH,
SIGHUP, SIGQUIT, SIGUSR1 ... : Windows has SIGINT, SIGTERM, SIGABRT, SIGFPE,
SIGILL, SIGSEGV and SIGBREAK), and gives platformdirs' Windows code the
folders it reads from the environment (LOCALAPPDATA, APPDATA).  The code
paths the front end takes on Windows then run here, on the real curses
module (ncurses) or the tests' fakes: what PDCurses itself does differently
is in the fakes (tests/terminal/test_windows_paths.py).
"""

import os
import signal
import sys
import sysconfig
import tempfile

POSIX_ONLY_MODULES = ("termios", "tty", "pty", "fcntl", "resource", "grp")
WINDOWS_SIGNALS = {"SIGINT", "SIGTERM", "SIGABRT", "SIGFPE", "SIGILL", "SIGSEGV", "SIGBREAK"}
REMOVED_SIGNALS = []


def pytest_configure(config):
    # What reads sys.platform once, on first use, reads it now, as the host it runs on.
    sysconfig.get_config_vars()
    try:
        import hypothesis  # noqa: F401  (the test run's own machinery, not the code under test)
    except ImportError:
        pass
    for name in POSIX_ONLY_MODULES:
        sys.modules[name] = None
    for name in dir(signal):
        if name.startswith("SIG") and not name.startswith("SIG_") and name not in WINDOWS_SIGNALS:
            REMOVED_SIGNALS.append(name)
            delattr(signal, name)
    if not hasattr(signal, "SIGBREAK"):
        signal.SIGBREAK = 21
    folder = tempfile.mkdtemp(prefix="windows-like-")
    os.environ.setdefault("LOCALAPPDATA", os.path.join(folder, "Local"))
    os.environ.setdefault("APPDATA", os.path.join(folder, "Roaming"))
    sys.platform = "win32"


def pytest_terminal_summary(terminalreporter):
    terminalreporter.write_line(
        "windows-like: sys.platform=%s; unimportable: %s; signals removed: %d (SIGWINCH %s)"
        % (sys.platform, ", ".join(POSIX_ONLY_MODULES), len(REMOVED_SIGNALS),
           "gone" if not hasattr(signal, "SIGWINCH") else "still there"))
