"""The front end's log file: details of errors and crashes, where only this user writes.

By default the log is `ryg64.log` in the platform's per-user state folder
(platformdirs.user_state_dir: `$XDG_STATE_HOME/ryg64` or `~/.local/state/ryg64`
on Linux, `~/Library/Application Support/ryg64` on macOS, `%LOCALAPPDATA%\\ryg64`
on Windows), never a shared folder such as /tmp where another user could
plant a file or a link under a name known in advance.  `--log FILE` names
another file.

The file is opened without following a symbolic link (O_NOFOLLOW where the
platform has it; a link is refused on the others too) and only if it is a
regular file; it is created with mode 0600 and the state folder with 0700.
A default log grown past MAX_BYTES is moved to `ryg64.log.1` (one old
generation kept), so it cannot grow without bound.  A log that cannot be
opened is not an error: the session runs without one and says so when it
would have pointed to it.

The session's logger does not propagate, and other code (a test runner's log
capture, for one) may attach handlers of its own to it: the session replaces and
closes only the handlers this module made (is_log_handler).
"""

import logging
import os
import stat

LOG_NAME = "ryg64.log"
MAX_BYTES = 1024 * 1024
_current = {"path": None}


class LogFileHandler(logging.StreamHandler):
    """The handler writing the log file (open_log)."""


class NoLogHandler(logging.NullHandler):
    """The handler standing in when no log file could be opened."""


def is_log_handler(handler):
    """True for the handlers open_log makes: the ones the session may replace and close."""
    return isinstance(handler, (LogFileHandler, NoLogHandler))


def default_log_path():
    """ryg64.log in the per-user state folder (see the module docstring)."""
    from platformdirs import user_state_dir
    return os.path.join(user_state_dir("ryg64", appauthor=False), LOG_NAME)


def current_path():
    """The log file this session writes, or None."""
    return _current["path"]


def describe():
    """Where the details are, for messages: the path, or that there is no log."""
    return _current["path"] or "no log file"


def _open_no_follow(path):
    """A text stream appending to path; OSError if it is a link, not a regular file, or unwritable."""
    # O_NONBLOCK: a FIFO nobody reads is refused (ENXIO) instead of holding the open forever.
    flags = (os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
             | getattr(os, "O_NONBLOCK", 0))
    if not getattr(os, "O_NOFOLLOW", 0) and os.path.islink(path):
        raise OSError("%s is a symbolic link" % path)
    fd = os.open(path, flags, 0o600)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError("%s is not a regular file" % path)
        if getattr(os, "O_NONBLOCK", 0):
            os.set_blocking(fd, True)           # writes to the regular file wait as usual
        return os.fdopen(fd, "a", encoding="utf-8")
    except BaseException:
        os.close(fd)
        raise


def open_log(path=None):
    """A logging handler writing to `path` (None: the default log); sets current_path().

    Returns (handler, problem): a NullHandler and the reason in words when no log
    could be opened."""
    default = path is None
    _current["path"] = None
    try:
        if default:
            path = default_log_path()
            os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
            try:
                info = os.lstat(path)
            except FileNotFoundError:
                info = None
            if info is not None and stat.S_ISREG(info.st_mode) and info.st_size > MAX_BYTES:
                os.replace(path, path + ".1")
        stream = _open_no_follow(path)
    except (OSError, ImportError) as error:
        return NoLogHandler(), "cannot open the log %s: %s" % (path, getattr(error, "strerror", None)
                                                                       or error)
    handler = LogFileHandler(stream)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    _current["path"] = os.path.abspath(path)
    return handler, None


def close_log(handler):
    """Flush and close a handler from open_log."""
    try:
        handler.flush()
        stream = getattr(handler, "stream", None)
        if stream is not None:
            stream.close()
    except OSError:
        pass
    handler.close()
