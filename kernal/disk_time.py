"""The C64 time a LOAD, VERIFY or SAVE on a 1541 takes through the KERNAL's serial routines.

The bytes go over the serial bus one at a time, each with the ROM's handshake: on the C64's
side LOAD's loop (LD40: the STOP key, JSR ACPTR, the store, the EOI test) and ACPTR itself
(SEI, the clock released, the talker's ready, eight bits each waited for twice, the data line
pulled, CLI) take 584 cycles a byte with a drive that answers at once -- counted from the
KERNAL 901227-03 listing.  A 1541 answers far later: its DOS fetches the next byte of its
sector buffer between bytes and reads the next sector from the disk, and a stock C64 and 1541
move about 400 bytes a second, the commonly published figure (a 100-block program in about a
minute).  That rate is charged, 2,463 PAL cycles a byte,
the drive's share an estimate; finding the file (the head to the directory's track 18 and back,
a revolution or two of the disk at 300 rpm) is charged half a second, an estimate too.  SAVE
is charged the same rate.  The time passes with the interrupts taken (the ROM's CLI after each
byte lets the jiffy clock run on), as the machine's stall (c64.machine.C64.stall).

Only a LOAD or SAVE the C64 does itself is charged: `ryg` puts the program it starts in memory
at once (c64.loader), as a cartridge would.
"""

C64_SIDE_PER_BYTE = 584          # LD40 .. LD64 and ACPTR with a drive that answers at once
BYTES_PER_SECOND = 400           # a stock 1541 with the KERNAL's serial routines (published)
SEARCH_SECONDS = 0.5             # finding the file: an estimate
PAL_HZ, NTSC_HZ = 985_248, 1_022_727


def transfer_cycles(byte_count, pal=True):
    """The C64 cycles a LOAD, VERIFY or SAVE of `byte_count` bytes (its load address included)
    takes on a 1541, the file's search included."""
    hz = PAL_HZ if pal else NTSC_HZ
    return round(hz * (SEARCH_SECONDS + byte_count / BYTES_PER_SECOND))
