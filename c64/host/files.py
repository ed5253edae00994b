"""Host files named by a person (an option, a monitor command, the settings file): read
with a bound, written without following a link.

Reading (read_bytes, open_regular): only a regular file is read -- a link to one is
fine, it is what the person named, but a folder, a FIFO, a device (/dev/zero) or a
socket is refused with one short reason.  The file is opened non-blocking, so a FIFO
with no writer is refused at once instead of waiting forever, and at most `limit`
bytes are read: a larger file is refused, never read whole.

Writing never follows a symbolic link at the path and never writes into a special
file: write_new creates a file that must not exist yet (O_CREAT | O_EXCL, with
O_NOFOLLOW where the platform has it: a dangling link is an existing name, as it
should be); replace writes the bytes to a new temporary file in the same folder (made
the same way) and renames it over the path, which must be absent or a regular file.
A replaced file keeps its mode; a failed write leaves the old file whole.  Every
refusal is an OSError whose strerror is the reason in words, so the callers' `except
OSError` messages say it.
"""

import errno
import os
import stat
import tempfile

NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)
NON_BLOCKING = getattr(os, "O_NONBLOCK", 0)
CLOSE_ON_EXEC = getattr(os, "O_CLOEXEC", 0)
BINARY = getattr(os, "O_BINARY", 0)               # Windows: no newline translation

KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a device"),
         (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISLNK, "a symbolic link"))


def kind(mode):
    """'a folder', 'a FIFO', ... for a st_mode that is not a regular file's."""
    for test, name in KINDS:
        if test(mode):
            return name
    return "not a regular file"


def not_regular(mode):
    """The refusal of a file that is not a regular one (IsADirectoryError for a folder)."""
    return OSError(errno.EISDIR if stat.S_ISDIR(mode) else errno.EINVAL, "%s, not a regular file" % kind(mode))


def too_large(limit):
    return OSError(errno.EFBIG, "larger than %s bytes" % format(limit, ","))


def open_regular(path):
    """A file descriptor for reading the regular file at path (see the module docstring)."""
    fd = os.open(path, os.O_RDONLY | NON_BLOCKING | CLOSE_ON_EXEC | BINARY)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise not_regular(mode)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_bytes(path, limit):
    """The bytes of the regular file at path, at most `limit` of them; OSError otherwise."""
    fd = open_regular(path)
    try:
        if os.fstat(fd).st_size > limit:
            raise too_large(limit)
        chunks, size = [], 0
        while size <= limit:                      # a file growing as it is read is cut at limit + 1
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > limit:
        raise too_large(limit)
    return b"".join(chunks)


def write_new(path, data, mode=0o666):
    """Create the file path (it must not exist, not even as a dangling link) holding data."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NO_FOLLOW | CLOSE_ON_EXEC | BINARY, mode)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
    except BaseException:
        try:
            os.unlink(path)
        except OSError:
            pass
        raise


def write_new_files(items):
    """write_new each (path, data) in turn: all or none -- if one fails, those already
    written are removed and the error raised."""
    done = []
    try:
        for path, data in items:
            write_new(path, data)
            done.append(path)
    except BaseException:
        for path in done:
            try:
                os.unlink(path)
            except OSError:
                pass
        raise


def check_replaceable(path):
    """OSError unless path is absent or a regular file (a link is refused, not followed)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(info.st_mode):
        raise not_regular(info.st_mode)
    return info


def replace(path, data):
    """Write data to path through a new temporary file renamed over it (module docstring)."""
    info = check_replaceable(path)
    if info is None:
        mask = os.umask(0o022)
        os.umask(mask)
        mode = 0o666 & ~mask
    else:
        mode = stat.S_IMODE(info.st_mode)
    folder = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".ryg64-", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def open_stream(path):
    """A text stream writing the file path from its start (a --transcript): created if
    absent, else emptied -- but only once it is known to be a regular file reached
    without a link (O_NOFOLLOW; non-blocking, so a FIFO cannot hold the open)."""
    if not NO_FOLLOW and os.path.islink(path):
        raise OSError(errno.ELOOP, "a symbolic link, not a regular file")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | NO_FOLLOW | NON_BLOCKING | CLOSE_ON_EXEC, 0o666)
    except OSError as error:
        if error.errno == errno.ELOOP and os.path.islink(path):
            raise OSError(errno.ELOOP, "a symbolic link, not a regular file") from None
        if error.errno == errno.ENXIO:                # a FIFO nobody reads
            raise OSError(errno.ENXIO, "a FIFO, not a regular file") from None
        raise
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise not_regular(mode)
        os.ftruncate(fd, 0)
        if NON_BLOCKING:
            os.set_blocking(fd, True)
        return os.fdopen(fd, "w", encoding="utf-8")
    except BaseException:
        os.close(fd)
        raise
