"""Drive 8 on a disk image (`--disk image.d64`, .d71, .d81): the drive as HostDisk has it,
its files read from and written to the image.

Everything a program does through the drive works as on a host folder (LOAD, SAVE,
LOAD"$", OPEN/CHRIN/CHROUT/CLOSE, the command channel's scratch, rename and copy,
wildcards, LOAD"*"), the N command formats the image (N0:NAME,ID; without the id a
quick format that keeps it) and V validates it (the BAM made anew from the files), on
the image's directory: its disk name and id head the listing, the BAM's free count ends
it, unclosed files are listed as *PRG, locked ones as PRG< and closed DEL entries as DEL
(LOAD and OPEN pass over those, which hold no file), as many as the drive's
directory holds (144 on a 1541 or 1571, 296 on a 1581).  A change is made on the image
in memory as the drive's DOS would make it (kernal/disk_writing.py) and the whole image
is then written back to its file atomically (a temporary file renamed over it: a failed
write leaves the file as it was, and the image in memory goes back to it too).  A file
that does not fit gets 72,DISK FULL and changes nothing.

An image file the user may not write (its permissions, a read-only file system) is a
disk with its write-protect notch covered: SAVE, a write channel, scratch and rename get
26,WRITE PROTECT ON on the error channel, as a 1541 gives; BASIC's SAVE says READY. as
on a C64 (the drive's light blinks: the terminal's status line shows the error).  A
damaged image (a link off the disk, a chain that loops) gives 66,ILLEGAL TRACK OR SECTOR
with the track and sector met and a message naming the damage; a sector the image's
error bytes mark bad reads as the error its byte names (20-29), and so does the directory
when one of its sectors (or the BAM's) is: LOAD"$", a name looked for past that sector
and any write get that sector's error, as a 1541's DOS meets it; nothing is written to a
damaged file's chain.  The temporary file of a write killed before its rename is removed
when the image is next attached, as a folder drive removes its own.  Another program
may write the image file meanwhile: the drive reads it again before its next LOAD, OPEN,
SAVE or command (a disk swapped), never writes the image it held over it, and is not
ready (74,DRIVE NOT READY) while the file is gone or no image.
"""

import errno
import os
import stat

from kernal.disk import (BadName, DOS_NAME_ERROR, DOS_NOT_FOUND, DOS_OK, DOS_SCRATCHED, Entry, HostDisk, MESSAGES,
                         check_new_name, matches, petscii_to_text, remove_stale_temporaries, replace_file,
                         text_to_petscii)
from kernal.disk_formats import ImageError, read_image
from kernal.disk_writing import DiskFull, ImageEditor

ILLEGAL_TRACK_OR_SECTOR = 66
DRIVE_NOT_READY = 74                   # the image file is gone or no image now: no disk in the drive
MESSAGES.setdefault(ILLEGAL_TRACK_OR_SECTOR, "ILLEGAL TRACK OR SECTOR")
# the errors a sector marked bad reads as (the 1541's codes 20-29; 25 and 26 are there already)
for _code, _text in ((20, "READ ERROR"), (21, "READ ERROR"), (22, "READ ERROR"), (23, "READ ERROR"),
                     (24, "READ ERROR"), (27, "READ ERROR"), (28, "WRITE ERROR"), (29, "DISK ID MISMATCH")):
    MESSAGES.setdefault(_code, _text)
NEW_FILE = "new:"                      # host_name prefix of a file a write creates


class ImageEntry(Entry):
    """A file of the image: the block count is the directory's."""

    def __init__(self, image_entry):
        name = _name_text(image_entry.name)
        # (host_name: the key LOAD"*" and the drive's look-ups use: its first sector, unique)
        super().__init__("%d/%d:%s" % (image_entry.track, image_entry.sector, name), name,
                         image_entry.type, 0, shown=bytes(image_entry.name))
        self.image_entry = image_entry
        self.closed, self.locked = image_entry.closed, image_entry.locked

    @property
    def blocks(self):
        return self.image_entry.blocks


def _name_text(name):
    """A PETSCII name as the drive's pattern matching sees it (graphics characters, which
    no pattern but ? and * can match, as private-use characters)."""
    try:
        return petscii_to_text(name)
    except BadName:
        return "".join(petscii_to_text(bytes([b])) if _plain(b) else chr(0xE000 + b) for b in name)


def _plain(byte):
    try:
        petscii_to_text(bytes([byte]))
    except BadName:
        return False
    return True


class DiskDamage(OSError):
    """Reading a file of the image ran into damage (errno EIO; the message says where): the
    drive's error code and the track and sector it met, from the ImageError."""

    def __init__(self, error):
        super().__init__(errno.EIO, str(error))
        self.code, self.track, self.sector = error.code, error.track, error.sector


class ImageDisk(HostDisk):
    """Drive 8 on the disk image at `path` (ImageError at once if it is not a readable one)."""

    def __init__(self, path):
        self.path = path
        # (a link the user named is followed: the image it points to is the one changed)
        self.file = os.path.realpath(path)
        self._seen = self._file_state()
        self._take(read_image(path))
        super().__init__(".")
        self.folder = path                         # (what the drive's messages name)
        self._refresh()

    # -- the image file, which other programs may change meanwhile ------------------------------
    def _file_state(self):
        """What tells the image file changed on the host: (inode, size, time written), or
        None while there is no file to read."""
        try:
            state = os.stat(self.file)
        except OSError:
            return None
        return state.st_ino, state.st_size, state.st_mtime_ns

    def _follow_file(self):
        """Read the image again if its file changed on the host since the drive last read or
        wrote it (another program wrote it: a disk swapped in the drive); ImageError (code
        74) while it is no disk image at all (removed, cut short, a folder)."""
        state = self._file_state()
        if state == self._seen and state is not None:
            return
        try:
            image = read_image(self.file)
        except ImageError as error:
            raise ImageError("%s changed on the host and is no disk image now: %s"
                             % (self.path, error), code=DRIVE_NOT_READY) from None
        self._take(image)
        self._seen = state
        self.last_loaded = None
        self._refresh()

    def _take(self, image):
        """The disk in the drive is `image` (its format sets the bounds)."""
        self.image = image
        self.max_file = image.format.sectors * 254
        self.directory_entries = image.format.directory_entries

    def _ready(self):
        try:
            self._follow_file()
        except ImageError as error:
            self._set_error(error.code, message=str(error))
            return False
        return True

    def _refresh(self):
        self._listed = [ImageEntry(entry) for entry in self.image.listed]
        self._entries = [entry for entry in self._listed if entry.type != "del"]

    def listed_entries(self):
        return list(self._listed)

    def _remove_stale_temporaries(self):
        # (a write killed before its rename leaves one beside the image file)
        remove_stale_temporaries(os.path.dirname(self.file))

    def entries(self):
        return list(self._entries)

    def _read(self, entry, limit):
        try:
            return self.image.read_file(entry.image_entry, limit)
        except ImageError as error:
            raise DiskDamage(error) from None

    def _host_failure(self, error, action):
        if isinstance(error, DiskDamage):
            self._set_error(error.code, error.track, error.sector, message=error.strerror)
            return error.code
        return super()._host_failure(error, action)

    # -- writing -----------------------------------------------------------------------------
    def _writable(self):
        # (the owner's write bit too: os.access says yes to root for any file)
        if not os.access(self.file, os.W_OK) or not os.stat(self.file).st_mode & stat.S_IWUSR:
            raise OSError(errno.EROFS, "the image file is read-only (a write-protected disk)")

    def _change(self, edit, formats=False):
        """Make `edit(ImageEditor)` on the image and write the image back to its file; on any
        failure the image (in memory and on the host) stays as it was.  A disk whose
        directory reads as an error takes no change but a format (`formats`): the DOS
        would meet the error looking for the file or a free entry."""
        if self._file_state() != self._seen:
            # (a write channel open while another program wrote the image: what it holds
            # was made for the disk as it was; the drive reads the new one for the next try)
            try:
                self._follow_file()
            except ImageError:
                pass
            raise DiskDamage(ImageError("%s changed on the host while the file was open: nothing "
                                        "written" % self.path, code=DRIVE_NOT_READY))
        self._writable()
        if self.image.directory_error is not None and not formats:
            raise DiskDamage(self.image.directory_error)
        before = bytes(self.image.data)
        try:
            edit(ImageEditor(self.image))
            try:
                self.image.reread()                # (a change that broke the image is not saved)
            except ImageError as error:
                raise DiskDamage(error) from None
            replace_file(self.file, bytes(self.image.data))
            self._seen = self._file_state()
        except BaseException:
            self.image.data = before
            self.image.reread()
            raise
        finally:
            self._refresh()

    def _new_host_name(self, text, file_type):
        check_new_name(text)
        return "%s%s:%s" % (NEW_FILE, file_type, text)

    def _open_channel(self, secondary, name):
        channel = super()._open_channel(secondary, name)
        if channel.mode == "W" and not channel.dead:
            try:
                self._writable()
            except OSError as error:
                self._host_failure(error, "write %s" % channel.target)
                channel.dead = True
        return channel

    def _write(self, host_name, data):
        if host_name.startswith(NEW_FILE):
            file_type, _, text = host_name[len(NEW_FILE):].partition(":")
            name, replacing = text_to_petscii(text), None
        else:
            entry = next((e for e in self._entries if e.host_name == host_name), None)
            if entry is None:
                raise OSError(errno.ENOENT, "the file is no longer on the disk")
            name, file_type, replacing = entry.image_entry.name, entry.type, entry.image_entry
            try:
                self.image.read_file(replacing)    # a damaged file's chain is not freed
            except ImageError as error:
                raise DiskDamage(error) from None

        def edit(editor):
            try:
                editor.write_file(name, file_type, data, replacing)
            except DiskFull as error:
                raise OSError(errno.ENOSPC, "disk full: %s" % error) from None
        self._change(edit)

    def _scratch(self, argument):
        doomed = []
        for pattern in argument.split(","):
            pattern = pattern.partition(":")[2] if ":" in pattern else pattern
            doomed += [entry for entry in self._entries
                       if entry not in doomed and (matches(pattern, entry.name))]
        try:
            for entry in doomed:
                self.image.read_file(entry.image_entry)
            if doomed:
                self._change(lambda editor: [editor.scratch(e.image_entry) for e in doomed])
        except ImageError as error:
            self._host_failure(DiskDamage(error), "scratch")
            return
        except OSError as error:
            self._host_failure(error, "scratch")
            return
        self._set_error(DOS_SCRATCHED, min(len(doomed), 99))

    def _rename_entry(self, entry, new):
        check_new_name(new)
        name = text_to_petscii(new)
        self._change(lambda editor: editor.rename(entry.image_entry, name))

    def _command(self, text):
        if text[:1].upper() == "N":
            self._format(text.partition(":")[2])
        elif text[:1].upper() == "V":
            try:
                self._change(lambda editor: editor.validate())
            except OSError as error:
                self._host_failure(error, "validate")
                return
            self.last_loaded = None
            self._set_error(DOS_OK)
        else:
            super()._command(text)

    def _format(self, argument):
        """N0:NAME,ID formats the disk (every sector cleared), N0:NAME only makes the
        directory and BAM new (the id kept), as the DOS does."""
        name, comma, disk_id = argument.partition(",")
        if not name or len(name) > 16 or (comma and len(disk_id) != 2):
            self._set_error(DOS_NAME_ERROR if name else 34,
                            message="format needs N0:NAME,ID (a name of 1-16 characters, an id of 2)")
            return
        try:
            new_id = text_to_petscii(disk_id) if comma else None
            self._change(lambda editor: editor.format_disk(text_to_petscii(name), new_id), formats=True)
        except OSError as error:
            self._host_failure(error, "format")
            return
        self.last_loaded = None
        self._set_error(DOS_OK)

    # -- the directory ---------------------------------------------------------------------
    def directory(self, pattern=""):
        if self.image.directory_error is not None:
            raise DiskDamage(self.image.directory_error)
        return super().directory(pattern)

    def _set_error(self, code, track=0, sector=0, message=""):
        damage = self.image.directory_error
        if code == DOS_NOT_FOUND and damage is not None:
            # (a name not among the entries read: the DOS's search went on into the bad sector)
            code, track, sector, message = damage.code, damage.track, damage.sector, str(damage)
        super()._set_error(code, track, sector, message)

    def disk_header(self):
        return bytes(self.image.name[:16]), bytes(self.image.id) + b" " + bytes(self.image.dos_type)

    def blocks_free_after(self, used):
        return self.image.free_blocks

    def first_program(self):
        """The first PRG file's bytes (as VICE's autostart loads it), or None."""
        for entry in self._entries:
            if entry.type == "prg":
                return entry, self._read(entry, 0x10000 + 2)
        if self.image.directory_error is not None:
            raise DiskDamage(self.image.directory_error)
        return None
