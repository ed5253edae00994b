"""KERNAL channel I/O: the logical-file table and the default input/output devices.

OPEN/CLOSE/CHKIN/CHKOUT/CLRCHN/CLALL keep the same zero-page and page-2
variables as the real KERNAL (LAT/FAT/SAT tables, count $98, DFLTN $99,
DFLTO $9A, ST $90) and route CHRIN/CHROUT to the keyboard (0), the screen
(3) or a device object registered in `devices` (8 = the host-folder disk).

Error results follow the KERNAL: C=1 and A = error number (1 too many
files, 2 file open, 3 file not open, 5 device not present, 6 not input
file, 7 not output file, 9 illegal device).

OPEN, CHKIN and CHKOUT clear ST first, as the ROM's file search ($F30F) does,
so each INPUT#, GET# or PRINT# statement starts with ST 0.

Serial devices (4-31) behave as the KERNAL's serial routines make them:
OPEN stores SA | $60 in the SAT table and clears ST when it sends a name;
CHRIN from one returns RETURN without asking it while ST is not 0 ($F1AD);
a secondary address >= $80 ("none") opens nothing on the device; a device
object gets `connect(mem)` when it is registered and ORs its own status
bits (EOI $40, time-out $02) into ST as it is read; reading from a device
number nothing answers returns $0D with ST $42 instead of failing; CLRCHN
(UNLISTEN) lets a device act on what was sent to it (the 1541 runs a
command sent to channel 15 without a RETURN).  listen/second/ciout/
unlisten/talk/tksa/acptr/untalk give the same devices to programs that
drive the serial bus through those KERNAL routines themselves; load/save
are LOAD and SAVE on a device (BASIC's LOAD/SAVE/VERIFY call them too).
"""

from kernal.errors import (ERR_DEVICE_NOT_PRESENT, ERR_FILE_NOT_FOUND, ERR_FILE_NOT_OPEN, ERR_FILE_OPEN,
                           ERR_ILLEGAL_DEVICE, ERR_MISSING_FILE_NAME, ERR_NOT_INPUT_FILE,
                           ERR_NOT_OUTPUT_FILE, ERR_TOO_MANY_FILES, KernalError)
from kernal.locations import (DFLTN, DFLTO, EAL, FA, FAT, FNADR, FNLEN, KEYBOARD, LA, LAT, LDTND, SA, SAT,
                              SCREEN, ST_DEVICE_NOT_PRESENT, ST_EOI, ST_READ_TIMEOUT, ST_VERIFY_ERROR,
                              STATUS)



WAIT = object()      # CHRIN has nothing yet: the caller must wait for a key


class DeviceTable(dict):
    """Device number -> device object; a device with connect(mem) is handed the memory on registration."""

    def __init__(self, mem):
        super().__init__()
        self.mem = mem

    def __setitem__(self, number, device):
        connect = getattr(device, "connect", None)
        if connect is not None:
            connect(self.mem)
        super().__setitem__(number, device)


class Channels:
    """Logical files and device routing.  `devices` maps device numbers >= 4 to objects
    with open(secondary, name) / close(secondary) / chrin(secondary) / chrout(secondary, byte)
    and optionally unlisten(secondary) and connect(mem)."""

    def __init__(self, mem, editor, keyboard):
        self.mem = mem
        self.editor = editor
        self.keyboard = keyboard
        self.devices = DeviceTable(mem)
        self.bytes_moved = 0            # over the serial bus by the last LOAD or SAVE (kernal.disk_time)
        self._input_secondary = 0
        self._output_secondary = 0
        self._bus = None          # LISTEN/TALK state for the serial-bus routines
        # Told (start, end) of every program LOADed into memory: a translating CPU forgets
        # what it learnt of the code there (FastCPU.code_loaded); None: nobody is.
        self.code_loaded = None

    def reset(self):
        self.mem[LDTND] = 0
        self.mem[DFLTN] = KEYBOARD
        self.mem[DFLTO] = SCREEN

    # -- the table -----------------------------------------------------------------
    def _find(self, logical):
        for i in range(min(self.mem[LDTND], 10)):
            if self.mem[LAT + i] == logical:
                return i
        return None

    def file_name(self):
        start = self.mem[FNADR] | (self.mem[FNADR + 1] << 8)
        return bytes(self.mem[(start + i) & 0xFFFF] for i in range(self.mem[FNLEN]))

    def open(self):
        m = self.mem
        logical, device, secondary = m[LA], m[FA], m[SA]
        m[STATUS] = 0                                 # $F30F: ST cleared before the search
        if logical == 0:
            raise KernalError(ERR_NOT_INPUT_FILE)     # the KERNAL's answer to logical file 0
        if self._find(logical) is not None:
            raise KernalError(ERR_FILE_OPEN)
        if m[LDTND] >= 10:
            raise KernalError(ERR_TOO_MANY_FILES)
        if device >= 4 and not secondary & 0x80:
            target = self.devices.get(device)
            if target is None:
                m[STATUS] = ST_DEVICE_NOT_PRESENT
                raise KernalError(ERR_DEVICE_NOT_PRESENT)
            name = self.file_name()
            if name:
                m[STATUS] = 0                     # openi clears the serial status
            target.open(secondary & 0x0F, name)
        index = min(m[LDTND], 9)
        m[LAT + index], m[FAT + index], m[SAT + index] = logical, device, secondary | 0x60
        m[LDTND] = index + 1

    def close(self, logical):
        index = self._find(logical)
        if index is None:
            return
        m = self.mem
        device, secondary = m[FAT + index], m[SAT + index]
        if device >= 4 and device in self.devices and not secondary & 0x80:
            self.devices[device].close(secondary & 0x0F)
        last = m[LDTND] - 1
        for table in (LAT, FAT, SAT):
            m[table + index] = m[table + last]
        m[LDTND] = last

    def _device(self, index):
        """Device number and secondary address (0-15, or None for "no secondary") of table entry index."""
        secondary = self.mem[SAT + index]
        return self.mem[FAT + index], (None if secondary & 0x80 else secondary & 0x0F)

    def chkin(self, logical):
        self.mem[STATUS] = 0                          # $F30F: ST cleared before the search
        index = self._find(logical)
        if index is None:
            raise KernalError(ERR_FILE_NOT_OPEN)
        device, secondary = self._device(index)
        if device == SCREEN or device == KEYBOARD:
            self.mem[DFLTN] = device
            return
        if device in (4, 5) or device in (1, 2):
            raise KernalError(ERR_NOT_INPUT_FILE)
        if device not in self.devices:
            self.mem[STATUS] |= ST_DEVICE_NOT_PRESENT
            raise KernalError(ERR_DEVICE_NOT_PRESENT)
        self.mem[DFLTN] = device
        self._input_secondary = secondary

    def chkout(self, logical):
        self.mem[STATUS] = 0                          # $F30F: ST cleared before the search
        index = self._find(logical)
        if index is None:
            raise KernalError(ERR_FILE_NOT_OPEN)
        device, secondary = self._device(index)
        if device == KEYBOARD:
            raise KernalError(ERR_NOT_OUTPUT_FILE)
        if device in (1, 2):
            raise KernalError(ERR_NOT_OUTPUT_FILE)     # no datasette or RS-232 here
        if device != SCREEN and device not in self.devices:
            self.mem[STATUS] |= ST_DEVICE_NOT_PRESENT
            raise KernalError(ERR_DEVICE_NOT_PRESENT)
        self._unlisten()
        self.mem[DFLTO] = device
        self._output_secondary = secondary

    def _unlisten(self):
        """The output device is let go: it may act on what it received (1541 commands)."""
        device = self.devices.get(self.mem[DFLTO]) if self.mem[DFLTO] >= 4 else None
        unlisten = getattr(device, "unlisten", None)
        if unlisten is not None and self._output_secondary is not None:
            unlisten(self._output_secondary)

    def clrchn(self):
        self._unlisten()
        self.mem[DFLTN] = KEYBOARD
        self.mem[DFLTO] = SCREEN

    def clall(self):
        self._unlisten()
        for i in range(min(self.mem[LDTND], 10)):
            device, secondary = self._device(i)
            if device in self.devices and device >= 4 and secondary is not None:
                self.devices[device].close(secondary)
        self.mem[LDTND] = 0
        self.mem[DFLTN] = KEYBOARD
        self.mem[DFLTO] = SCREEN

    # -- data ------------------------------------------------------------------------
    def chrout(self, byte):
        device = self.mem[DFLTO]
        if device == SCREEN:
            self.editor.chrout(byte)
        elif device in self.devices and device >= 4:
            if self._output_secondary is not None:
                self.devices[device].chrout(self._output_secondary, byte)
        elif device >= 4:
            self.mem[STATUS] |= ST_DEVICE_NOT_PRESENT                  # nobody listening on the serial bus
            raise KernalError(ERR_DEVICE_NOT_PRESENT)
        else:
            raise KernalError(ERR_NOT_OUTPUT_FILE)

    def chrin(self):
        """Next input byte, or WAIT when the keyboard has nothing yet."""
        device = self.mem[DFLTN]
        if device == KEYBOARD:
            byte = self.editor.chrin_keyboard(self.keyboard.take)
            return WAIT if byte is None else byte
        if device == SCREEN:
            return self.editor.chrin_screen()
        if self.mem[STATUS]:
            return 0x0D                       # $F1AD: a status already set ends the input there
        target = self.devices.get(device) if device >= 4 else None
        if target is None or self._input_secondary is None:
            self.mem[STATUS] |= ST_EOI | ST_READ_TIMEOUT                  # time-out: nothing talks on the bus
            return 0x0D
        return target.chrin(self._input_secondary) & 0xFF

    # -- LOAD and SAVE (the bodies behind ILOAD $F4A5 and ISAVE $F5ED) -------------------
    def _disk(self, device):
        if device < 4:
            raise KernalError(ERR_ILLEGAL_DEVICE)     # keyboard, datasette, RS-232, screen
        disk = self.devices.get(device)
        if disk is None:
            self.mem[STATUS] = ST_DEVICE_NOT_PRESENT
            raise KernalError(ERR_DEVICE_NOT_PRESENT)
        return disk

    def load(self, name, device, secondary, address, verify=False):
        """LOAD (or VERIFY) file `name` into memory at `address` (secondary address != 0: at
        the file's own); returns the address after its last byte, also left in EAL."""
        self.bytes_moved = 0
        if not name:
            raise KernalError(ERR_MISSING_FILE_NAME)
        disk = self._disk(device)
        data = disk.load(name)
        if len(data) < 2:
            raise KernalError(ERR_FILE_NOT_FOUND)
        if secondary != 0:
            address = data[0] | (data[1] << 8)
        body = data[2:]
        mem = self.mem
        mem[STATUS] = 0
        for offset, byte in enumerate(body):
            target = address + offset
            if target > 0xFFFF:
                break
            if verify:
                if mem[target] != byte:
                    mem[STATUS] = ST_VERIFY_ERROR
            else:
                mem[target] = byte
        mem[STATUS] |= ST_EOI
        self.bytes_moved = len(data)
        end = min(address + len(body), 0x10000)
        if not verify and self.code_loaded is not None:
            self.code_loaded(address, end)
        mem[EAL], mem[EAL + 1] = end & 0xFF, (end >> 8) & 0xFF
        return end & 0xFFFF

    def save(self, name, device, start, end):
        """SAVE memory start..end-1 as file `name`, its load address first."""
        self.bytes_moved = 0
        if not name:
            raise KernalError(ERR_MISSING_FILE_NAME)
        disk = self._disk(device)
        body = bytes(self.mem[a] for a in range(start, max(start, end)))
        self.bytes_moved = 2 + len(body)            # (the drive takes them before it reports an error)
        disk.save(name, bytes((start & 0xFF, start >> 8)) + body)
        self.mem[STATUS] = 0

    def getin(self):
        """GETIN: the keyboard path dequeues one key (0 when empty); other devices read a byte."""
        device = self.mem[DFLTN]
        if device == KEYBOARD:
            key = self.keyboard.take()
            return 0 if key is None else key
        return self.chrin()

    # -- the serial bus, for programs that call LISTEN/TALK/CIOUT/ACPTR themselves ------
    # A LISTEN dev / SECOND $F0|ch / CIOUT name... / UNLSN sequence opens channel ch,
    # SECOND $E0|ch closes it, SECOND $60|ch / CIOUT sends data; TALK dev / TKSA $60|ch /
    # ACPTR reads.  Nobody at the device number: ST bit 7 (device not present).
    def listen(self, device):
        self._bus = {"device": device & 0x1F, "role": "listen", "channel": None, "name": None}
        if self._bus["device"] not in self.devices:
            self.mem[STATUS] |= ST_DEVICE_NOT_PRESENT

    def talk(self, device):
        self._bus = {"device": device & 0x1F, "role": "talk", "channel": None, "name": None}
        if self._bus["device"] not in self.devices:
            self.mem[STATUS] |= ST_DEVICE_NOT_PRESENT

    def _bus_device(self):
        bus = self._bus
        if bus is None:
            return None, None
        return bus, self.devices.get(bus["device"])

    def second(self, command):
        """SECOND after LISTEN: $60|ch data, $E0|ch close, $F0|ch open (the name follows)."""
        bus, device = self._bus_device()
        if bus is None or device is None:
            self.mem[STATUS] |= ST_DEVICE_NOT_PRESENT
            return
        channel, kind = command & 0x0F, command & 0xF0
        bus["channel"] = channel
        if kind == 0xE0:
            device.close(channel)
            bus["channel"] = None
        elif kind == 0xF0:
            bus["name"] = bytearray()

    def tksa(self, command):
        bus, device = self._bus_device()
        if bus is None or device is None:
            self.mem[STATUS] |= ST_DEVICE_NOT_PRESENT
            return
        bus["channel"] = command & 0x0F

    def ciout(self, byte):
        bus, device = self._bus_device()
        if bus is None or device is None or bus["channel"] is None:
            self.mem[STATUS] |= ST_DEVICE_NOT_PRESENT if device is None else 0
            return
        if bus["name"] is not None:
            if len(bus["name"]) < 64:
                bus["name"].append(byte)
        else:
            device.chrout(bus["channel"], byte)

    def unlisten(self):
        bus, device = self._bus_device()
        self._bus = None
        if bus is None or device is None or bus["channel"] is None:
            return
        if bus["name"] is not None:
            device.open(bus["channel"], bytes(bus["name"]))
        else:
            unlisten = getattr(device, "unlisten", None)
            if unlisten is not None:
                unlisten(bus["channel"])

    def acptr(self):
        bus, device = self._bus_device()
        if bus is None or device is None or bus["channel"] is None:
            self.mem[STATUS] |= ST_EOI | ST_READ_TIMEOUT
            return 0x0D
        return device.chrin(bus["channel"]) & 0xFF

    def untalk(self):
        self._bus = None
