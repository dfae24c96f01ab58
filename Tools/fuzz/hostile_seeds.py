#!/usr/bin/env python3
"""Hostile variants of the seed JPEGs in DIR, written beside them (Tools/fuzz/README.md):
truncations, stuffed 0xFF runs and markers inside the entropy-coded data, zero-length and
over-long (>256 symbols) Huffman tables, DC tables with magnitudes over 15, flipped data bytes.
Deterministic (seeded). Usage: hostile_seeds.py DIR [SOURCE...]"""

import random
import struct
import sys
from pathlib import Path


def segments(data):
    """(marker, start, end) of each marker segment up to and including SOS; end of SOS header."""
    out, i = [], 2
    while i + 4 <= len(data) and data[i] == 0xFF:
        marker = data[i + 1]
        length = struct.unpack(">H", data[i + 2 : i + 4])[0]
        out.append((marker, i, i + 2 + length))
        i += 2 + length
        if marker == 0xDA:
            break
    return out


def entropy_range(data):
    segs = segments(data)
    if not segs or segs[-1][0] != 0xDA:
        return None
    start = segs[-1][2]
    end = data.rfind(b"\xff\xd9")
    return (start, end if end > start else len(data))


def dht_segment(classes_tables):
    body = b""
    for tc_th, bits, vals in classes_tables:
        body += bytes([tc_th]) + bytes(bits) + bytes(vals)
    return b"\xff\xc4" + struct.pack(">H", len(body) + 2) + body


def replace_dht(data, new_dht):
    """Appends `new_dht` just before SOS (a later DHT replaces the table of the same id)."""
    sos = [s for s in segments(data) if s[0] == 0xDA]
    if not sos:
        return None
    at = sos[0][1]
    return data[:at] + new_dht + data[at:]


def variants(name, data, rnd):
    rng = entropy_range(data)
    if rng is None:
        return
    start, end = rng
    n = end - start
    for frac in (0.1, 0.5, 0.9):
        yield f"{name}_trunc{int(frac * 100)}", data[: start + int(n * frac)]
    yield f"{name}_trunc_header", data[: max(4, start - 5)]
    for k in range(3):
        at = start + rnd.randrange(max(1, n))
        yield f"{name}_ffrun{k}", data[:at] + b"\xff" * rnd.randrange(1, 9) + b"\x00" + data[at:]
    for k, marker in enumerate((0xD0, 0xD3, 0xC4, 0xD9, 0xDA, 0xFE)):
        at = start + rnd.randrange(max(1, n))
        yield f"{name}_marker{k}", data[:at] + bytes([0xFF, marker]) + data[at:]
    # Zero-length tables for AC 0 and DC 0.
    yield f"{name}_dht_ac_empty", replace_dht(data, dht_segment([(0x10, [0] * 16, [])]))
    yield f"{name}_dht_dc_empty", replace_dht(data, dht_segment([(0x00, [0] * 16, [])]))
    # More than 256 symbols (counts summing past 256).
    yield f"{name}_dht_over", replace_dht(data, dht_segment([(0x10, [0] * 8 + [255, 255] + [0] * 6, list(range(256)) * 2)]))
    # DC table with magnitudes over 15 (16, 200).
    yield f"{name}_dht_dc_bad", replace_dht(data, dht_segment([(0x00, [0, 2, 2] + [0] * 13, [0, 1, 16, 200])]))
    # A DC table with only short codes, most of the data's codes now invalid or re-read.
    yield f"{name}_dht_dc_short", replace_dht(data, dht_segment([(0x00, [2, 0] + [0] * 14, [11, 10])]))
    # An over-subscribed table (the canonical codes overflow).
    yield f"{name}_dht_overfull", replace_dht(data, dht_segment([(0x10, [3] + [0] * 15, [1, 2, 0])]))
    for k in range(4):
        b = bytearray(data)
        for _ in range(1 + k * 3):
            at = start + rnd.randrange(max(1, n))
            if at < len(b):
                b[at] = rnd.randrange(256)
        yield f"{name}_flip{k}", bytes(b)


def main():
    out = Path(sys.argv[1])
    sources = [Path(p) for p in sys.argv[2:]] or sorted(out.glob("*.jpg"))
    rnd = random.Random(20261127)
    count = 0
    for src in sources:
        data = src.read_bytes()
        for vname, vdata in variants(src.stem, data, rnd):
            if vdata:
                (out / f"{vname}.jpg").write_bytes(vdata)
                count += 1
    print(f"{count} hostile variants written to {out}")


if __name__ == "__main__":
    main()
