"""VIC-II raster interrupts reach a program through ($0314), once a frame at the compare line."""

from c64.machine import C64, StopReason
from tests.conftest import assemble

RASTER_IRQ = """
        .org $C000
        sei
        lda #$7F                ; CIA1 interrupts off
        sta $DC0D
        lda $DC0D
        lda #<hook
        sta $0314
        lda #>hook
        sta $0315
        lda #100                ; raster line 100
        sta $D012
        lda #$1B                ; compare bit 8 = 0
        sta $D011
        lda #$01                ; raster interrupt on
        sta $D01A
        cli
wait:   lda $C100
        cmp #5
        bne wait
        sei
        lda #0
        sta $D01A
        rts
hook:   lda #$01                ; acknowledge the raster interrupt
        sta $D019
        inc $C100
        lda $D012
        sta $C101               ; the line the handler ran on
        jmp $EA81
"""


def test_a_raster_interrupt_through_0314_comes_once_a_frame_at_its_line():
    m = C64()
    for i, byte in enumerate(assemble(RASTER_IRQ)):
        m.poke(0xC000 + i, byte)
    m.poke(0xC100, 0)
    m.start(0xC000)
    assert m.run(max_cycles=10 * 312 * 63) is StopReason.BASIC
    assert m.peek(0xC100) == 5
    assert m.peek(0xC101) in (100, 101)
    assert 4 * 312 * 63 < m.cycles < 6 * 312 * 63
