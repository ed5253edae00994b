"""Read the screenshots back for the tests: an SVG's rectangles and paths, a PNG's chunks,
each into a grid of colours.  Written from the formats (SVG path commands M m H h V v Z z;
PNG chunks, CRC-32, zlib, filter 0), apart from the code that writes them."""

import re
import struct
import xml.etree.ElementTree as ET
import zlib

SVG = "{http://www.w3.org/2000/svg}"
PATH_WORD = re.compile(r"[MmHhVvZz]|-?\d+")


def path_rectangles(d):
    """[(x, y, w, h)] of a path made of axis-parallel rectangles (M/m, H/h, V/v, Z/z)."""
    words = PATH_WORD.findall(d)
    assert "".join(words).replace("-", "") == re.sub(r"[\s,]", "", d).replace("-", ""), "unexpected path syntax"
    rects, x, y, start, corners, i = [], 0, 0, (0, 0), [], 0
    while i < len(words):
        command = words[i]
        if command in "Zz":
            xs, ys = [p[0] for p in corners], [p[1] for p in corners]
            assert len(corners) == 4 and len(set(xs)) == 2 and len(set(ys)) == 2, corners
            rects.append((min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)))
            x, y = start
            corners, i = [], i + 1
            continue
        if command in "Mm":
            dx, dy = int(words[i + 1]), int(words[i + 2])
            x, y = (x + dx, y + dy) if command == "m" else (dx, dy)
            start, corners, i = (x, y), [(x, y)], i + 3
            continue
        value = int(words[i + 1])
        if command == "h":
            x += value
        elif command == "H":
            x = value
        elif command == "v":
            y += value
        else:
            y = value
        corners.append((x, y))
        i += 2
    return rects


def svg_pixels(document):
    """(width, height, grid): the picture's viewBox units as rows of fill colours ('#rrggbb'),
    painting its rects and paths in order."""
    root = ET.fromstring(document)
    _, _, width, height = (int(v) for v in root.get("viewBox").split())
    grid = [[None] * width for _ in range(height)]

    def paint(x, y, w, h, fill):
        for row in range(y, y + h):
            grid[row][x:x + w] = [fill] * w

    for element in root:
        if element.tag == SVG + "rect":
            paint(int(element.get("x", 0)), int(element.get("y", 0)), int(element.get("width")),
                  int(element.get("height")), element.get("fill"))
        elif element.tag == SVG + "path":
            for rect in path_rectangles(element.get("d")):
                paint(*rect, element.get("fill"))
    return width, height, grid


def png_chunks(data):
    """[(type, data)] of a PNG file, every chunk's CRC checked."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, at = [], 8
    while at < len(data):
        length, = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        crc, = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        assert crc == zlib.crc32(kind + body), kind
        chunks.append((kind, body))
        at += 12 + length
    return chunks


def png_texts(data):
    """{keyword: text} of a PNG's iTXt chunks (uncompressed, no language)."""
    texts = {}
    for kind, body in png_chunks(data):
        if kind == b"iTXt":
            keyword, rest = body.split(b"\x00", 1)
            assert rest[:2] == b"\x00\x00"                 # not compressed
            _language, _translated, text = rest[2:].split(b"\x00", 2)
            texts[keyword.decode("latin-1")] = text.decode("utf-8")
    return texts


def png_pixels(data):
    """(width, height, rows of '#rrggbb'): an 8-bit indexed PNG, every chunk's CRC checked."""
    chunks = png_chunks(data)
    kinds = [kind for kind, _ in chunks]
    assert kinds[0] == b"IHDR" and kinds[-1] == b"IEND" and b"PLTE" in kinds
    width, height, depth, colour_type, compression, filtering, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    assert (depth, colour_type, compression, filtering, interlace) == (8, 3, 0, 0, 0)
    plte = dict(chunks)[b"PLTE"]
    palette = ["#%02x%02x%02x" % tuple(plte[i:i + 3]) for i in range(0, len(plte), 3)]
    raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    assert len(raw) == height * (width + 1)
    rows = []
    for row in range(height):
        line = raw[row * (width + 1):(row + 1) * (width + 1)]
        assert line[0] == 0                           # filter None
        rows.append([palette[index] for index in line[1:]])
    return width, height, rows
