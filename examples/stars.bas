10 PRINT "{clr}{wht}A TYPE-IN FROM A BOOK"
20 FOR I=1 TO 5
30 PRINT TAB(I);"{rvon}{yel} * {rvof}{lblu}";I
40 NEXT
50 PRINT "{down}DONE"
