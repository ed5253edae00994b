"""The C64 cycles BASIC V2's ROM spends outside the math package: the interpreter's cost model.

Each figure is what a path of the ROM (BASIC 901226-01) takes, from the instructions it
runs.  What depends on the data is counted as the ROM's loops run: CHRGET per byte of text
and per space it skips, PTRGET per character of a name and per variable passed, FNDLIN per
line passed, FNDFOR per frame, the array search, REMN/DATAN per byte skipped, MOVINS per
byte copied, GARBAG per descriptor looked at.  The math package (FADD, FMULT, FDIV, FIN,
FOUT, QINT, the functions: kernal.basic.meter) charges from a routine's entry to its RTS;
what is here is around those calls.  CHROUT's own cycles are the KERNAL's
(kernal.basic.program_text.out).

Counted off the listing, path by path: the main loop (NEWSTT, GONE, GONE3), CHRGET where
it lands (each byte of the text once; the statement's end where the ROM's PTRGET, SYNCHR,
GONE3 or PRINT reads it; the first byte of each expression twice, FRMEVL stepping back),
FRMEVL for one operand, EVAL on a variable (ISVAR), a literal (STRLIT), a number's way to
FIN, PTRGET, the strings freed (FRESTR, FRETMP, FRETMS), PRINT's loop, NEXT with and
without its variable, the line a GOTO lands in, INPUT (QINLIN, INLIN, INLOOP and its
fields, ??, ?REDO FROM START, ?EXTRA IGNORED).  LET's own (60), a string's store (49), an
INPUT field's STRLT2 and TI / TI$'s fixed parts are the genuine ROMs' cycles measured less
the counted parts (TIMELP's and FOUTIM's loops and NORMAL are charged by the value).

Still fitted (least squares over the statements of tests/bench/basic_corpus against the
genuine ROMs KERNAL 901227-03 / BASIC 901226-01, cycles from one GONE to the next,
interrupts off), because their paths branch on what the operands are and are not yet
followed one by one: the other statements' entries (STATEMENT_ENTRY and STATEMENTS: FOR,
IF, ON, DIM, READ, DEF, POKE, GET, GOSUB, RETURN, RESTORE, END, REM), a binary operator's
LPOPER/DOPRE1/PUSHF/PULSTK (OPERATOR, RELATION, LOGICAL, NOT, NEGATE), EVAL's other
operands and ISFUN (EVAL, FUNCTION), a string made (NEW_STRING, CONCAT, STRING_COMPARE),
the arrays (ARRAY, ARRAY_DIMENSION, ARRAY_CREATE), FN, READ's item, a variable made
(VAR_CREATE).
"""

from kernal.basic.definitions import (T_ABS, T_ASC, T_CHR, T_DATA, T_DEF, T_DIM, T_END, T_EXP, T_FOR, T_FRE, T_GET,
                                      T_GOSUB, T_INPUT, T_GOTO, T_IF, T_INT, T_LEFT, T_LEN, T_MID, T_NEXT, T_ON, T_PEEK,
                                      T_POKE, T_PRINT, T_READ, T_REM, T_RESTORE, T_RETURN, T_RIGHT, T_RND, T_SGN,
                                      T_SIN, T_SQR, T_STR, T_VAL, T_LOG, T_COS, T_TAN, T_ATN)

# -- the main loop -------------------------------------------------------------------------------------
# NEWSTT ($A7AE) to GONE ($A7E1) with a colon: ISCNTC -> STOP ($FFE1, JMP ($0328) -> $F6ED,
# no key: 43), OLDTXT saved, the colon tested (33); GONE's JMP (IGONE), JSR GONE3, GONE3's
# dispatch to the statement's address pushed (28), its JMP CHRGET (3 less than the 40 or 29
# the text's byte is charged), and the statement's RTS, JMP NEWSTT: 121, counted off the
# listing.  STATEMENT_ENTRY is what the statements whose paths are not yet followed one by
# one spend besides (fitted to the genuine ROMs' cycles; PRINT's path is followed: none).
STATEMENT = 121
STATEMENT_ENTRY = 60
# LET ($A9A5) besides its PTRGET, SYNCHR's CHRGET, FRMEVL and the store: GONE3's way to it for a
# letter, the address into FORPNT, SYNCHR's own, INTFLG and VALTYP pushed and pulled, CHKVAL
# (measured on the genuine ROMs: A=B, A=3.5 within 0.4% with it)
LET = 60
LINE = 37                  # a line's start instead of a colon: DIRCN1 (the link, CURLIN, TXTPTR + 4), 52 against 15
# CHRGET ($0073) per byte of text read, by its path: JSR, INC TXTPTR, BNE, LDA, CMP #':',
# BCS taken, RTS -- 29 cycles for a byte >= ':' (a token, a letter); 40 below it (a digit,
# an operator's character, a comma, a quote, the end: the space test and the two SBCs).
# CHRGOT's re-reads of a byte are in the figures of what calls it.  A space costs one more
# turn of the loop (INC, BNE, LDA, CMP, BCS, CMP, BEQ): 21 cycles.
CHRGET_HIGH = 29
CHRGET_LOW = 40
SPACE = 21
# REMN / DATAN ($A909 / $A906): per byte passed (LDA (TXTPTR),Y, two tests, INY, the quote test)
SKIP_BYTE = 19
SKIP_QUOTE = 12            # a quote switches what ends the scan (EXCHQT)
SKIP_COLON = 5             # the scan ended by a colon, not the zero: BEQ not taken, CMP ENDCHR, BEQ taken

# Per statement, what its own code spends beyond the text it reads and the parts below
# (keyed by token; LET's and the others' STATEMENT_ENTRY): FOR's frame pushed, GOSUB's, RETURN's pop, IF's test...
STATEMENTS = {T_END: 60, T_FOR: 587, T_NEXT: 0, T_DATA: 60, T_DIM: 60, T_READ: 230, T_GOTO: 208, T_IF: 64,
              T_RESTORE: 20, T_GOSUB: 305, T_RETURN: 137, T_REM: 96, T_ON: 109, T_DEF: 324, T_POKE: 51, T_PRINT: 0,
              T_GET: 748, T_INPUT: 0}

# -- variables ----------------------------------------------------------------------------------------
# PTRGET ($B08B), counted (the name's CHRGETs are the text's, LOPFND's turns below): its two
# CHRGOTs, ISLETC on the first letter (22) and on the byte after the name (PTRGET_NEXT: 17 below
# 'A', 22 from it on), the type tests, the search set up, FINPTR: 190 and the ISLETC.
PTRGET = 190
PTRGET_NEXT = (17, 22)
NAME_LETTER = 27           # a name's second and later letters: ISLETC (22), BCC / TAX / BCC / BCS
NAME_DIGIT_SECOND = 4      # a digit second: BCC ISSEC taken, TAX, EATEM's tests
NAME_DIGIT = 3             # a digit later on: EATEM's BCC taken
PTRGET_STRING = 20         # a $ or % name: the flag set, one more CHRGET
# LOPFND ($B0F1) per variable passed: 35 cycles a turn (measured on the genuine ROMs), 31 when
# the variable is in another page than ARYTAB (CPX ARYTAB+1 / BNE taken), 13 more when the
# first name byte is the same, 7 more where LOWTR crosses a page (INX, STXFND)
VAR_PASSED = 35
VAR_PASSED_OTHER_PAGE = 31
VAR_NAME_MATCH = 13
VAR_PAGE = 7
VAR_CREATE = 203           # NOTFNS: the arrays moved up by 7 (BLTU, set up), the 7 bytes written
MOVE_BYTE = 16             # BLTU per byte moved
# TI read (PTRGET's search through the whole table, NOTFNS's way to LDZR; ISVAR's GOOOOO: TSTROM, the name tested, GETTIM with the KERNAL's RDTIM, TYA, LDX #160, JMP
# FLOATB, FADFLT's BCS NORMAL; NORMAL's own is charged by the value: kernal.basic.meter.normal_cycles) and
# TI$ read (GETTIM, FOUTIM's six places: its turns charged by the digits; TIMSTR's STRLIT on LOFBUF,
# copied into string space); TI$ set (LET's way to TIMELP and SETTIM; TIMELP's FINLOG, MUL10 and FINML6
# are the math package's, mbf.time_jiffies): the genuine ROMs' cycles measured less the parts charged
# elsewhere (A=TI, B$=TI$, TI$="..." at nine clock values within 0.3%)
READ_TI = 177
READ_TI_STRING = 1152
SET_TI = 463
# EVAL ($AE83) on a variable, counted off BASIC 901226-01 (PTRGET, its LOPFND and the text's
# CHRGETs apart): JMP (IEVAL), NEVAL, EVAL0's JSR CHRGET and BCS EVAL2, JSR ISLETC on the letter
# (22), JMP ISVAR; ISVAR's JSR PTRGET, the address into FACMO, VARNAM into X/Y, the type tests,
# JSR TSTROM (27); then a float's GOOOOO / QSTATV / GOMOVF into MOVFM (MOVFM's 70 are the math
# package's), an integer's GOOO: its two bytes into GIVAYF (the math package's), a string's STRRTS
# with the descriptor's address in FACMO (what uses the string frees it: FRETMP).
FETCH = {"f": 109, "i": 81, "s": 104}
STORE_FLOAT = 0            # LET of a float: COPFLT's JMP MOVVF (MOVMF, ROUND in it, is the math package's)
STORE_INT = 50             # LET of an integer: the two bytes (AYINT is the math package's)
# A string stored (LET's COPSTR, INPUT's and READ's INPCOM): GETSPT's tests, DNTCPY, COPYC and the
# descriptor's three bytes copied, the RTS (49, measured on the genuine ROMs), and COPYC's JSR
# FRETMS: 18 for a variable's string, 32 for the last temporary (it is dropped: TEMPPT, LASTPT).
STORE_STRING = 49
FRETMS = (18, 32)

# -- arrays ---------------------------------------------------------------------------------------------
ARRAY = 339                # ISARY ($B1D1): the subscripts pushed, the header checked, the offset made
ARRAY_DIMENSION = 686      # per subscript: INTIDX, the limit test, UMULT's 16 turns
ARRAY_PASSED = 58          # LOPFDA per array passed
ARRAY_CREATE = 636         # an array made (DIM or the first use)
ARRAY_CLEAR_BYTE = 11      # per byte of a new array zeroed (ZERITA $B2EA: DEY, STA (ARYPNT),Y, BNE)
ARRAY_CLEAR_PAGE = 13      # ... and at each page (DEC, DEC, BNE)

# -- expressions ----------------------------------------------------------------------------------------
# FRMEVL ($AD9E) for one operand, counted: TXTPTR stepped back, LPOPER's pushes, JSR GETSTK
# (28), JSR EVAL; after it TSTOP's JSR CHRGOT (21 on a byte from ':' on, FRMEVL_LOW more below
# it: a comma, a parenthesis, the end of the line), LOPREL / ENDREL / QOP and QOPRTS: 121.
# What an operand's own path spends is the operand's (FETCH, NUMBER, EVAL_LITERAL ...).
FRMEVL = 121
FRMEVL_LOW = 11
EVAL = 120                  # EVAL ($AE83): the other operands' dispatch (fitted: not yet followed one by one)
NUMBER = 21                 # a number: JMP (IEVAL), NEVAL, EVAL0's JSR CHRGET, BCS, JMP FIN (FIN is the
                            # math package's, from its first digit's CHRGET on)
PI = 100                   # pi: its five bytes moved into FAC
OPERATOR = 376             # a binary operator: the precedence test, the left operand pushed (rounded) and popped
RELATION = 129             # DOREL's type tests and the result made -1 or 0 (FCOMP is the math package's)
STRING_COMPARE = 143      # DOREL's STRCMP: both strings freed (FRETMP), the lengths, the result
STRING_COMPARE_BYTE = 20   # STRCMP's loop per byte, to the first that differs
NOT = 378                  # NOT: the operand made an integer and back, its precedence pushed
LOGICAL = 122              # AND, OR, NOT: both operands made integers (AYINT), the result GIVAYF
NEGATE = 328                # unary minus (NEGOP is the math package's)
PAREN = 0                # ( and ): PARCHK's FRMEVL around it
FUNCTION = 88             # ISFUN's dispatch, PARCHK
# per function token, what its own code spends beyond FUNCTION's average dispatch and what is
# counted below (LEN1, FRETMP, CHR_STRING ...): fitted
FUNCTIONS = {T_SGN: -4, T_INT: -39, T_ABS: -4, T_FRE: -46, T_RND: -68, T_PEEK: -2, T_LEN: -25, T_STR: 60,
             T_VAL: 114, T_ASC: -14, T_CHR: -50, T_LEFT: 7, T_RIGHT: 51, T_MID: 98}
FUNCTIONS.update(dict.fromkeys((T_SQR, T_LOG, T_EXP, T_COS, T_SIN, T_TAN, T_ATN), -33))   # the series functions: one
FN_CALL = 310              # FN: the definition found, the argument stored, the parameter saved and restored
# A literal in the text, counted: EVAL's way to STRTXT (the quote's ISLETC, 17), ST2TXT (TXTPTR
# past the closing quote): 92; then JSR STRLIT: STRLIT / STRLT2's set-up (28), the closing quote
# found and STRFIN (20), the end pointer and the page tests (30), PUTNEW's descriptor (63): 141,
# and STRGET's loop per byte before the quote: 20.  FOUT's digits (PRINT of a number) end at a
# zero instead (STRFI1: 12), in page 1: STRING_FOUT.
EVAL_LITERAL = 92
STRING_LITERAL = 141
STRING_FOUT = 133
STRING_LITERAL_BYTE = 20
# LEN, ASC and VAL take their string through LEN1 ($B782: JSR, LDX #0, STX VALTYP, TAY, RTS: 19)
# and FRESTR ($B6A3: its JSR, CHKSTR's JSR and path, FREFAC's LDA/LDY: 35), then FRETMP's own
# (a variable's FRETMP, a temporary's FRETMP_TEMP); LEFT$, RIGHT$ and MID$ free it with
# LDA/LDY DSCPNT, JSR FRETMP (12 and FRETMP's own).
LEN1 = 19 + 35
FRETMP_CALL = 12
NEW_STRING = 291           # GETSPA ($B4F4) and PUTNEW: a string made
STRING_BYTE = 16           # MOVINS per byte copied
# CHR$ ($B6EC) past CONINT (the math package's): TXA, PHA, LDA #1, JSR STRSPA (GETSPA: 81), PLA,
# LDY #0, STA (DSCTMP+1),Y, PLA, PLA, JMP PUTNEW (63), counted off the listing
CHR_STRING = 6 + 2 + 3 + 2 + 81 + 4 + 2 + 6 + 4 + 4 + 3 + 63
CONCAT = 372               # CAT ($B63D): both strings' descriptors, the lengths added

# -- flow ----------------------------------------------------------------------------------------------
ON_PASS = 35               # ON per line number passed: ONGLOP's DEC FACLO / BNE, LINGET's way in and out, the
                           # comma's test (measured on the genuine ROMs: ON 2 and ON 3 take 247 cycles a number more)
LINGET_DIGIT = 75          # LINGET ($A96B) per digit: the number times ten plus the digit (its CHRGET apart)
# FNDLIN ($A613) per line passed: 65 cycles when the line's number has the target's high
# byte, 55 when lower
FNDLIN_LINE = 65
FNDLIN_LINE_LOW = 55
FNDFOR_FRAME = 40          # FNDFOR ($A38A) per FOR frame passed (the variable's address compared)
NEXT = 254                 # NEXT ($AD1E) with a variable: STXFOR, FNDFOR's call, HAVFOR's set-up, the step's CONUPK before
                           # FADDT, MOVVF and FCOMPN called (FADDT, MOVMF and FCOMP are the math package's; fitted)
NEXT_BARE = 3 + 13         # NEXT alone: BNE not taken, LDY #0, BEQ STXFOR (4 more than BNE GETFOR taken), and FNDFOR's
                           # way for no variable (13 more), counted off BASIC 901226-01
                           # called (FADDT, MOVMF and FCOMP are the math package's: FCOMPN 3 cycles short)

NEXT_DONE = 21             # a loop ended: its frame dropped (TSX, ADC #FORSIZ, TXS), CHRGOT for a comma
IF_TRUE = 0                # IF with a true condition: DOCOND's CHRGOT and BCS DOCO, the statement after THEN
                           # adding its own entry (STATEMENTS; fitted)
IF_GOTO = 188              # ... THEN a line number: DOCOND's JMP GOTO and GOTO's own (fitted)

# -- printing and data -----------------------------------------------------------------------------------
# PRINT ($AAA0), counted off the listing.  Its loop re-enters at PRINT (after an item: BEQ
# CRDO) or at PRINTC (after a separator: BEQ PRTRTS), then tests TAB(, SPC(, the comma and
# the semicolon in that order (CMP / BEQ each) before it evaluates an item.
PRINT_START = 2            # PRINT: BEQ CRDO not taken
PRINT_CRDO = 19            # ... taken: CRDO's LDA #13, JSR OUTDO, BIT CHANNL, BPL CRFIN, EOR #$FF
PRINT_DONE = 3             # PRINTC: BEQ PRTRTS taken (the RTS is the statement's)
# The CHRGET that reads the end of the statement (the zero or the colon, which the text's
# charges leave out) is PRINT's to add: CHRGET_LOW or CHRGET_HIGH.
PRINT_TAB, PRINT_SPC, PRINT_COMMA, PRINT_SEMICOLON = 7, 13, 17, 22    # PRINTC's tests to each (BEQ NOTABR
                                                                   # crosses into $AB00's page)
PRINT_ITEM = 20 + 6 + 3    # ... past all four: JSR FRMEVL, BIT VALTYP
PRINT_STRING = 3 + 6       # BMI STRDON, JSR STRPRT
PRINT_NUMBER = 2 + 6 + 6 + 6 + 6 + 3   # BMI not taken, JSR FOUT, JSR STRLIT, JSR STRPRT, JSR OUTSPC, BNE NEWCHR
PRINT_NEXT = 6             # NEWCHR's JSR CHRGOT (CHRGOT's own by the byte it finds: CHRGET's less JSR, INC, BNE)
PRINT_JMP = 3              # NOTABR: JMP PRINTC (its JSR CHRGET is the text's)
# COMPRT (the comma): SEC, JSR PLOT (the KERNAL's $FFF0: JMP PLOT, BCS PLOT10, LDX TBLX, LDY
# PNTR, RTS: 18), TYA, SEC; then SBC #10 / BCS per ten columns; EOR #$FF, ADC #1, BNE ASPAC
# (across a page), TAX
PLOT_READ = 3 + 3 + 3 + 3 + 6
PRINT_COMMA_HEAD = 2 + 6 + PLOT_READ + 2 + 2 + 2 + 2 + 4 + 2
PRINT_COMMA_TENS = 5       # MORCO1's SBC #10 / BCS per turn (the last 4)
# TABER (TAB( and SPC(): PHP, SEC, JSR PLOT, STY TRMPOS, JSR GTBYTC, CMP #')', BNE, PLP, BCC
# XSPAC (SPC( takes it); TAB('s TXA, SBC TRMPOS, BCC NOTABR (taken when the cursor is past it), TAX
PRINT_TABER = 3 + 2 + 6 + PLOT_READ + 3 + 6 + 2 + 2 + 4
PRINT_TAB_TO = (2 + 2 + 3 + 2 + 2, 2 + 2 + 3 + 3)     # spaces to print / none
PRINT_SPC_TO = 3
PRINT_SPACES = 2 + 2 + 2   # XSPAC: INX; at the end XSPAC2's DEX, BNE not taken
PRINT_SPACE = 2 + 3 + 6 + 3   # per space: DEX, BNE XSPAC1, JSR OUTSPC, BNE XSPAC2
OUTSPC = 3 + 3 + 2 + 4     # OUTSPC ($AB3B): LDA CHANNL, BEQ CRTSKP, LDA #29, BIT abs over OUTQST, into OUTDO
# OUTDO ($AB47): JSR OUTCH ($E10C), its JSR $FFD2, BCS, RTS; AND #$FF, RTS: around each
# character; CHROUT's own, from $FFD2's JMP (IBSOUT) on, is the KERNAL's (CHROUT_VECTOR
# the jump, kernal.dispatch's chrout the rest).  The JSR OUTDO is the caller's.
OUTDO = 6 + 6 + 2 + 6 + 2 + 6
CHROUT_VECTOR = 5
# STRPRT ($AB21): JSR FREFAC (LDA/LDY FACMO), TAX, LDY #0, INX; at the end DEX, BEQ PRTRTS,
# RTS.  STRPR2 per character: DEX, BEQ, LDA (INDEX),Y, JSR OUTDO, INY, CMP #13, BNE.
STRPRT = 6 + 3 + 3 + 2 + 2 + 2 + 2 + 3 + 6
STRPRT_CHAR = 2 + 2 + 5 + 6 + 2 + 2 + 3
# FRETMP ($B6AA) on a string: a variable's (FRETMS: CPY LASTPT+1, BNE, RTS; the descriptor
# read; BNE FRETRT; STX, STY, RTS); the last temporary (FRETMS drops it: 14 more, then
# CPY FRETOP+1 ...: the string elsewhere / in FRETOP's page / at FRETOP, given back)
FRETMP = 78
FRETMP_TEMP = (97, 102, 116)
# INPUT ($ABBF), counted off BASIC 901226-01 (the statement's entry, RTS and NEWSTT are STATEMENT's):
# CMP #'"', BNE NOTQTI (taken without a prompt), NOTQTI's JSR ERRDIR (20), LDA #',', STA BUF-1.
INPUT_HEAD = (4, 5)        # with a prompt / without
INPUT_NOTQTI = 20 + 2 + 4
# ... a prompt: JSR STRTXT (STRTXT's own 38, EVAL's way to it not taken: EVAL_LITERAL less), LDA #';', JSR
# SYNCHR (its own besides the CHRGET it jumps to, which is the text's: 12), JSR STRPRT (STRPRT, FRETMP)
INPUT_STRTXT = 38
INPUT_SYNCHR = 2 + 12
INPUT_STRPRT = 6
# QINLIN ($ABF9): LDA CHANNL, BNE, JSR OUTQST (LDA #'?' into OUTDO), JSR OUTSPC, JMP INLIN; INLIN's LDX #0
QINLIN = 3 + 2 + 6 + 2 + 6 + 3 + 2
# INLIN ($A560) per character: JSR INCHR ($E112: JSR $FFCF, BCS, RTS), the KERNAL's JMP (IBASIN) and NBASIN's
# way to the editor (the editor's own is the KERNAL's: kernal.editor_cycles); then CMP #13, BEQ, STA BUF,X,
# INX, CPX #89, BCC INLINC -- or for the RETURN: BEQ FININ1 taken, JMP FININL, FININL's LDA #0, STA BUF,X,
# LDX, LDY, LDA CHANNL, BNE PRTRTS (CRDO after it: PRINT_CRDO and the RTS, or BNE taken to the RTS)
INCHR = 6 + 6 + 5 + 20 + 2 + 6
INLIN_CHAR = 2 + 2 + 5 + 2 + 2 + 3
INLIN_RETURN = 2 + 3 + 3 + 2 + 5 + 2 + 2 + 3
INLIN_END = (2 + 19 + 6, 3 + 6)         # CRDO (PRINT_CRDO) and the RTS / a file's: BNE PRTRTS taken
# GETAGN after QINLIN: LDA CHANNL, BEQ BUFFUL, LDA BUF, BNE INPCON (across a page), INPCON's LDA #0, INPCO1's
# STA INPFLG, STX INPPTR, STY INPPTR+1
INPUT_GETAGN = 3 + 3 + 4 + 4 + 2 + 3 + 3 + 3
# INLOOP ($AC15) per variable, past its JSR PTRGET: FORPNT, VARTXT saved, TXTPTR set to INPPTR (30), JSR CHRGOT
# on the buffer (at the comma before the field: 32), BNE DATBK1; DATBK1's JSR CHRGET onto the field (CHRGET's
# path by the byte, 4 more for the first: TXTPTR crosses from $01FF to $0200), BIT VALTYP, BPL NUMINS
INPUT_ITEM = 30 + 32 + 3 + 3
INPUT_FIRST_FIELD = 4
INPUT_STRING = 2 + 3 + 3 + 3 + 2         # BPL not taken, BIT INPFLG, BVC SETQUT, STA CHARAC, CMP #'"'
INPUT_UNQUOTED = 2 + 2 + 3 + 2 + 2       # BEQ not taken, LDA #':', STA CHARAC, LDA #',', CLC
INPUT_QUOTED = 3                         # BEQ NOWGET taken
INPUT_NOWGET = 3 + 3 + 3 + 2 + 3 + 6 + 6 + 6 + 3   # STA ENDCHR, TXTPTR into A/Y, ADC #0, BCC; JSRs STRLT2, ST2TXT, INPCOM; JMP STRDN2
# A number: BPL NUMINS taken, JSR FIN, LDA INTFLG, JSR QINTGR (BPL COPFLT, JMP MOVVF; MOVMF is the math
# package's): 33 counted, 16 more measured on the genuine ROMs (INPUT A with 3, -7 or 12.5 typed)
INPUT_NUMBER = 3 + 6 + 3 + 21 + 16
# STRDN2 ($AC91): JSR CHRGOT after the field (32), BEQ TRMOK (or BEQ, CMP #',', BEQ); TRMOK: INPPTR saved, VARTXT
# back into TXTPTR (24), JSR CHRGOT on the program's text (CHRGET's path less its JSR, INC, BNE, and the JSR)
INPUT_FIELD_END = (32 + 3, 32 + 2 + 2 + 3)       # the field ended by the line's end / by a comma
INPUT_TRMOK = 24 + 6 - 14
INPUT_NEXT_VAR = 2 + 14 + 3              # BEQ VAREND not taken, JSR CHKCOM (past its CHRGET: the text's), JMP INLOOP
# ... the line used up before the variables (??): INLOOP's CHRGOT finds the zero, BNE not taken, BIT INPFLG,
# BVC QDATA, BMI DATLOP not taken, LDA CHANNL, BNE, JSR OUTQST (LDA #'?'), JSR QINLIN (QINLIN's), DATBK's
# STX/STY TXTPTR; INPUT_ITEM's BNE DATBK1 (3) is not taken
INPUT_MORE = 2 + 3 + 3 + 2 + 3 + 2 + 6 + 2 + 6 - 3
# VAREND ($ACDF): LDA/LDY INPPTR, LDX INPFLG, BPL VARY0, LDY #0, LDA (INPPTR),Y, BEQ INPRTS (nothing left)
INPUT_VAREND = 3 + 3 + 3 + 3 + 3 + 2 + 5 + 3
# A string field: STRLT2 ($B48D) from the field's first byte (STRGET's loop, 20 a byte), the string copied into
# string space (STRCP: STRINI, GETSPA; MOVSTR, 18 a byte), PUTNEW's descriptor, ST2TXT, INPCOM's way to the
# store (the store's own charge, STORE_STRING and FRETMS, apart): the genuine ROMs' cycles measured less the
# counted parts (INPUT N$ with BO, BOBBY and "BO" typed within 0.2% with it)
INPUT_STRLT2 = 353
INPUT_STRLT2_BYTE = 20 + 18
# ... something left: BEQ not taken, LDA CHANNL, BNE, LDA/LDY #EXIGNT, JMP STROUT
INPUT_EXTRA = -1 + 3 + 2 + 2 + 2 + 3
# STROUT ($AB1E) on a message that ends in a RETURN: JSR STRLIT (STRING_LITERAL, 8 less: the zero ends it, and
# its bytes), STRPRT with FRETMP on the temporary, and STRPR2's JSR CRFIN and JMP after the RETURN (16)
STROUT = 6 - 8 + 16
# A field that is not a number: STRDN2's CHRGOT finds neither the end nor a comma (BEQ, CMP #',', BEQ, JMP
# TRMNOK), TRMNOK's LDA INPFLG / BEQ, LDA CHANNL / BEQ DOAGIN, LDA/LDY #TRYAGN, JSR STROUT, OLDTXT into TXTPTR;
# its RTS goes back to NEWSTT, which runs the INPUT again from the start
INPUT_REDO = 32 + 2 + 2 + 2 + 3 + 3 + 3 + 3 + 3 + 2 + 2 + 12
DATA_BYTE = 19             # READ's DATAN search per byte
DATA_STATEMENT = 52        # per statement passed: DATAN's call, ADDON, CHRGOT, the DATA token test
DATA_LINE = 7             # per line passed: its link tested, DATLIN
READ_ITEM = 221            # READ per item: the DATA pointer swapped, the item read
LIST_LINE = 300            # LIST per line: the range test, LINPRT of its number
LIST_CHAR = 40             # per character listed: QPLOP's token test (a keyword's letters from the table)
GARBAG_LOOK = 78           # GARBAG ($B526): DVAR on one string descriptor in one pass (a pass per string kept)
GARBAG_PASS = 420          # a pass's own: FNDVAR's set-up, the temporaries, the tables' ends, GRBPAS's move
GARBAG_VAR = 36            # ... SVAR / DVARS over a simple variable that holds no string, each pass
GARBAG_ARRAY = 11           # ... ARYVA2 over an array's header, each pass
