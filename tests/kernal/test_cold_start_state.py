"""What the cold start leaves in zero page and pages 2-3 (RAMTAS, RESTOR, IOINIT, CINT, then
BASIC's INITV and INITCZ), and the character ROM banked in at $D000 and seen by the VIC.

The values are the ROM's (KERNAL 901227-03, BASIC 901226-01; pages 0-3 were compared
after power-on with a machine running them): BASIC's conversion vectors at $0003-$0006,
CHRGET at $0073-$008A, RND's seed after it, BASIC's vectors at $0300-$030B."""

from c64.machine import C64
from charset.bitmaps import bitmap, character_rom
from kernal import entries


def ready_machine():
    machine = C64()
    machine.start_basic()
    assert machine.run(5_000_000).value == "idle"
    return machine


def typed(machine, text, cycles=400_000_000):
    machine.type(text)
    machine.run(cycles)
    return [line.rstrip() for line in machine.screen_lines()]


def word(machine, address):
    return machine.peek(address) | (machine.peek(address + 1) << 8)


def test_the_conversion_vectors_are_basic_s():
    machine = ready_machine()
    assert word(machine, 0x0003) == 0xB1AA and word(machine, 0x0005) == 0xB391
    assert " 37297" in typed(machine, "PRINT PEEK(4)+256*PEEK(5){return}")    # cc65's pr1102


def test_chrget_and_rnd_s_seed_are_where_initcz_copies_them():
    machine = ready_machine()
    chrget = bytes(machine.peek(a) for a in range(0x73, 0x8B))
    assert chrget == bytes.fromhex("e67ad002e67bad0008c93ab00ac920f0ef38e93038e9d060")
    assert bytes(machine.peek(a) for a in range(0x8B, 0x90)) == bytes([0x80, 0x4F, 0xC7, 0x52, 0x58])
    assert machine.peek(0x54) == 0x4C and machine.peek(0x53) == 3 and machine.peek(0x16) == 0x19


def test_basic_s_vectors_and_usr_s_jump_are_set():
    machine = ready_machine()
    vectors = [word(machine, 0x0300 + 2 * i) for i in range(6)]
    assert vectors == [0xE38B, 0xA483, 0xA57C, 0xA71A, 0xA7E4, 0xAE86]
    assert machine.peek(0x0310) == 0x4C and word(machine, 0x0311) == 0xB248


def test_a_usr_routine_calling_through_0003_and_0005_gets_the_integer_and_gives_it_back():
    # $C000: JSR via $0003 (FAC -> A/Y), add 1 to Y, JMP via $0005 (A/Y -> FAC)
    machine = ready_machine()
    code = [0x20, 0x10, 0xC0, 0xC8, 0xD0, 0x03, 0x18, 0x69, 0x01, 0x6C, 0x05, 0x00,
            0, 0, 0, 0, 0x6C, 0x03, 0x00]                                  # $C010: JMP ($0003)
    for offset, byte in enumerate(code):
        machine.poke(0xC000 + offset, byte)
    assert " 1000" in typed(machine, "POKE 785,0:POKE 786,192:PRINT USR(999){return}")
    assert " 256" in typed(machine, "PRINT USR(255){return}")
    assert "-41" in typed(machine, "PRINT USR(-42){return}")
    screen = typed(machine, "PRINT USR(40000){return}PRINT 7{return}")        # FLPINT's range: 16 bits
    assert "?ILLEGAL QUANTITY  ERROR" in screen and " 7" in screen          # BASIC goes on
    assert machine.error is None


def test_the_kernal_s_own_leftovers_are_there():
    machine = ready_machine()
    assert machine.peek(0xC2) == 0xA0                  # RAMTAS's memory test stopped at $A000
    assert word(machine, 0xC3) == 0xFD30               # RESTOR's table pointer
    assert machine.peek(0x91) == 0xFF                  # no RUN/STOP: UDTIM's sample
    table = bytes(machine.peek(a) for a in range(0x0314, 0x0334))
    assert bytes(machine.mem.rom[0xFD30:0xFD50]) == table     # RESTOR's table in the stub ROM
    assert word(machine, 0x0314) == entries.address_of("IRQ_DEFAULT")


def test_a_type_in_copies_the_character_set_from_the_character_rom():
    machine = ready_machine()
    typed(machine, "10 POKE 56334,PEEK(56334)AND254:POKE 1,PEEK(1)AND251{return}"
          "20 FOR I=0 TO 4095:POKE 12288+I,PEEK(53248+I):NEXT{return}"
          "30 POKE 1,PEEK(1)OR4:POKE 56334,PEEK(56334)OR1{return}RUN{return}")
    copied = bytes(machine.mem.ram[0x3000:0x4000])
    assert copied == character_rom()
    assert copied[8:16] == bytes(bitmap(1))                        # A, upper case
    assert copied[0x800 + 8:0x800 + 16] == bytes(bitmap(1, lower=True))     # a, lower case
    assert copied[0x400 + 8:0x400 + 16] == bytes(row ^ 0xFF for row in bitmap(1))   # reversed A


def test_the_vic_sees_the_character_rom_in_banks_0_and_2():
    machine = ready_machine()
    assert machine.character_data() == character_rom()[:0x800]            # after a reset
    typed(machine, "POKE 53272,23{return}")                                # $D018: lower case
    assert machine.character_data() == character_rom()[0x800:]
    assert machine.vic_peek(0x1808) == bitmap(1, lower=True)[0] != machine.vic_peek(0x1008)
    typed(machine, "POKE 56576,(PEEK(56576)AND252)OR1{return}")           # bank 2: $8000
    assert machine.character_data() == character_rom()[0x800:]
    typed(machine, "POKE 56576,PEEK(56576)AND252OR2:POKE 16384+6144,255{return}")   # bank 1
    assert machine.character_data()[0] == 255                              # RAM there
