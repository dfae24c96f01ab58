#!/usr/bin/env python3
"""Draw true page corners and/or detected quads on photos so a person can check them by eye.

The truth file (Tools/accuracy/real/truth.json) holds corners in display pixels, after the EXIF
orientation is applied; this tool applies it the same way (Pillow's exif_transpose) before
drawing, so a mismatch between the file and the photo shows as a quad off the paper.
Truth is drawn in green (corner 1 marked with a filled disc), detections in red, each with
its corner numbers. Open books carry "pages": a list of quads, one per page, all drawn.

Usage: draw_corners.py PHOTO_DIR OUT_DIR [--truth truth.json] [--detections det.json] [--size 1200]
  det.json is opencv_peer.py's output ({"results": [{"source", "quad"}]}) or a mapping
  name -> quad; the pictures are PNGs named after the photos, at most --size pixels long.
"""
import argparse
import json
import os

from PIL import Image, ImageDraw, ImageOps


def quads_of(entry):
    """The true quads of one truth entry: one page, or the pages of an open book."""
    if entry is None:
        return []
    if "pages" in entry:
        return [p["corners"] if isinstance(p, dict) else p for p in entry["pages"]]
    return [entry["corners"]] if entry.get("corners") else []


def load_detections(path):
    with open(path) as f:
        data = json.load(f)
    if isinstance(data, dict) and "results" in data:
        return {os.path.basename(r["source"]): r.get("quad") for r in data["results"]}
    return data


def draw_quad(draw, quad, scale, colour, width):
    pts = [(x * scale, y * scale) for x, y in quad]
    draw.line(pts + [pts[0]], fill=colour, width=width)
    for i, (x, y) in enumerate(pts):
        r = width * 2
        if i == 0:
            draw.ellipse([x - r, y - r, x + r, y + r], fill=colour)
        draw.text((x + r + 2, y + r + 2), str(i + 1), fill=colour)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("photos")
    ap.add_argument("out")
    ap.add_argument("--truth")
    ap.add_argument("--detections")
    ap.add_argument("--size", type=int, default=1200)
    ap.add_argument("--grid", action="store_true", help="a labelled grid every 10 %% of the frame, to read corners off")
    ap.add_argument("names", nargs="*")
    a = ap.parse_intermixed_args()
    truth = json.load(open(a.truth)) if a.truth else {}
    det = load_detections(a.detections) if a.detections else {}
    os.makedirs(a.out, exist_ok=True)
    names = a.names or sorted(set(truth) | set(det))
    for name in names:
        path = os.path.join(a.photos, name)
        if not os.path.exists(path):
            print(f"{name}: not in {a.photos}, skipped")
            continue
        im = ImageOps.exif_transpose(Image.open(path)).convert("RGB")
        scale = min(1.0, a.size / max(im.size))
        small = im.resize((round(im.width * scale), round(im.height * scale)))
        draw = ImageDraw.Draw(small)
        if a.grid:
            for i in range(1, 10):
                x, y = small.width * i / 10, small.height * i / 10
                draw.line([(x, 0), (x, small.height)], fill=(0, 160, 255), width=1)
                draw.line([(0, y), (small.width, y)], fill=(0, 160, 255), width=1)
                draw.text((x + 2, 2), str(round(im.width * i / 10)), fill=(0, 160, 255))
                draw.text((2, y + 2), str(round(im.height * i / 10)), fill=(0, 160, 255))
        for q in quads_of(truth.get(name)):
            draw_quad(draw, q, scale, (0, 220, 0), 4)
        if det.get(name):
            draw_quad(draw, det[name], scale, (230, 0, 0), 2)
        out = os.path.join(a.out, os.path.splitext(name)[0] + ".png")
        small.save(out)
        print(out)


if __name__ == "__main__":
    main()
