10 FOR I = 1 TO 50
20 A = A + 1   :   B = A  *  2
30 NEXT   I
40 END
