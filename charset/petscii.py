"""PETSCII <-> C64 screen codes, as the KERNAL screen editor converts them.

Source: the KERNAL screen editor's rules for quote and insert mode, for
CHROUT (PETSCII -> screen code, routine prt) and for CHRIN from the screen
(screen code -> PETSCII); docs/c64.md, "Screen editor".  The tables below
are computed once from those bit rules, not typed in by hand.
"""

from __future__ import annotations


def is_control(code: int) -> bool:
    """True for PETSCII control codes ($00-$1F, $80-$9F)."""
    return (code & 0x7F) < 0x20


def _chrout_screen_code(code: int) -> int | None:
    """Ref 2.3: the editor's rule, `<$60: AND #$3F`, `$60-$7F: AND #$DF`,
    `>=$80: AND #$7F, $7F->$5E, ORA #$40` (so $FF prints as pi, sc $5E)."""
    if is_control(code):
        return None
    if code < 0x60:
        return code & 0x3F
    if code < 0x80:
        return code & 0xDF
    low = code & 0x7F
    if low == 0x7F:
        low = 0x5E
    return low | 0x40


def _chrin_petscii(sc: int, in_quotes: bool) -> int:
    """Ref 2.6: `A = sc & $3F; if sc&$40: A |= $80; if sc&$20 == 0 and not
    (sc&$80 and in quotes): A |= $40`, then $DE (pi) is returned as $FF."""
    a = sc & 0x3F
    if sc & 0x40:
        a |= 0x80
    if not sc & 0x20 and not (sc & 0x80 and in_quotes):
        a |= 0x40
    return 0xFF if a == 0xDE else a


# PETSCII 0-255 -> screen code 0-127, or None for control codes (ref 2.3).
PETSCII_TO_SCREEN: tuple[int | None, ...] = tuple(_chrout_screen_code(c) for c in range(256))

# Screen code 0-255 -> PETSCII as CHRIN returns it outside quotes (ref 2.6).
SCREEN_TO_PETSCII: bytes = bytes(_chrin_petscii(sc, False) for sc in range(256))

# Same inside quotes: reversed screen codes come back as control codes.
SCREEN_TO_PETSCII_QUOTED: bytes = bytes(_chrin_petscii(sc, True) for sc in range(256))


def _canonical(sc: int) -> int:
    """Ref 6.1 canonical inverse, PRG appendix convention ("192-223 same as
    96-127", "224-254 same as 160-190"): sc $00-$1F -> $40-$5F,
    $20-$3F -> same, $40-$5F -> $60-$7F, $60-$7F -> $A0-$BF."""
    sc &= 0x7F
    if sc < 0x20:
        return sc | 0x40
    if sc < 0x40:
        return sc
    if sc < 0x60:
        return sc | 0x20
    return sc + 0x40


# Screen code 0-255 -> canonical PETSCII; reverse video (bit 7) is dropped.
SCREEN_TO_PETSCII_CANONICAL: bytes = bytes(_canonical(sc) for sc in range(256))


def petscii_to_screen(code: int) -> int | None:
    """Screen code (0-127) CHROUT puts on screen for PETSCII *code*.

    None for control codes ($00-$1F, $80-$9F).  RVS ON is not applied here:
    the editor ORs $80 in itself when $C7 is set.
    """
    return PETSCII_TO_SCREEN[code]


def screen_to_petscii(sc: int, in_quotes: bool = False) -> int:
    """PETSCII that CHRIN reads back for screen code *sc* (0-255).

    Includes the ROM's final rule that a read-back $DE (pi, sc $5E or $DE
    outside quotes) is returned as $FF.  With *in_quotes* (the editor's
    quote flag while it reads the line), reversed codes $80-$9F and $C0-$DF
    come back as control codes $00-$1F and $80-$9F, undoing quote_mode_screen.
    Shifted letters/graphics come back as $C0-$DF, not $60-$7F.
    """
    return (SCREEN_TO_PETSCII_QUOTED if in_quotes else SCREEN_TO_PETSCII)[sc]


def screen_to_petscii_canonical(sc: int) -> int:
    """Canonical PETSCII for screen code *sc* (ref 6.1; reverse bit ignored).

    Unlike CHRIN it picks $60-$7F for sc $40-$5F and $A0-$BF for sc
    $60-$7F, and gives $7E for pi (sc $5E).  petscii_to_screen() of the
    result is always sc & $7F.
    """
    return SCREEN_TO_PETSCII_CANONICAL[sc]


def quote_mode_screen(code: int) -> int | None:
    """Screen code shown for control *code* printed in quote or insert mode.

    Ref 2.2: $00-$1F -> code | $80 (reverse @A...), $80-$9F ->
    ((code & $7F) | $40) | $80 (reverse graphics); e.g. CLR $93 -> $D3
    (reverse heart), white $05 -> $85 (reverse E).  None for codes that
    are not control codes.  Which control codes still *act* in these modes
    ($0D, $8D; DEL in quote mode; INST) is the editor's decision, not
    this function's.
    """
    if not is_control(code):
        return None
    if code < 0x80:
        return code | 0x80
    return (code & 0x7F) | 0x40 | 0x80
