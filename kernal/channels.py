"""KERNAL channel I/O: the logical-file table and the default input/output devices.

OPEN/CLOSE/CHKIN/CHKOUT/CLRCHN/CLALL keep the same zero-page and page-2
variables as the real KERNAL (LAT/FAT/SAT tables, count $98, DFLTN $99,
DFLTO $9A, ST $90) and route CHRIN/CHROUT to the keyboard (0), the screen
(3) or a device object registered in `devices` (8 = the host-folder disk).

Error results follow the KERNAL: C=1 and A = error number (1 too many
files, 2 file open, 3 file not open, 5 device not present, 6 not input
file, 7 not output file, 9 illegal device).
"""

LAT, FAT, SAT = 0x0259, 0x0263, 0x026D
LDTND = 0x98          # number of open files
DFLTN, DFLTO = 0x99, 0x9A
STATUS = 0x90
FNLEN, LA, SA, FA, FNADR = 0xB7, 0xB8, 0xB9, 0xBA, 0xBB

KEYBOARD, SCREEN = 0, 3

ERR_TOO_MANY_FILES, ERR_FILE_OPEN, ERR_FILE_NOT_OPEN = 1, 2, 3
ERR_FILE_NOT_FOUND, ERR_DEVICE_NOT_PRESENT = 4, 5
ERR_NOT_INPUT_FILE, ERR_NOT_OUTPUT_FILE = 6, 7
ERR_MISSING_FILE_NAME, ERR_ILLEGAL_DEVICE = 8, 9

WAIT = object()      # CHRIN has nothing yet: the caller must wait for a key


class KernalError(Exception):
    """A KERNAL routine ended with C=1 and an error number in A."""

    def __init__(self, number):
        super().__init__(number)
        self.number = number


class Channels:
    """Logical files and device routing.  `devices` maps device numbers >= 4 to objects
    with open(secondary, name) / close(secondary) / chrin(secondary) / chrout(secondary, byte)."""

    def __init__(self, mem, editor, keyboard):
        self.mem = mem
        self.editor = editor
        self.keyboard = keyboard
        self.devices = {}

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
        if logical == 0:
            raise KernalError(ERR_NOT_INPUT_FILE)     # the KERNAL's answer to logical file 0
        if self._find(logical) is not None:
            raise KernalError(ERR_FILE_OPEN)
        if m[LDTND] >= 10:
            raise KernalError(ERR_TOO_MANY_FILES)
        if device >= 4:
            target = self.devices.get(device)
            if target is None:
                m[STATUS] = 0x80
                raise KernalError(ERR_DEVICE_NOT_PRESENT)
            target.open(secondary, self.file_name())
        index = m[LDTND]
        m[LAT + index], m[FAT + index], m[SAT + index] = logical, device, secondary
        m[LDTND] = index + 1

    def close(self, logical):
        index = self._find(logical)
        if index is None:
            return
        m = self.mem
        device, secondary = m[FAT + index], m[SAT + index]
        if device >= 4 and device in self.devices:
            self.devices[device].close(secondary)
        last = m[LDTND] - 1
        for table in (LAT, FAT, SAT):
            m[table + index] = m[table + last]
        m[LDTND] = last

    def chkin(self, logical):
        index = self._find(logical)
        if index is None:
            raise KernalError(ERR_FILE_NOT_OPEN)
        device = self.mem[FAT + index]
        if device == SCREEN or device == KEYBOARD:
            self.mem[DFLTN] = device
            return
        if device in (4, 5):
            raise KernalError(ERR_NOT_INPUT_FILE)
        if device not in self.devices:
            raise KernalError(ERR_DEVICE_NOT_PRESENT)
        self.mem[DFLTN] = device
        self._input_secondary = self.mem[SAT + index]

    def chkout(self, logical):
        index = self._find(logical)
        if index is None:
            raise KernalError(ERR_FILE_NOT_OPEN)
        device = self.mem[FAT + index]
        if device == KEYBOARD:
            raise KernalError(ERR_NOT_OUTPUT_FILE)
        if device != SCREEN and device not in self.devices:
            raise KernalError(ERR_DEVICE_NOT_PRESENT)
        self.mem[DFLTO] = device
        self._output_secondary = self.mem[SAT + index]

    def clrchn(self):
        self.mem[DFLTN] = KEYBOARD
        self.mem[DFLTO] = SCREEN

    def clall(self):
        for i in range(min(self.mem[LDTND], 10)):
            device = self.mem[FAT + i]
            if device in self.devices:
                self.devices[device].close(self.mem[SAT + i])
        self.mem[LDTND] = 0
        self.clrchn()

    # -- data ------------------------------------------------------------------------
    def chrout(self, byte):
        device = self.mem[DFLTO]
        if device == SCREEN:
            self.editor.chrout(byte)
        elif device in self.devices:
            self.devices[device].chrout(self._output_secondary, byte)
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
        return self.devices[device].chrin(self._input_secondary)

    def getin(self):
        """GETIN: the keyboard path dequeues one key (0 when empty); other devices read a byte."""
        device = self.mem[DFLTN]
        if device == KEYBOARD:
            key = self.keyboard.take()
            return 0 if key is None else key
        return self.chrin()
