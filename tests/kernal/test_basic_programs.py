"""Classic BASIC type-in exercises run to their known output.

Each program's expected output follows from the C64's documented number
format (leading space or minus, a cursor right after each number, nine
significant digits, E+nn from 1E9 up) and from the arithmetic itself; none
comes from running a Commodore ROM.
"""

import pytest

from c64.machine import C64, StopReason
from kernal.basic import crunch


def run_program(source, keys=""):
    """Store the program's lines, type RUN (and keys), return the screen rows after RUN."""
    machine = C64(sid_seed=1)
    machine.run(2_000_000)
    for line in source.strip().splitlines():
        number, _, text = line.strip().partition(" ")
        machine.basic.store_line(int(number), crunch(text.encode("latin-1")))
    machine.type("RUN{return}" + keys)
    for _ in range(100):
        reason = machine.run(50_000_000)
        assert reason is not StopReason.ERROR, machine.error
        if reason is StopReason.IDLE:
            break
    rows = [row.rstrip() for row in machine.screen_lines()]
    while rows and not rows[-1]:
        rows.pop()
    index = max(i for i, row in enumerate(rows) if row == "RUN")
    return rows[index + 1:]


PROGRAMS = {
    "fibonacci": ("""
10 A=1:B=1
20 FOR I=1 TO 10
30 PRINT A;
40 C=A+B:A=B:B=C
50 NEXT I
""", [" 1  1  2  3  5  8  13  21  34  55", "READY."]),      # after a ';' READY.'s RETURN ends the row
    "sum of 1 to 100": ("""
10 S=0
20 FOR I=1 TO 100:S=S+I:NEXT
30 PRINT "SUM =";S
""", ["SUM = 5050", "", "READY."]),
    "primes below 50 (sieve)": ("""
10 DIM P(50)
20 FOR I=2 TO 50
30 IF P(I) THEN 60
40 PRINT I;:IF I*I>50 THEN 60
50 FOR J=I*I TO 50 STEP I:P(J)=1:NEXT J
60 NEXT I
""", [" 2  3  5  7  11  13  17  19  23  29  31", " 37  41  43  47", "READY."]),
    "factorials": ("""
10 F=1
20 FOR N=1 TO 13
30 F=F*N
40 NEXT
50 PRINT "10! =";F/13/12/11;"13! =";F
""", ["10! = 3628800 13! = 6.2270208E+09", "", "READY."]),
    "powers of two": ("""
10 P=1
20 FOR I=1 TO 31:P=P*2:NEXT
30 PRINT P;P/2147483648;1/P
""", [" 2.14748365E+09  1  4.65661287E-10", "", "READY."]),
    "multiplication table": ("""
10 FOR I=1 TO 4
20 FOR J=1 TO 4
30 PRINT TAB(J*4);I*J;
40 NEXT J
50 PRINT
60 NEXT I
""", ["     1   2   3   4", "     2   4   6   8", "     3   6   9   12",
      "     4   8   12  16", "", "READY."]),
    "bubble sort of DATA": ("""
10 DIM A(7)
20 FOR I=1 TO 7:READ A(I):NEXT
30 FOR I=1 TO 6:FOR J=1 TO 7-I
40 IF A(J)>A(J+1) THEN T=A(J):A(J)=A(J+1):A(J+1)=T
50 NEXT J,I
60 FOR I=1 TO 7:PRINT A(I);:NEXT
70 DATA 64,-3,17,0,2.5,99,8
""", ["-3  0  2.5  8  17  64  99", "READY."]),
    "string reversal": ("""
10 A$="COMMODORE 64"
20 B$=""
30 FOR I=LEN(A$) TO 1 STEP -1
40 B$=B$+MID$(A$,I,1)
50 NEXT
60 PRINT B$
""", ["46 ERODOMMOC", "", "READY."]),
    "decimal to binary": ("""
10 N=201:B$=""
20 B$=CHR$(48+N-INT(N/2)*2)+B$
30 N=INT(N/2):IF N>0 THEN 20
40 PRINT B$
""", ["11001001", "", "READY."]),
    "greatest common divisor": ("""
10 A=1071:B=462
20 IF B=0 THEN 50
30 T=B:B=A-INT(A/B)*B:A=T
40 GOTO 20
50 PRINT "GCD";A
""", ["GCD 21", "", "READY."]),
    "collatz 27": ("""
10 N=27:S=0:M=N
20 IF N=1 THEN 60
30 IF N/2=INT(N/2) THEN N=N/2:GOTO 50
40 N=3*N+1
50 S=S+1:IF N>M THEN M=N
55 GOTO 20
60 PRINT S;M
""", [" 111  9232", "", "READY."]),
    "celsius to fahrenheit": ("""
10 FOR C=-40 TO 100 STEP 35
20 PRINT C;C*9/5+32
30 NEXT
""", ["-40 -40", "-5  23", " 30  86", " 65  149", " 100  212", "", "READY."]),
    "star triangle with spc": ("""
10 FOR I=1 TO 4
20 PRINT SPC(4-I);LEFT$("*******",2*I-1)
30 NEXT
""", ["   *", "  ***", " *****", "*******", "", "READY."]),
    "subroutines and on gosub": ("""
10 FOR I=1 TO 3
20 ON I GOSUB 100,200,300
30 NEXT
40 END
100 PRINT "ONE";:RETURN
200 PRINT "TWO";:RETURN
300 PRINT "THREE":RETURN
""", ["ONETWOTHREE", "", "READY."]),
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_classic_program_prints_its_known_output(name):
    source, expected = PROGRAMS[name]
    assert run_program(source) == expected


def test_number_guessing_game_answers_too_high_and_too_low():
    source = """
10 N=37:T=0
20 INPUT "GUESS";G
30 T=T+1
40 IF G>N THEN PRINT "TOO HIGH":GOTO 20
50 IF G<N THEN PRINT "TOO LOW":GOTO 20
60 PRINT "RIGHT IN";T;"TRIES"
"""
    rows = run_program(source, "50{return}25{return}37{return}")
    assert rows == ["GUESS? 50", "TOO HIGH", "GUESS? 25", "TOO LOW", "GUESS? 37",
                    "RIGHT IN 3 TRIES", "", "READY."]


@pytest.mark.slow
def test_byte_sieve_finds_1899_primes():
    """BYTE magazine's sieve benchmark (1981), integer array version, for 8191 flags."""
    source = """
10 S=8190:DIM F%(8191):N=0
20 FOR I=0 TO S:F%(I)=1:NEXT
30 FOR I=0 TO S:IF F%(I)=0 THEN 70
40 P=I+I+3:K=I+P
50 IF K<=S THEN F%(K)=0:K=K+P:GOTO 50
60 N=N+1
70 NEXT I
80 PRINT N;"PRIMES"
"""
    assert run_program(source) == [" 1899 PRIMES", "", "READY."]
