"""Reads a PNG screenshot's pixels: with Pillow when installed, else by decoding it with zlib here."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def _decode(data: bytes) -> tuple[int, int, list[tuple[int, ...]]]:
    """Width, height and RGB(A) pixels of an 8-bit, non-interlaced PNG."""
    assert data.startswith(SIGNATURE), "not a PNG file"
    position, chunks, header = len(SIGNATURE), [], b""
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind = data[position + 4 : position + 8]
        body = data[position + 8 : position + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks.append(body)
        position += 12 + length
    width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and interlace == 0 and color in CHANNELS, (
        depth,
        color,
        interlace,
    )
    step = CHANNELS[color]
    raw = zlib.decompress(b"".join(chunks))
    stride = width * step
    previous = bytearray(stride)
    pixels: list[tuple[int, ...]] = []
    for row in range(height):
        start = row * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - step] if i >= step else 0
            up = previous[i]
            corner = previous[i - step] if i >= step else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                line[i] = (line[i] + _paeth(left, up, corner)) & 0xFF
        pixels += [tuple(line[i : i + step]) for i in range(0, stride, step)]
        previous = line
    return width, height, pixels


def read_pixels(path: Path) -> tuple[int, int, list[tuple[int, ...]]]:
    """Width, height and the pixels (tuples of channel values) of the PNG at `path`."""
    try:
        from PIL import Image
    except ImportError:
        return _decode(path.read_bytes())
    with Image.open(path) as image:
        rgb = image.convert("RGB")
        return rgb.width, rgb.height, list(rgb.getdata())
