"""The host side: what RYG64 does on the computer it runs on, outside the emulated C64.

The files a person names or the program keeps (`files`: read bounded, written without
following a link), the settings that stay between runs (`settings`), the log
(`logfile`), pictures of the C64 screen (`screenshot`, with the PNG format in
`pngwrite`), and the host's signals turned into a clean exit (`signals`).  The front
ends (ryg.py, c64.headless, c64.terminal), the loader and the monitor use them; these
modules import nothing else of c64 (tests/project/test_layout.py), so the machine and
the KERNAL stay free of the host's concerns.
"""
