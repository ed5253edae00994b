"""The emulated Commodore 64: memory map, CPU, I/O chips, loader and front ends.

Import direction: front ends -> machine -> CPU/memory/chips.  Nothing in
this package imports curses except the terminal front end.
"""
