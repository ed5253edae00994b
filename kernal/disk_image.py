"""Drive 8 on a disk image (`--disk image.d64`, .d71, .d81): the 1541 as HostDisk has it, its
files read from the image, mounted read-only.

Everything a program does through the drive works as on a host folder (LOAD, LOAD"$",
OPEN/CHRIN/CLOSE, the command channel, wildcards, LOAD"*"), on the image's directory:
its disk name and id head the listing, the BAM's free count ends it, unclosed files
are listed as *PRG.  Nothing is ever written to the image: SAVE, a write channel,
scratch and rename get 26,WRITE PROTECT ON on the error channel, as a 1541 gives for a
disk with its write-protect notch covered: BASIC's SAVE says READY. as on a C64 (the
drive's light blinks: the terminal's status line shows the error).  A damaged image (a link off the disk, a chain
that loops) gives 66,ILLEGAL TRACK OR SECTOR and a message naming the damage.
"""

import errno

from kernal.disk_formats import ImageError, read_image
from kernal.disk import BadName, Entry, HostDisk, MESSAGES, petscii_to_text

ILLEGAL_TRACK_OR_SECTOR = 66
MESSAGES.setdefault(ILLEGAL_TRACK_OR_SECTOR, "ILLEGAL TRACK OR SECTOR")


class ImageEntry(Entry):
    """A file of the image: the block count is the directory's."""

    def __init__(self, image_entry, index):
        name = _name_text(image_entry.name)
        # (host_name: the key LOAD"*" and the drive's look-ups use; unique on the image)
        super().__init__("%d:%s" % (index, name), name, image_entry.type, 0,
                         shown=bytes(image_entry.name))
        self.image_entry = image_entry
        self.closed = image_entry.closed

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
    """Reading a file of the image ran into damage (errno EIO; the message says where)."""


class ImageDisk(HostDisk):
    """Drive 8 on the disk image at `path` (ImageError at once if it is not a readable one)."""

    def __init__(self, path):
        self.image = read_image(path)
        self.path = path
        super().__init__(".")
        self.folder = path                         # (what the drive's messages name)
        self._entries = [ImageEntry(entry, index) for index, entry in enumerate(self.image.entries)]

    def _remove_stale_temporaries(self):
        pass                                       # no temporary files: nothing is written

    def entries(self):
        return list(self._entries)

    def _read(self, entry, limit):
        try:
            return self.image.read_file(entry.image_entry, limit)
        except ImageError as error:
            raise DiskDamage(errno.EIO, str(error)) from None

    def _host_failure(self, error, action):
        if isinstance(error, DiskDamage):
            self._set_error(ILLEGAL_TRACK_OR_SECTOR, message=error.strerror)
            return ILLEGAL_TRACK_OR_SECTOR
        return super()._host_failure(error, action)

    def _write_protected(self, what):
        self._set_error(26, message="%s is mounted read-only: %s not written" % (self.path, what))

    def write_file(self, text, replace, file_type, data):
        self._write_protected("%s" % text)
        return False

    def _open_channel(self, secondary, name):
        channel = super()._open_channel(secondary, name)
        if channel.mode == "W" and not channel.dead:
            self._write_protected("the file opened for writing is")
            channel.dead = True
        return channel

    def _write(self, host_name, data):
        raise OSError(errno.EROFS, "the disk image is mounted read-only")

    def _scratch(self, argument):
        self._write_protected("scratch: nothing")

    def _rename(self, new, old):
        self._write_protected("rename: nothing")

    def disk_header(self):
        return bytes(self.image.name[:16]), bytes(self.image.id) + b" " + bytes(self.image.dos_type)

    def blocks_free_after(self, used):
        return self.image.free_blocks

    def first_program(self):
        """The first PRG file's bytes (as VICE's autostart loads it), or None."""
        for entry in self._entries:
            if entry.type == "prg":
                return entry, self._read(entry, 0x10000 + 2)
        return None
