"""Every KERNAL and BASIC RAM location the Python KERNAL uses, declared once, with the
RAM vectors and the few I/O registers the KERNAL itself reads or writes.

As the KERNAL source's declare.s does for the ROM: one line per variable,
`NAME = address  # rom label: meaning`, with the names the KERNAL source
gives them (upper case here).  Multi-byte variables are declared at their
first byte.  The modules of this package, the machine and the tests import
these names; no other module declares a KERNAL location.

The bits of the status byte ST and of the other flag bytes follow their
byte.  The 6502 status-register bits at the end are the registers' side of
the routines' contracts (C set = error, and so on).
"""

# -- the memory map -------------------------------------------------------------------------
SCREEN_RAM = 0x0400   # the text screen after a reset (HIBASE holds its page)
BASIC_START = 0x0801  # where BASIC programs start (TXTTAB after NEW)
BASIC_TOP = 0xA000    # the BASIC ROM: the top of BASIC memory (MEMSIZ after RAMTAS)

# -- zero page ------------------------------------------------------------------------------
R6510 = 0x01        # r6510: the 6510's port: bit 4 the cassette sense line (0: a key down), bit 5 the motor
ADRAY1 = 0x03       # adray1: vector to FAC -> integer in A (high) / Y (low) (FLPINT, $B1AA)
ADRAY2 = 0x05       # adray2: vector to integer in A (high) / Y (low) -> FAC (GIVAYF, $B391)
CHANNL = 0x13       # channl: BASIC's current I/O channel (CMD, PRINT#); 0 = screen/keyboard
TEMPPT = 0x16       # temppt: next free slot of the temporary string descriptors ($19 = none)
LASTPT = 0x17       # lastpt: the last temporary descriptor used ($17/$18)
TEMPST = 0x19       # tempst: the temporary string descriptors, three of 3 bytes ($19-$21)
TXTTAB = 0x2B       # txttab: start of the BASIC program ($2B/$2C)
VARTAB = 0x2D       # vartab: end of the BASIC program = start of variables ($2D/$2E)
ARYTAB = 0x2F       # arytab: start of arrays = end of the simple variables ($2F/$30)
STREND = 0x31       # strend: end of arrays ($31/$32)
FRETOP = 0x33       # fretop: bottom of string space; strings grow down to it ($33/$34)
FRESPC = 0x35       # frespc: the string made last ($35/$36)
BASIC_MEMSIZ = 0x37  # memsiz (BASIC's): top of BASIC memory, where strings start ($37/$38)
CURLIN = 0x39       # curlin: current line number ($39/$3A; $FFxx in direct mode)
OLDLIN = 0x3B       # oldlin: line for CONT ($3B/$3C)
OLDTXT = 0x3D       # oldtxt: text position for CONT ($3D/$3E)
DATLIN = 0x3F       # datlin: line of the DATA being read ($3F/$40)
DATPTR = 0x41       # datptr: position in DATA for the next READ ($41/$42)
VARPNT = 0x47       # varpnt: address of the value of the variable PTRGET found last ($47/$48)
FORPNT = 0x49       # forpnt: the variable LET, FOR, READ, INPUT or GET assigns to ($49/$4A)
FOUR6 = 0x53        # four6: the size of a string descriptor (3)
JMPER = 0x54        # jmper: a JMP opcode and its address, for BASIC's function calls ($54-$56)
FACEXP = 0x61       # facexp: FAC, the floating accumulator: exponent, 4 mantissa bytes, sign ($61-$66)
CHRGET = 0x73       # chrget: BASIC's get-next-character routine, copied here by INITCZ ($73-$8A)
TXTPTR = 0x7A       # txtptr: the text pointer, the operand of CHRGET's LDA ($7A/$7B)
RNDX = 0x8B         # rndx: RND's seed, a 5-byte float ($8B-$8F)
STATUS = 0x90       # status: ST, the I/O status byte (bits below)
STKEY = 0x91        # stkey: RUN/STOP row as UDTIM last sampled it ($7F = STOP down)
VERCK = 0x93        # verck: 0 = LOAD, nonzero = VERIFY
LDTND = 0x98        # ldtnd: number of open files (index into LAT/FAT/SAT)
DFLTN = 0x99        # dfltn: default input device (0 keyboard)
DFLTO = 0x9A        # dflto: default output device (3 screen)
MSGFLG = 0x9D       # msgflg: $80 = direct mode (KERNAL messages shown), $00 = program mode
TIME = 0xA0         # time: jiffy clock, 3 bytes big-endian ($A0 = most significant)
EAL = 0xAE          # eal: end address of LOAD/SAVE ($AE/$AF)
TAPE1 = 0xB2        # tape1: cassette buffer pointer ($B2/$B3)
FNLEN = 0xB7        # fnlen: length of the file name
LA = 0xB8           # la: logical file number
SA = 0xB9           # sa: secondary address
FA = 0xBA           # fa: device number
CAS1 = 0xC0         # cas1: nonzero while the tape routines run the cassette motor
FNADR = 0xBB        # fnadr: address of the file name ($BB/$BC)
STAL = 0xC1         # stal: start address of SAVE ($C1/$C2)
MEMUSS = 0xC3       # memuss: load address given to LOAD in X/Y ($C3/$C4)
LSTX = 0xC5         # lstx: matrix code of the key down at the previous scan
NDX = 0xC6          # ndx: number of keys in the keyboard buffer
RVS = 0xC7          # rvs: reverse mode flag
INDX = 0xC8         # indx: end of the line being read by CHRIN
LSXP = 0xC9         # lsxp: row where CHRIN input started
LSTP = 0xCA         # lstp: column where CHRIN input started
SFDX = 0xCB         # sfdx: matrix code of the key down (64 = none)
BLNSW = 0xCC        # blnsw: 0 = cursor blinks
BLNCT = 0xCD        # blnct: jiffies to next blink
GDBLN = 0xCE        # gdbln: character under the cursor
BLNON = 0xCF        # blnon: blink phase (1 = char shown reversed)
CRSW = 0xD0         # crsw: nonzero while CHRIN hands out an entered line
PNT = 0xD1          # pnt: address of the first row of the logical line ($D1/$D2)
PNTR = 0xD3         # pntr: cursor column within the logical line (0-79)
QTSW = 0xD4         # qtsw: quote mode
LNMX = 0xD5         # lnmx: last column of the logical line (39 or 79)
TBLX = 0xD6         # tblx: cursor row
DATA = 0xD7         # data: last character printed
INSRT = 0xD8        # insrt: pending inserts
LDTB1 = 0xD9        # ldtb1: line link table, one byte per row ($D9-$F2)
USER = 0xF3         # user: colour RAM address matching pnt ($F3/$F4)

# -- page 1: the stack ----------------------------------------------------------------------
STACK = 0x0100      # the 6502 stack page; the stack pointer indexes it

# -- page 2 ---------------------------------------------------------------------------------
BUF = 0x0200        # buf: BASIC's input buffer; a direct-mode line runs from here (89 bytes)
LAT = 0x0259        # lat: logical file numbers of the open files (10 bytes)
FAT = 0x0263        # fat: their device numbers
SAT = 0x026D        # sat: their secondary addresses (| $60 as OPEN stores them)
KEYD = 0x0277       # keyd: the keyboard buffer (10 bytes)
MEMSTR = 0x0281     # memstr: bottom of BASIC memory ($0281/$0282)
MEMSIZ = 0x0283     # memsiz: top of BASIC memory ($0283/$0284)
TIMOUT = 0x0285     # timout: IEEE time-out flag (SETTMO)
COLOR = 0x0286      # color: text colour
GDCOL = 0x0287      # gdcol: colour under the cursor
HIBASE = 0x0288     # hibase: screen page
XMAX = 0x0289       # xmax: keyboard buffer size
RPTFLG = 0x028A     # rptflg: bit 7 every key repeats, bit 6 none does
KOUNT = 0x028B      # kount: key repeat speed
DELAY = 0x028C      # delay: key repeat delay
SHFLAG = 0x028D     # shflag: bit 0 SHIFT, bit 1 C=, bit 2 CTRL
LSTSHF = 0x028E     # lstshf: SHFLAG as the last key scan found it
KEYLOG = 0x028F     # keylog: keyboard table set-up vector ($028F/$0290)
MODE = 0x0291       # mode: bit 7 = SHIFT+C= case switch locked
AUTODN = 0x0292     # autodn: nonzero = a wrapping line pushes the rows below down
LINTMP = 0x02A5     # lintmp: row index used while inserting a screen row
PALNTS = 0x02A6     # palnts: 1 = PAL, 0 = NTSC

# -- page 3 ---------------------------------------------------------------------------------
IERROR = 0x0300     # ierror: BASIC's vectors, six words set by INITV: print an error (X = number)
IMAIN = 0x0302      # imain: the direct-mode main loop
ICRNCH = 0x0304     # icrnch: tokenise a line
IQPLOP = 0x0306     # iqplop: LIST a token
IGONE = 0x0308      # igone: execute a statement
IEVAL = 0x030A      # ieval: evaluate a term
SAREG = 0x030C      # sareg: A for SYS, and A after it returns
USRPOK = 0x0310     # usrpok: JMP for USR, its address at $0311/$0312 (cold start: the ILLEGAL QUANTITY error)
SXREG = 0x030D      # sxreg: X for SYS
SYREG = 0x030E      # syreg: Y for SYS
SPREG = 0x030F      # spreg: P for SYS
# The RAM vectors: 16 words, $0314-$0333, set by RESTOR, copied by VECTOR
# (their ROM defaults are in kernal.entries.RAM_VECTORS).
CINV = 0x0314       # cinv: IRQ
CBINV = 0x0316      # cbinv: BRK
NMINV = 0x0318      # nminv: NMI
IOPEN = 0x031A      # iopen: OPEN
ICLOSE = 0x031C     # iclose: CLOSE
ICHKIN = 0x031E     # ichkin: CHKIN
ICKOUT = 0x0320     # ickout: CHKOUT
ICLRCH = 0x0322     # iclrch: CLRCHN
IBASIN = 0x0324     # ibasin: CHRIN
IBSOUT = 0x0326     # ibsout: CHROUT
ISTOP = 0x0328      # istop: STOP
IGETIN = 0x032A     # igetin: GETIN
ICLALL = 0x032C     # iclall: CLALL
USRCMD = 0x032E     # usrcmd: user-defined (BRK's default)
ILOAD = 0x0330      # iload: LOAD
ISAVE = 0x0332      # isave: SAVE
RAM_VECTORS_LENGTH = 32
TBUFFR = 0x033C     # tbuffr: the cassette buffer ($033C-$03FB; TAPE1 points at it)

# -- the I/O registers the KERNAL reads or writes ---------------------------------------------
VIC_D018 = 0xD018   # VIC memory pointers; bit 1 picks the lower/upper-case set
COLOUR_RAM = 0xD800  # colour RAM: one nibble per screen position
CIA1_PRA = 0xDC00   # CIA1 port A: keyboard column drive
CIA1_PRB = 0xDC01   # CIA1 port B: keyboard row read

# -- bits of STATUS (ST) ----------------------------------------------------------------------
ST_WRITE_TIMEOUT = 0x01     # serial bus: time-out writing
ST_READ_TIMEOUT = 0x02      # serial bus: time-out reading (nothing talks)
ST_VERIFY_ERROR = 0x10      # VERIFY found a difference
ST_EOI = 0x40               # end of file
ST_DEVICE_NOT_PRESENT = 0x80

# -- values of MSGFLG --------------------------------------------------------------------------
MSG_DIRECT_MODE = 0x80      # KERNAL control messages (SEARCHING FOR, LOADING) shown
MSG_PROGRAM_MODE = 0x00

# -- device numbers in DFLTN/DFLTO/FA ----------------------------------------------------------
KEYBOARD, SCREEN = 0, 3

# -- the 6502 status register P, as the routines leave it -------------------------------------
CARRY = 0x01
ZERO = 0x02
INTERRUPT = 0x04            # I: IRQs masked
BREAK = 0x10                # B: only in the copy of P on the stack (BRK/PHP pushed it)
UNUSED = 0x20               # reads as 1
NEGATIVE = 0x80
