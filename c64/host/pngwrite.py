"""A PNG file of a picture of a few colours, with the standard library's zlib.

A PNG (RFC 2083) is a signature and chunks: IHDR (size, kind), PLTE (the colours), iTXt
(text: a title, a description), IDAT (the rows, each a filter byte then one palette index
per pixel, deflated) and IEND; each chunk ends with the CRC-32 of its type and data.  A screenshot has at most 16 colours, so
an indexed picture with 8-bit indices and filter 0 (None) is enough: zlib finds the
repeats (rows drawn twice at scale 2, runs of border), and the files stay small.  Writing
those four chunks takes fewer lines than a dependency would add to every install.
"""

import struct
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"
INDEXED = 3                       # IHDR colour type: palette indices


def chunk(kind, data):
    """One chunk: length, type, data, CRC-32 of type and data."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def text_chunk(keyword, text):
    """An iTXt chunk: a keyword (Latin-1, e.g. Title, Description) and UTF-8 text, uncompressed."""
    return chunk(b"iTXt", keyword.encode("latin-1") + b"\x00\x00\x00\x00\x00" + text.encode("utf-8"))


def indexed_png(rows, palette, texts=()):
    """The PNG file (bytes) of `rows` (equal-length sequences of indices into `palette`,
    a list of at most 256 (r, g, b)), with `texts` ((keyword, text) pairs) before the pixels."""
    height, width = len(rows), len(rows[0])
    if not 1 <= len(palette) <= 256 or any(len(row) != width for row in rows):
        raise ValueError("a PNG needs 1..256 colours and rows of one length")
    header = struct.pack(">IIBBBBB", width, height, 8, INDEXED, 0, 0, 0)
    raw = b"".join(b"\x00" + bytes(row) for row in rows)
    return (SIGNATURE + chunk(b"IHDR", header) + chunk(b"PLTE", b"".join(bytes(rgb) for rgb in palette))
            + b"".join(text_chunk(keyword, text) for keyword, text in texts)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))
