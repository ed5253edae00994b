"""Benchmark: the C64 cycles BASIC statements take here against the genuine ROMs'.

    python tests/bench/bench_basic_time.py
    python tests/bench/bench_basic_time.py --corpus     # the programs of tests/bench/basic_corpus, whole

Each program runs on a fresh machine with the timer interrupt off (a line 0 `POKE
56333,127` is put before it), and the cycles from its first statement to its END are
counted: here from the interpreter's charges, the "genuine" column measured the same way
on the genuine ROMs (KERNAL 901227-03 / BASIC 901226-01 on this project's cycle-exact
CPU, cycles from the first GONE after the POKE to the last).  What a program spends in
the math package (kernal/basic/meter.py) and in CHROUT (the KERNAL's) is part of both
totals, so the PRINT and math cases show those too.  ratio = here / genuine (> 1: slower
than a C64).  The last two columns are the interpreter's own part, what is left when
the math package's and CHROUT's cycles are taken out of both (here: what mbf.METER and
the KERNAL's CHROUT charged).
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

from tests.kernal.basic_cycles_helpers import statement_cycles  # noqa: E402

# name, program, genuine cycles in all, and of them in the math package's routines (from
# their entries to their RTS: FADDT, FSUBT, FMULTT, FDIVT, FPWRT, FCOMP, MOVFM, MOVMF, FIN,
# FOUT, FLOAT, GIVAYF, QINT, INT, AYINT, GETADR, CONINT, SGN, ABS, the functions) and in CHROUT --
# measured on the genuine ROMs (see above)
CASES = [
    ("empty FOR/NEXT x2000", "10 FOR I=1 TO 2000:NEXT\n20 END", 1931063, 1011237),
    ("PRINT I;\"ABC\"; x100", "10 FOR I=1 TO 100:PRINT I;\"ABC\";:NEXT\n20 END", 1227171, 961224),
    ("SIN, SQR, EXP, / and * x20", "10 FOR I=1 TO 20:A=SIN(I)*SQR(I)+EXP(I/10)/3:NEXT\n20 END", 2174066, 2068108),
    ("STR$, MID$, LEFT$, + x100", "10 FOR I=1 TO 100:A$=STR$(I):B$=MID$(A$,2)+LEFT$(A$,1):NEXT\n20 END", 1782029, 1049119),
    ("array element update x50", "10 DIM A(50):FOR I=1 TO 50:A(I)=A(I-1)+I:NEXT\n20 END", 453708, 155124),
    ("GOSUB/RETURN with IF x100", "10 FOR I=1 TO 100:GOSUB 30:NEXT:END\n30 IF I>50 THEN A=A+1\n40 RETURN", 708904, 327450),
    ("string GC storm (FRE, 60 strings)",
     "10 DIM A$(60)\n20 FOR I=1 TO 60:A$(I)=STR$(I):NEXT\n30 X=FRE(0)\n"
     "40 FOR I=1 TO 60:A$(I)=A$(I)+\"Z\":NEXT\n50 X=FRE(0)\n60 END", 1857504, 575740),
    ("GOTO/GOSUB to a far line x30",
     "10 FOR I=1 TO 30\n20 GOSUB 500\n30 GOTO 40\n40 NEXT\n45 END\n"
     + "".join("%d REM\n" % n for n in range(50, 170, 10)) + "500 A=A+1:RETURN", 197639, 53711),
    ("deep FOR (six levels)",
     "10 FOR A=1 TO 2:FOR B=1 TO 2:FOR C=1 TO 2:FOR D=1 TO 2\n20 FOR E=1 TO 3:FOR F=1 TO 3:NEXT:NEXT\n"
     "30 NEXT D,C,B,A\n40 END", 480784, 224641),
    ("DEF FN x50", "10 DEF FNA(X)=X*2+1\n20 DEF FNB(Y)=FNA(Y)+Y\n30 FOR I=1 TO 50\n40 Z=FNA(I)+FNB(I)\n50 NEXT\n60 END",
     884026, 374611),
    ("variables far down the table x50",
     "10 A=1:B=2:C=3:D=4:E=5:F=6:G=7:H=8:J=9:K=10:L=11:M=12:N=13:O=14:P=15:Q=16:R=17\n"
     "20 FOR I=1 TO 50\n30 Z=A+R\n40 Y=Q\n50 NEXT\n60 END", 381299, 86132),
    ("READ/DATA x30",
     "10 FOR I=1 TO 30\n20 READ A,B$\n30 NEXT\n40 RESTORE\n50 FOR I=1 TO 10:READ X,X$:NEXT\n60 END\n"
     "100 DATA 1,A,2,B,3,C,4,D,5,E,6,F,7,G,8,H,9,I,10,J\n110 REM HELLO\n"
     "120 DATA 11,K,12,L,13,M,14,N,15,O,16,P,17,Q,18,R,19,S,20,T\n"
     "130 DATA 21,U,22,V,23,W,24,X,25,Y,26,Z,27,A,28,B,29,C,30,D", 180316, 80546),
    ("IF/GOTO loop x100", "10 K=0\n20 K=K+1\n30 IF K<100 THEN 20\n40 IF K=100 THEN K=0\n50 IF K<>0 GOTO 20\n60 END",
     788154, 441415),
    ("spaces in the text x50", "10 FOR I = 1 TO 50\n20 A = A + 1   :   B = A  *  2\n30 NEXT   I\n40 END", 398413, 190873),
    ('ON GOTO x50', '10 FOR I=1 TO 50:K=I-INT(I/3)*3+1\n20 ON K GOTO 30,40,50\n30 A=1:GOTO 60\n40 A=2:GOTO 60\n50 A=3\n60 NEXT\n70 END', 798335, 446443),
    ('string comparison x50', '10 A$="APPLE":B$="APRIL"\n20 FOR I=1 TO 50:IF A$<B$ THEN C=C+1\n30 IF A$=B$ THEN D=D+1\n40 NEXT\n50 END', 442808, 121362),
    ('PRINT TAB, SPC and commas x5', '10 PRINT CHR$(147);\n20 FOR I=1 TO 5:PRINT TAB(3);"A";SPC(4);"B","C",I:NEXT\n30 END', 152158, 120386),
    ('POKE/PEEK x50', '10 FOR I=1 TO 50:POKE 49152,I:A=PEEK(49152)+PEEK(I):NEXT\n20 END', 842365, 643527),
    ('integer variables x50', '10 FOR I=1 TO 50:A%=I:B%=A%*2+1:C%=B%/3:NEXT\n20 END', 666340, 393850),
    ('FOR with STEP', '10 FOR I=100 TO 1 STEP -0.5:NEXT\n20 FOR J=1 TO 300 STEP 7:NEXT\n30 END', 281308, 165494),
    ('nested GOSUB x30', '10 FOR I=1 TO 30:GOSUB 100:NEXT\n20 END\n100 GOSUB 200:RETURN\n200 GOSUB 300:RETURN\n300 A=A+1:RETURN', 230761, 53700),
    ('a long REM skipped x50', '10 FOR I=1 TO 50:GOSUB 30:NEXT\n20 END\n30 REM ABCDEFGHIJABCDEFGHIJABCDEFGHIJABCDEFGHIJABCDEFGHIJABCDEFGHIJ\n40 RETURN', 185820, 28932),
    # keys typed after RUN (in the keyboard buffer when the program starts, as on the genuine side)
    ('GET, no key x50', '10 FOR I=1 TO 50:GET A$:NEXT\n20 END', 120420, 28932),
    ('GET with HELLO typed x8', '10 FOR I=1 TO 8:GET A$:IF A$<>"" THEN PRINT A$;\n20 NEXT\n30 END', 46956, 9014,
     "HELLO"),
    ('INPUT with answers typed', '10 INPUT "NAME";N$\n20 INPUT A,B\n30 PRINT N$;A+B\n40 END', 25649, 13796,
     "BO{return}3,4{return}"),
]


def cycles_here(source, keys=""):
    """C64 cycles from the first statement after the POKE to the last one (END): (all,
    the math package's and CHROUT's) -- tests/kernal/basic_cycles_helpers' figures summed."""
    rows = statement_cycles(source, keys)
    total = sum(cycles for _, cycles, _ in rows)
    return total, total - sum(own for _, _, own in rows)


# The programs of tests/bench/basic_corpus run whole (--corpus): every statement and function
# of BASIC V2 among them.  Genuine cycles from the first statement after the POKE to the last
# one's start, in all and in the math package and CHROUT, measured on the genuine ROMs as above.
CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "basic_corpus")
CORPUS_GENUINE = {
    "arrays.bas": (745610, 390567), "b64array.bas": (1065017, 513672), "b64gosub.bas": (181252, 44127),
    "b64goto.bas": (156166, 44127), "b64if.bas": (227884, 96087), "b64string.bas": (404706, 144964),
    "data.bas": (145875, 68032), "deepfor.bas": (480784, 224641), "farjump.bas": (197639, 53711),
    "fn.bas": (884026, 374611), "forempty.bas": (456432, 241483), "gc.bas": (1857504, 575740),
    "gc30.bas": (480668, 250725), "gc60.bas": (1089756, 491441), "gosub.bas": (628294, 248223),
    "gotoif.bas": (788154, 441415), "let.bas": (930485, 422303), "math.bas": (3131484, 2910887),
    "micro.bas": (947086, 266126), "peekpoke.bas": (1262864, 1011159), "pin.bas": (82154, 32715),
    "pin2.bas": (17579, 3359), "print.bas": (426459, 308299), "spaces.bas": (398413, 190873),
    "strings.bas": (1650733, 753848), "vars.bas": (381299, 86132),
}


def corpus_cases():
    for name in sorted(CORPUS_GENUINE):
        with open(os.path.join(CORPUS, name), encoding="ascii") as f:
            yield (name, f.read(),) + CORPUS_GENUINE[name]


def table(cases, title):
    print("%-36s %10s %10s %6s   %10s %10s %6s" % (title, "here", "genuine", "ratio",
                                                  "BASIC here", "genuine", "ratio"))
    ratios, own = [], []
    for name, source, genuine, genuine_other, *keys in cases:
        here, here_other = cycles_here(source, *keys)
        mine, theirs = here - here_other, genuine - genuine_other
        ratios.append(here / genuine)
        own.append(mine / theirs)
        print("%-36s %10d %10d %6.3f   %10d %10d %6.3f" % (name, here, genuine, here / genuine,
                                                          mine, theirs, mine / theirs))
    worst = max(abs(r - 1) for r in ratios)
    print("mean ratio %.3f over %d programs (range %.3f-%.3f); the interpreter's own part %.3f (%.3f-%.3f)" % (
        sum(ratios) / len(ratios), len(ratios), min(ratios), max(ratios), sum(own) / len(own), min(own), max(own)))
    print("every case within %.1f%%" % (100 * worst))


def main(argv):
    if argv not in ([], ["--corpus"]):
        raise SystemExit("usage: bench_basic_time.py [--corpus]")
    if argv:
        table(corpus_cases(), "program (tests/bench/basic_corpus)")
    else:
        table(CASES, "BASIC program")


if __name__ == "__main__":
    main(sys.argv[1:])
