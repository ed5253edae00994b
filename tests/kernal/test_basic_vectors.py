"""BASIC's vectors $0300-$030B called when a program hooks them, and the ways machine code
goes back into BASIC (kernal/basic/vectors.py, docs/c64.md).

Each program is real 6502 code of the kind C64 programs hook in (a wedge adding a command,
a function, a keyword, a new READY. loop); each screen expected was measured running the
same code and keys on the genuine ROMs (KERNAL 901227-03 / BASIC 901226-01).
"""

import pytest

from c64.machine import C64, StopReason
from tests.conftest import assemble
from tests.tools.basic_keys import settle


@pytest.fixture
def m(tmp_path):
    machine = C64(sid_seed=1, disk_folder=str(tmp_path))
    settle(machine)
    return machine


def typed(machine, *lines):
    """Type the lines (each ends with RETURN); the screen rows after the first one typed."""
    settle(machine, "".join(line + "{return}" for line in lines))
    rows = [row.rstrip() for row in machine.screen_lines()]
    while rows and not rows[-1]:
        rows.pop()
    index = max(i for i, row in enumerate(rows) if row == lines[0])
    return rows[index:]


def install(machine, source):
    """Assemble the code (Ophis, at $C000) into memory and run its installer: SYS 49152."""
    machine.load_prg(assemble(".word $c000\n.org $c000\n" + source))
    assert typed(machine, "SYS 49152") == ["SYS 49152", "", "READY."]


# IGONE ($0308): a wedge adding the command "!".  It reads the statement's first byte with
# CHRGET; not its own, it gives it back with its flags (CHRGOT) at NGONE1 ($A7E7).
WEDGE = """
        lda #<wedge
        sta $0308
        lda #>wedge
        sta $0309
        rts
wedge:  jsr $0073
        cmp #$21            ; "!"
        beq bang
        jsr $0079
        jmp $a7e7
bang:   ldx #0
msg:    lda text,x
        beq done
        jsr $ffd2
        inx
        bne msg
done:   jsr $0073           ; past the "!": TXTPTR on the colon or the line's end
        jmp $a7ae           ; NEWSTT
text:   .byte "WEDGE!", 13, 0
"""


def test_a_wedge_adds_a_command_through_igone(m):
    install(m, WEDGE)
    assert typed(m, "!") == ["!", "WEDGE!", "", "READY."]
    assert typed(m, "PRINT 1:!:PRINT 2") == ["PRINT 1:!:PRINT 2", " 1", "WEDGE!", " 2", "", "READY."]
    assert typed(m, '10 PRINT "A":!', '20 !:PRINT "B"', "RUN") == [
        '10 PRINT "A":!', '20 !:PRINT "B"', "RUN", "A", "WEDGE!", "WEDGE!", "B", "", "READY."]


COUNTERS = """
        jmp gonein
        jmp evalin
gonein: lda #<gone
        sta $0308
        lda #>gone
        sta $0309
        rts
evalin: lda #<eval
        sta $030a
        lda #>eval
        sta $030b
        rts
gone:   inc $c100           ; IGONE's calls counted at 49408
        bne +
        inc $c101
*       jmp $a7e4
eval:   inc $c102           ; IEVAL's at 49410
        bne +
        inc $c103
*       jmp $ae86
"""


def test_igone_is_called_at_each_statement_as_the_rom_calls_it(m):
    # 17 on the genuine ROMs: empty statements, GOTO's, RUN's and RETURN's lines included,
    # the statement after THEN not (IF goes to GONE3 itself)
    install(m, COUNTERS)
    typed(m, "POKE 49408,0:POKE 49409,0", '10 A=1::B=2:IF A THEN PRINT "X":PRINT "Y"',
          "20 FOR I=1 TO 3:NEXT:GOSUB 40:GOTO 30", "30 ON 2 GOTO 10,50", "40 RETURN", "50 END")
    assert typed(m, "RUN") == ["RUN", "X", "Y", "", "READY."]
    assert typed(m, "PRINT PEEK(49408)+256*PEEK(49409)")[1] == " 17"


def test_ieval_is_called_for_each_operand_as_the_rom_calls_eval(m):
    # the genuine ROMs' counts: EVAL at NOT and a unary minus too, then at their operand
    m.load_prg(assemble(".word $c000\n.org $c000\n" + COUNTERS))
    assert typed(m, "SYS 49155") == ["SYS 49155", "", "READY."]
    typed(m, "POKE 49410,0:POKE 49411,0",
          'A=1:B=NOT A+-2*(3^-A)-SIN(+A)+LEN("AB"+"C")')
    assert typed(m, "PRINT PEEK(49410)+256*PEEK(49411)")[1] == " 18"
    typed(m, "POKE 49410,0:POKE 49411,0", "C=1 AND 2 OR NOT 3 =4<>5")
    assert typed(m, "PRINT PEEK(49410)")[1] == " 10"
    typed(m, "POKE 49410,0:A=2^-A^-(-A)*-NOT-A")
    assert typed(m, "PRINT A;PEEK(49410)")[1] == " 0  14"


# IEVAL ($030A): a function "&" giving 1234; any other operand goes back to EVAL just
# after its CHRGET ($AE8D) with CHRGOT's flags.
AMPERSAND = """
        lda #<hook
        sta $030a
        lda #>hook
        sta $030b
        rts
hook:   lda #0
        sta $0d             ; VALTYP: a number
        jsr $0073
        cmp #$26            ; "&"
        beq amp
        jsr $0079
        jmp $ae8d
amp:    jsr $0073           ; past "&": TXTPTR after the operand
        lda #>1234
        ldy #<1234
        jmp $b391           ; GIVAYF: FAC = 1234; its RTS is EVAL's
"""


def test_an_ieval_hook_adds_a_function(m):
    install(m, AMPERSAND)
    assert typed(m, "PRINT &+1, 2*&, -&, (&), SIN(0)+&/2") == [
        "PRINT &+1, 2*&, -&, (&), SIN(0)+&/2", " 1235      2468     -1234      1234", " 617", "", "READY."]
    assert typed(m, "A=&:PRINT A;&")[1] == " 1234  1234"
    assert typed(m, 'PRINT "&";LEN("AB")')[1] == "& 2"
    assert typed(m, "10 PRINT &*2", "RUN")[2] == " 2468"
    assert typed(m, "PRINT &^2;-&^2;2^-&;NOT &;5-&")[1] == " 1522756 -1522756  0 -1235 -1229"


# A keyword HI (token $CC) in three hooks: ICRNCH tokenises it after the ROM's CRUNCH
# (which it calls), IQPLOP lists it (its last letter through PRIT4), IGONE runs it.
KEYWORD = """
        ldx #5
inst:   lda vectors,x
        sta $0304,x         ; ICRNCH, IQPLOP, IGONE
        dex
        bpl inst
        rts
vectors: .word crnch, qplop, gone
quote:  .byte 0
crnch:  jsr $a57c           ; the ROM's tokeniser first: BUF tokenised
        ldx #0
        stx quote
scan:   lda $0200,x
        beq done
        cmp #$22
        bne notq
        lda quote
        eor #$ff
        sta quote
        jmp next
notq:   bit quote
        bmi next
        cmp #$48            ; "H"
        bne next
        lda $0201,x
        cmp #$49            ; "I"
        bne next
        lda #$cc            ; HI is the token $CC
        sta $0200,x
        txa
        tay
shift:  lda $0202,y
        sta $0201,y
        iny
        cmp #0
        bne shift
        sta $0201,y         ; CRUNCH's zeros after the line
        sta $0202,y
next:   inx
        bne scan
done:   txa                 ; Y: the line's length + 5, as CRUNCH leaves it
        clc
        adc #5
        tay
        rts
qplop:  cmp #$cc
        bne old
        bit $0f             ; DORES: inside quotes?
        bmi old
        sty $49             ; LSTPNT
        lda #$48
        jsr $ffd2
        lda #$c9            ; "I" with bit 7, as the ROM's keyword list ends a word
        jmp $a6ef           ; PRIT4
old:    pha                 ; N and Z from A again, as NQPLOP wants them
        pla
        jmp $a71a
gone:   jsr $0073
        cmp #$cc
        beq hi
        jsr $0079
        jmp $a7e7
hi:     ldx #0
msg:    lda text,x
        beq end
        jsr $ffd2
        inx
        bne msg
end:    jsr $0073
        jmp $a7ae
text:   .byte "HELLO", 13, 0
"""


def test_a_new_keyword_through_icrnch_iqplop_and_igone(m):
    install(m, KEYWORD)
    assert typed(m, "HI") == ["HI", "HELLO", "", "READY."]
    typed(m, '10 HI:PRINT "HI";:HI', "20 REM HI THERE")
    assert m.peek(0x0805) == 0xCC                  # stored as its token
    assert typed(m, "LIST") == ["LIST", "", '10 HI:PRINT "HI";:HI', "20 REM HI THERE", "READY."]
    assert typed(m, "RUN") == ["RUN", "HELLO", "HIHELLO", "", "READY."]


def test_nqplop_takes_the_byte_by_the_flags_the_hook_left(m):
    # a hook that jumps on with the flags of its own CMP: the ROM's BPL there lists the
    # letters $4D-$CB as keywords -- on the genuine ROMs "20 REM HI LOGHESQRE"
    source = KEYWORD.replace("old:    pha                 ; N and Z from A again, as NQPLOP wants them\n"
                             "        pla\n", "old:\n")
    install(m, source)
    typed(m, "20 REM HI THERE")
    assert typed(m, "LIST") == ["LIST", "", "20 REM HI LOGHESQRE", "READY."]


# IMAIN ($0302): a READY. loop of its own, reading the line with INLIN ($A560); "@" is its
# command, anything else goes on in MAIN ($A486) with the line in BUF.
MAIN = """
        lda #<main
        sta $0302
        lda #>main
        sta $0303
        rts
main:   jsr $a560           ; INLIN: the line in BUF, X/Y = $01FF
        stx $7a
        sty $7b
        jsr $0073
        cmp #$40            ; "@"
        beq at
        ldx #$ff
        ldy #$01
        jmp $a486           ; MAIN goes on with the line
at:     ldx #0
msg:    lda text,x
        beq again
        jsr $ffd2
        inx
        bne msg
again:  jmp $a480           ; MAIN: through IMAIN again
text:   .byte "AT COMMAND", 13, 0
"""


def test_imain_replaced_by_a_loop_with_a_command_of_its_own(m):
    install(m, MAIN)
    assert typed(m, "@") == ["@", "AT COMMAND"]
    assert typed(m, "PRINT 1") == ["PRINT 1", " 1", "", "READY."]
    assert typed(m, "10 PRINT 2", "@X", "RUN") == ["10 PRINT 2", "@X", "AT COMMAND", "RUN", " 2", "", "READY."]
    assert m.basic.reading_lines() is False        # (the CPU waits in INLIN, not at $A480)


def test_imain_hook_before_the_roms_loop_prints_its_prompt(m):
    m.load_prg(assemble(""".word $c000
.org $c000
        lda #<main
        sta $0302
        lda #>main
        sta $0303
        rts
main:   lda #$2a            ; "*"
        jsr $ffd2
        lda #$0d
        jsr $ffd2
        jmp $a483           ; NMAIN: the ROM's loop
"""))
    assert typed(m, "SYS 49152") == ["SYS 49152", "", "READY.", "*"]
    assert typed(m, "PRINT 1", "10 PRINT 2", "RUN") == [
        "PRINT 1", " 1", "", "READY.", "*", "10 PRINT 2", "*", "RUN", " 2", "", "READY.", "*"]
    assert m.basic.reading_lines()


ERRORS = """
        lda #<hook
        sta $0300
        lda #>hook
        sta $0301
        rts
hook:   txa                 ; "*" and a letter for X's low four bits, then the ROM's
        pha
        lda #$2a
        jsr $ffd2
        pla
        pha
        and #$0f
        ora #$40
        jsr $ffd2
        pla
        tax
        jmp $e38b
"""


def test_ierror_is_called_for_errors_and_for_ready(m):
    install(m, ERRORS)
    assert typed(m, '10 PRINT "A"', "20 X=1/0", "RUN") == [
        '10 PRINT "A"', "20 X=1/0", "RUN", "A", "*D", "?DIVISION BY ZERO  ERROR IN 20", "READY."]
    assert typed(m, "LIST") == ["LIST", "", '10 PRINT "A"', "20 X=1/0*@", "READY."]
    assert typed(m, "GOTO 99")[1:] == ["*A", "?UNDEF'D STATEMENT  ERROR", "READY."]


def test_a_wedge_raises_an_error_through_ierror(m):
    install(m, WEDGE.replace("bang:   ldx #0", "bang:   ldx #14\n        jmp ($0300)"))
    assert typed(m, "!") == ["!", "", "?ILLEGAL QUANTITY  ERROR", "READY."]
    assert typed(m, "10 PRINT 1:!", "RUN") == ["10 PRINT 1:!", "RUN", " 1", "",
                                               "?ILLEGAL QUANTITY  ERROR IN 10", "READY."]


# SYS: the routine's ways back into BASIC.
SYS_ENDS = """
        jmp e0              ; 49152: X, PLA PLA RTS
        jmp e1              ; 49155: Y, JMP NEWSTT ($A7AE)
        jmp e2              ; 49158: Z, JMP READY ($E386)
        jmp e3              ; 49161: W, JMP $A474
        jmp e4              ; 49164: A=65, RTS
        jmp e5              ; 49167: A=66, PLA PLA RTS
e0:     lda #$58
        jsr $ffd2
        pla
        pla
        rts
e1:     lda #$59
        jsr $ffd2
        jmp $a7ae
e2:     lda #$5a
        jsr $ffd2
        jmp $e386
e3:     lda #$57
        jsr $ffd2
        jmp $a474
e4:     lda #$41
        rts
e5:     lda #$42
        pla
        pla
        rts
"""


@pytest.fixture
def sys_ends(m):
    m.load_prg(assemble(".word $c000\n.org $c000\n" + SYS_ENDS))
    return m


@pytest.mark.parametrize("address, letter", [(49152, "X"), (49155, "Y")])
def test_pla_pla_rts_and_jmp_newstt_go_on_with_the_next_statement(sys_ends, address, letter):
    m = sys_ends
    assert typed(m, "SYS %d:PRINT 1" % address) == ["SYS %d:PRINT 1" % address, letter + " 1", "", "READY."]
    assert typed(m, '10 SYS %d:PRINT "A"' % address, "20 PRINT 2", "RUN")[2:] == ["RUN", letter + "A", " 2", "",
                                                                                   "READY."]


@pytest.mark.parametrize("address, letter", [(49158, "Z"), (49161, "W")])
def test_jmp_to_ready_ends_the_line_and_the_program(sys_ends, address, letter):
    m = sys_ends
    assert typed(m, "SYS %d:PRINT 1" % address) == ["SYS %d:PRINT 1" % address, letter, "READY."]
    assert typed(m, '10 SYS %d:PRINT "A"' % address, "20 PRINT 2", "RUN")[2:] == ["RUN", letter, "READY."]
    assert typed(m, "PRINT 3") == ["PRINT 3", " 3", "", "READY."]


def test_pla_pla_rts_leaves_the_registers_unsaved(sys_ends):
    m = sys_ends
    assert typed(m, "POKE 780,0:SYS 49164:PRINT PEEK(780)")[1] == " 65"      # CSYSRZ saved A
    assert typed(m, "POKE 780,7:SYS 49167:PRINT PEEK(780)")[1] == " 7"       # skipped


def test_sys_with_an_argument_its_code_does_not_read_is_a_syntax_error(sys_ends):
    m = sys_ends
    assert typed(m, "SYS 49164,5") == ["SYS 49164,5", "", "?SYNTAX  ERROR", "READY."]
    assert typed(m, "10 SYS 49164,5", "RUN")[2:] == ["", "?SYNTAX  ERROR IN 10", "READY."]


def test_what_jmp_newstt_leaves_on_the_stack_stops_next_and_return(sys_ends):
    # SYS's return and GONE3's stay on the stack: FNDFOR meets them before the frames
    m = sys_ends
    assert typed(m, "10 FOR I=1 TO 2:SYS 49155:PRINT I:NEXT", "RUN")[1:] == [
        "RUN", "Y 1", "", "?NEXT WITHOUT FOR  ERROR IN 10", "READY."]
    assert typed(m, "NEW", "10 FOR I=1 TO 2:SYS 49152:PRINT I:NEXT", "RUN")[4:] == [
        "RUN", "X 1", "X 2", "", "READY."]
    assert typed(m, "NEW", '10 GOSUB 100:PRINT "B":END', "100 SYS 49155:RETURN", "RUN")[5:] == [
        "RUN", "Y", "?RETURN WITHOUT GOSUB  ERROR IN 100", "READY."]


def test_a_jump_into_basic_with_nothing_waiting_stops_with_a_message(m):
    m.load_prg(assemble(".word $c000\n.org $c000\n        jmp $a71a\n"))     # NQPLOP, no LIST running
    m.type("SYS 49152{return}")
    for _ in range(50):
        reason = m.run(2_000_000)
        if reason is StopReason.ERROR:
            break
    assert reason is StopReason.ERROR
    assert m.error == "jumped to BASIC's NQPLOP ($A71A) with no BASIC statement waiting for it"


def test_a_jump_into_basics_rom_where_nothing_is_says_so(m):
    m.load_prg(assemble(".word $c000\n.org $c000\n        jmp $a7ef\n"))      # GONE2, mid-dispatch
    m.type("SYS 49152{return}")
    for _ in range(50):
        reason = m.run(2_000_000)
        if reason is StopReason.ERROR:
            break
    assert m.error == ("CPU JAM at $A7EF: no routine at this ROM address (BASIC is Python here: "
                       "machine code enters it only at the addresses docs/c64.md lists)")


def test_code_started_as_sys_from_outside_basic_may_end_with_pla_pla_rts(m):
    # `--sys` and the bundled versions enter machine code as SYS does, GONE3's return under
    # SYS's: PLA PLA RTS ends the program as its RTS would
    m.load_prg(assemble(".word $c000\n.org $c000\n        lda #$51\n        jsr $ffd2\n"
                        "        pla\n        pla\n        rts\n"))
    m.start(0xC000)
    assert m.run(2_000_000) is StopReason.BASIC
    assert "Q" in m.screen_text()


# A wedge reading its arguments with BASIC's routines: "!*n" prints n stars (GETBYT),
# "!address,value" pokes (FRMNUM, GETADR, COMBYT).
ARGUMENTS = """
        lda #<wedge
        sta $0308
        lda #>wedge
        sta $0309
        rts
wedge:  jsr $0073
        cmp #$21            ; "!"
        beq bang
        jsr $0079
        jmp $a7e7
bang:   jsr $0073
        cmp #$ac            ; "!*n" (the token of *): n stars
        beq stars
        jsr $ad8a           ; "!address,value": FRMNUM
        jsr $b7f7           ; GETADR: into $14/$15
        jsr $b7f1           ; COMBYT: the value in X
        txa
        ldy #0
        sta ($14),y
        jmp $a7ae
stars:  jsr $0073
        jsr $b79e           ; GETBYT
        txa
        beq done
        tay
star:   lda #$2a
        jsr $ffd2
        dey
        bne star
done:   jmp $a7ae
"""


def test_a_wedge_reads_its_arguments_with_basics_routines(m):
    install(m, ARGUMENTS)
    assert typed(m, '!*5:PRINT "X"')[1] == "*****X"
    assert typed(m, "A=3:!*A*2 :PRINT 1")[1] == "****** 1"
    assert typed(m, "!49152+256,7:PRINT PEEK(49408)")[1] == " 7"
    assert typed(m, "10 !*2:! 49408, 9 :PRINT PEEK(49408)", "RUN")[2] == "** 9"


@pytest.mark.parametrize("line, error", [("!*300", "?ILLEGAL QUANTITY  ERROR"), ("!1024", "?SYNTAX  ERROR"),
                                         ("!1024,1+", "?SYNTAX  ERROR"), ('!*"A"', "?TYPE MISMATCH  ERROR")])
def test_an_argument_basic_refuses_is_basics_error(m, line, error):
    install(m, ARGUMENTS)
    assert typed(m, line) == [line, "", error, "READY."]


def test_a_direct_lines_end_is_newstts_a_zero_with_a_zero_two_bytes_on(m):
    # NEWSTT reads a line's link at the zero ending a direct line: a program (a wedge, an
    # ICRNCH hook) that leaves BUF otherwise gets the ROM's reading -- here BUF holds, past
    # POKE520,1's zero ($0209), line 0: PRINT 1; the POKE makes its "link" not zero
    typed(m, "10 FOR I=522 TO 527:READ B:POKE I,B:NEXT", "20 DATA 0,153,49,0,0,0", "RUN")
    assert typed(m, "POKE520,1") == ["POKE520,1", " 1", "", "READY."]
    assert typed(m, "POKE520,0") == ["POKE520,0", "", "READY."]


# A wedge with a string argument: "@string" prints it and a "/" (FRMEVL, FRESTR).
STRING_ARGUMENT = """
        lda #<wedge
        sta $0308
        lda #>wedge
        sta $0309
        rts
wedge:  jsr $0073
        cmp #$40            ; "@"
        beq at
        jsr $0079
        jmp $a7e7
at:     jsr $0073
        jsr $ad9e           ; FRMEVL
        jsr $b6a3           ; FRESTR: A its length, X/Y its address
        stx $fb
        sty $fc
        tax
        beq done
        ldy #0
loop:   lda ($fb),y
        jsr $ffd2
        iny
        dex
        bne loop
done:   lda #$2f            ; "/"
        jsr $ffd2
        jmp $a7ae
"""


def test_a_wedge_reads_a_string_with_frmevl_and_frestr(m):
    install(m, STRING_ARGUMENT)
    assert typed(m, '@"HELLO":PRINT 1')[1] == "HELLO/ 1"
    assert typed(m, 'A$="AB":@A$+"C"+CHR$(68)')[1] == "ABCD/"
    assert typed(m, '@""')[1] == "/"
    assert typed(m, "@1")[1:] == ["", "?TYPE MISMATCH  ERROR", "READY."]
    assert typed(m, '10 @MID$("XYZ",2):@LEFT$(A$,1)', "RUN")[2] == "YZ//"
    assert typed(m, "PRINT PEEK(22)")[1] == " 25"           # TEMPPT: FRESTR freed the descriptor


def test_hooked_vectors_take_the_roms_time(m):
    # jiffies of 2,000 loops, measured on the genuine ROMs: 489 plain, 491 with the IGONE
    # counter hooked, 494 with IEVAL's too (the hooks' own 6502 code included)
    m.load_prg(assemble(".word $c000\n.org $c000\n" + COUNTERS))
    typed(m, "10 T=TI:FOR I=1 TO 2000:A=A+1:NEXT", "20 PRINT TI-T")
    for sys, genuine in ((None, 489), ("SYS 49152", 491), ("SYS 49155", 494)):
        if sys:
            typed(m, sys)
        jiffies = int(typed(m, "RUN")[1])
        assert abs(jiffies - genuine) <= 2, (sys, jiffies)
