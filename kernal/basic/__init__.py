"""BASIC V2 without a ROM: the direct mode (direct.py), the 5-byte float (mbf.py) and its
functions (series.py) with the cycles their routines take (meter.py), the tokeniser and
lister (tokens.py) and the interpreter (interpreter.py)."""

from kernal.basic.direct import KEYWORDS, TOKEN, Basic, BasicError, crunch, detokenise  # noqa: F401
