#!/usr/bin/env python3
"""Draw true page corners and/or detected quads on photos so a person can check them by eye.

The truth file (Tools/accuracy/real/truth.json) holds corners in display pixels, after the EXIF
orientation is applied; this tool applies it the same way (Pillow's exif_transpose) before
drawing, so a mismatch between the file and the photo shows as a quad off the paper.
Truth is drawn in green (corner 1 marked with a filled disc), detections in red, each with
its corner numbers. Open books carry "pages": a list of quads, one per page, all drawn.

With --zoom N, a strip of N x N crops around each true corner, magnified twice, is added below
the photo (a grid every 10 px, labelled every 50), to check corners to a few pixels.

Usage: draw_corners.py PHOTO_DIR OUT_DIR [--truth truth.json] [--detections det.json] [--size 1200]
       [--grid] [--zoom N] [NAME...]
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


def corner_strip(im, quads, det, n, magnify=2):
    """N x N crops of the full-size photo around each true corner, magnified, side by side, with
    the true quads (green), the detection (red) and a labelled 10 px grid (every 50 px labelled)."""
    corners = [c for q in quads for c in q]
    size = n * magnify
    strip = Image.new("RGB", (size * max(1, len(corners)), size), "white")
    for k, (cx, cy) in enumerate(corners):
        x0, y0 = round(cx) - n // 2, round(cy) - n // 2
        crop = im.crop((x0, y0, x0 + n, y0 + n)).resize((size, size), Image.NEAREST)
        d = ImageDraw.Draw(crop)
        for t in range((x0 // 10 + 1) * 10, x0 + n, 10):
            long = t % 50 == 0
            d.line([((t - x0) * magnify, 0), ((t - x0) * magnify, size if long else 6)], fill=(255, 0, 255))
            if long:
                d.text(((t - x0) * magnify + 2, 2), str(t), fill=(255, 0, 255))
        for t in range((y0 // 10 + 1) * 10, y0 + n, 10):
            long = t % 50 == 0
            d.line([(0, (t - y0) * magnify), (size if long else 6, (t - y0) * magnify)], fill=(255, 0, 255))
            if long:
                d.text((2, (t - y0) * magnify + 2), str(t), fill=(255, 0, 255))
        for q in quads:
            draw_quad(d, [((x - x0) * magnify, (y - y0) * magnify) for x, y in q], 1.0, (0, 220, 0), 1)
        if det:
            draw_quad(d, [((x - x0) * magnify, (y - y0) * magnify) for x, y in det], 1.0, (230, 0, 0), 1)
        d.rectangle([0, 0, size - 1, size - 1], outline=(0, 0, 0))
        strip.paste(crop, (k * size, 0))
    return strip


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("photos")
    ap.add_argument("out")
    ap.add_argument("--truth")
    ap.add_argument("--detections")
    ap.add_argument("--size", type=int, default=1200)
    ap.add_argument("--grid", action="store_true", help="a labelled grid every 10 %% of the frame, to read corners off")
    ap.add_argument("--zoom", type=int, default=0, help="add N x N full-size crops around each true corner")
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
        if a.zoom > 0 and quads_of(truth.get(name)):
            strip = corner_strip(im, quads_of(truth.get(name)), det.get(name), a.zoom)
            both = Image.new("RGB", (max(small.width, strip.width), small.height + strip.height), "white")
            both.paste(small, (0, 0))
            both.paste(strip, (0, small.height))
            small = both
        out = os.path.join(a.out, os.path.splitext(name)[0] + ".png")
        small.save(out)
        print(out)


if __name__ == "__main__":
    main()
