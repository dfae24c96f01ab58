#!/usr/bin/env python3
"""Synthetic phone photos and flatbed scans with known page corners and skew angles.

Photos follow a pinhole camera: a page (receipt to landscape, with text-like rows, a header
bar and sometimes a picture) is placed in 3-D with up to 30 degrees of rotation in the image
plane and up to ~22 degrees of tilt (keystone), projected with a random focal length, and
composited on a background: flat (including light backgrounds close to the paper's colour),
gradient, wood grain, noise texture, or clutter (rectangles of other colours). Then a drop
shadow, uneven light or a cast shadow, blur, sensor noise and JPEG compression.

Scans: a page rotated by a small angle on a flat scanner background (black, grey or white),
at 150-300 dpi, colour or grey, JPEG or PNG.

Output (same format as ../shared/data/synthetic):
  OUT/captures/photo_NNN.jpg + truth.json {"corners": [[x, y] x 4] (TL, TR, BR, BL of the page
      as read, display pixels, continuous: the image spans 0...width, pixel centres at +0.5), "display_size", "orientation": 1,
      "paper_aspect", "focal", "background"}
  OUT/scans/scan_NNN.{jpg,png} + truth.json {"skew_deg" (positive = content turned
      counter-clockwise), "page_size", "canvas", "dpi", "background", "gray"}

Usage: generate.py OUT [--photos 40] [--scans 12] [--seed 7]
"""
import argparse
import json
import math
import os

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

ASPECTS = [0.36, 0.42, 0.62, 0.7071, 0.7727, 1.0, 1.4142, 1.2941]
BACKGROUNDS = ["flat", "light", "gradient", "wood", "noise", "clutter"]
# Not in the default mix: a white page on a near-white desk (a stress test, --backgrounds white).
EXTRA_BACKGROUNDS = ["white"]


def page_image(rng, aspect, long_side=1400):
    if aspect >= 1:
        w, h = long_side, int(round(long_side / aspect))
    else:
        w, h = int(round(long_side * aspect)), long_side
    tint = rng.integers(-12, 6, 3)
    base = np.clip(np.array([242, 240, 236]) + tint, 200, 255)
    img = Image.new("RGB", (w, h), tuple(int(v) for v in base))
    d = ImageDraw.Draw(img)
    margin = int(min(w, h) * rng.uniform(0.05, 0.1))
    y = margin
    if rng.random() < 0.7:  # header bar
        d.rectangle([margin, y, margin + int((w - 2 * margin) * rng.uniform(0.3, 0.7)), y + int(h * 0.02)], fill=(30, 30, 30))
        y += int(h * 0.05)
    if rng.random() < 0.4:  # a picture
        pw, ph = int((w - 2 * margin) * rng.uniform(0.3, 0.6)), int(h * rng.uniform(0.08, 0.18))
        pic = (rng.random((ph // 4 + 1, pw // 4 + 1, 3)) * 255).astype(np.uint8)
        img.paste(Image.fromarray(pic).resize((pw, ph), Image.NEAREST), (margin, y))
        y += ph + int(h * 0.02)
    row = max(6, int(h * rng.uniform(0.018, 0.03)))
    ink = int(rng.integers(10, 70))
    while y < h - margin - row:
        x = margin
        end = w - margin if rng.random() < 0.85 else margin + int((w - 2 * margin) * rng.uniform(0.2, 0.8))
        while x < end:
            wl = int(row * rng.uniform(1.0, 5.0))
            d.rectangle([x, y, min(end, x + wl), y + int(row * 0.55)], fill=(ink, ink, ink))
            x += wl + int(row * 0.6)
        y += row * (2 if rng.random() < 0.1 else 1) + int(row * 0.4)
    return img


def background(rng, kind, W, H, paper):
    """Drawn at half resolution (fast) and scaled up."""
    W, H = W // 2, H // 2
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    if kind == "flat":
        c = rng.integers(30, 200, 3)
        arr = np.ones((H, W, 3), np.float32) * c
    elif kind == "white":  # almost the paper's colour
        c = np.clip(paper - rng.integers(4, 12) + rng.integers(-3, 3, 3), 0, 255)
        arr = np.ones((H, W, 3), np.float32) * c
    elif kind == "light":  # close to the paper: the classic recipe's worst case
        c = np.clip(paper - rng.integers(12, 40) + rng.integers(-6, 6, 3), 0, 255)
        arr = np.ones((H, W, 3), np.float32) * c
    elif kind == "gradient":
        a, b = rng.integers(20, 230, 3), rng.integers(20, 230, 3)
        t = (xx * rng.uniform(-1, 1) + yy * rng.uniform(-1, 1))
        t = (t - t.min()) / max(1e-6, np.ptp(t))
        arr = a[None, None, :] * (1 - t[..., None]) + b[None, None, :] * t[..., None]
    elif kind == "wood":
        c = np.array([150, 100, 60]) + rng.integers(-30, 30, 3)
        f = rng.uniform(0.02, 0.08)
        grain = np.sin(yy * f + 3 * np.sin(xx * 0.008 + rng.uniform(0, 6))) * 0.5 + 0.5
        arr = c[None, None, :] * (0.75 + 0.35 * grain[..., None])
    else:  # noise, clutter
        c = rng.integers(40, 180, 3)
        arr = np.ones((H, W, 3), np.float32) * c
    if kind in ("noise", "clutter", "wood"):
        small = rng.normal(0, 25, (H // 2 + 1, W // 2 + 1, 3)).astype(np.float32)
        noise = np.asarray(Image.fromarray(np.clip(small + 128, 0, 255).astype(np.uint8)).resize((W, H), Image.BILINEAR),
                           np.float32) - 128
        arr = arr + noise
    img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
    if kind == "clutter":
        d = ImageDraw.Draw(img)
        for _ in range(rng.integers(3, 9)):
            x0, y0 = rng.integers(0, W), rng.integers(0, H)
            d.rectangle([x0, y0, x0 + rng.integers(W // 20, W // 4), y0 + rng.integers(H // 20, H // 4)],
                        fill=tuple(int(v) for v in rng.integers(0, 255, 3)))
    return img.resize((W * 2, H * 2), Image.BILINEAR)


def rotation(rx, ry, rz):
    Rx = np.array([[1, 0, 0], [0, math.cos(rx), -math.sin(rx)], [0, math.sin(rx), math.cos(rx)]])
    Ry = np.array([[math.cos(ry), 0, math.sin(ry)], [0, 1, 0], [-math.sin(ry), 0, math.cos(ry)]])
    Rz = np.array([[math.cos(rz), -math.sin(rz), 0], [math.sin(rz), math.cos(rz), 0], [0, 0, 1]])
    return Rz @ Ry @ Rx


def homography(src, dst):
    a = []
    for (x, y), (u, v) in zip(src, dst):
        a.append([x, y, 1, 0, 0, 0, -u * x, -u * y, -u])
        a.append([0, 0, 0, x, y, 1, -v * x, -v * y, -v])
    _, _, vt = np.linalg.svd(np.array(a))
    h = vt[-1].reshape(3, 3)
    return h / h[2, 2]


def photo(rng, index, out, kinds=None):
    W, H = [(4000, 3000), (3000, 4000), (3024, 4032), (2448, 3264), (2000, 1500), (1500, 2000)][rng.integers(0, 6)]
    aspect = float(ASPECTS[rng.integers(0, len(ASPECTS))])
    page = page_image(rng, aspect)
    pw, ph = page.size
    paper = np.array(page.getpixel((2, 2)), np.float32)
    kinds = kinds or BACKGROUNDS
    kind = kinds[index % len(kinds)]
    diag = math.hypot(W, H)
    for _ in range(200):
        f = rng.uniform(0.6, 1.3) * diag
        rz = math.radians(rng.uniform(-30, 30))
        rx, ry = math.radians(rng.uniform(-22, 22)), math.radians(rng.uniform(-22, 22))
        R = rotation(rx, ry, rz)
        a = aspect
        P = np.array([[-a / 2, -0.5, 0], [a / 2, -0.5, 0], [a / 2, 0.5, 0], [-a / 2, 0.5, 0]])
        fill = rng.uniform(0.35, 0.8)  # page height as a share of the frame's short side
        z = f / (min(W, H) * fill)
        t = np.array([rng.uniform(-0.25, 0.25) * W / f * z, rng.uniform(-0.25, 0.25) * H / f * z, z])
        X = (R @ P.T).T + t
        if np.any(X[:, 2] <= 0.1):
            continue
        q = np.array([[f * x / zz + W / 2, f * y / zz + H / 2] for x, y, zz in X])
        if q[:, 0].min() > 0.02 * W and q[:, 0].max() < 0.98 * W and q[:, 1].min() > 0.02 * H and q[:, 1].max() < 0.98 * H:
            break
    bg = background(rng, kind, W, H, paper)
    # Pillow maps output pixel centres (x + 0.5) into the page; corners are continuous coordinates.
    Hm = homography(q, [(0, 0), (pw, 0), (pw, ph), (0, ph)])
    coeffs = Hm.flatten()[:8]
    rgba = page.convert("RGBA")
    warped = rgba.transform((W, H), Image.PERSPECTIVE, tuple(coeffs), resample=Image.BICUBIC)
    mask = warped.split()[3]
    # Drop shadow below and to the side of the page.
    shadow = mask.filter(ImageFilter.GaussianBlur(radius=max(2, W / 400)))
    off = int(W / 300)
    sh = np.zeros((H, W), np.float32)
    sa = np.asarray(shadow, np.float32) / 255
    sh[off:, off:] = sa[:-off, :-off] if off > 0 else sa
    base = np.asarray(bg, np.float32) * (1 - 0.45 * sh[..., None])
    m = np.asarray(mask, np.float32)[..., None] / 255
    img = base * (1 - m) + np.asarray(warped.convert("RGB"), np.float32) * m
    # Uneven light, and sometimes a cast shadow across the page.
    ls = 8  # the light field is smooth: compute it small, scale it up
    yy, xx = np.mgrid[0:H // ls, 0:W // ls].astype(np.float32) * ls
    light = 1 + rng.uniform(-0.25, 0.1) * ((xx - rng.uniform(0, W)) ** 2 + (yy - rng.uniform(0, H)) ** 2) / diag ** 2 * 4
    if rng.random() < 0.35:
        nx, ny = math.cos(rng.uniform(0, 6.3)), math.sin(rng.uniform(0, 6.3))
        s = (xx - W / 2) * nx + (yy - H / 2) * ny - rng.uniform(-0.2, 0.2) * diag
        light = light * (1 - rng.uniform(0.15, 0.35) / (1 + np.exp(-s / (0.01 * diag))))
    light = np.asarray(Image.fromarray((np.clip(light, 0, 2) * 100).astype(np.uint8)).resize((W, H), Image.BILINEAR),
                       np.float32) / 100
    img = img * light[..., None]
    img = Image.fromarray(np.clip(img, 0, 255).astype(np.uint8))
    blur = rng.uniform(0, 1.8) * W / 2000
    if blur > 0.3:
        img = img.filter(ImageFilter.GaussianBlur(radius=blur))
    arr = np.asarray(img, np.float32) + rng.standard_normal((H, W, 3), dtype=np.float32) * rng.uniform(1, 5)
    img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
    name = f"photo_{index:03d}.jpg"
    img.save(os.path.join(out, name), quality=int(rng.integers(72, 93)))
    corners = [[round(float(x), 2), round(float(y), 2)] for x, y in q]
    return name, {"corners": corners, "display_size": [W, H], "orientation": 1, "paper_aspect": round(aspect, 4),
                  "focal": round(float(f), 1), "background": kind}


def scan(rng, index, out):
    dpi = int([150, 200, 300][rng.integers(0, 3)])
    inch = [(8.27, 11.69), (8.5, 11.0), (11.69, 8.27), (5.8, 8.3)][rng.integers(0, 4)]
    pw, ph = int(inch[0] * dpi), int(inch[1] * dpi)
    page = page_image(rng, pw / ph, long_side=max(pw, ph))
    page = page.resize((pw, ph))
    skew = 0.0 if rng.random() < 0.15 else float(rng.uniform(-5, 5))
    bgv = int([0, 20, 128, 235, 255][rng.integers(0, 5)])
    rot = page.convert("RGBA").rotate(skew, resample=Image.BICUBIC, expand=True)
    cw, ch = rot.size[0] + int(rng.integers(20, 200)), rot.size[1] + int(rng.integers(20, 200))
    canvas = Image.new("RGB", (cw, ch), (bgv, bgv, bgv))
    canvas.paste(rot, (int(rng.integers(0, cw - rot.size[0] + 1)), int(rng.integers(0, ch - rot.size[1] + 1))), rot)
    arr = np.asarray(canvas, np.float32) + rng.standard_normal((ch, cw, 3), dtype=np.float32) * 2
    gray = bool(rng.random() < 0.3)
    img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
    if gray:
        img = img.convert("L")
    ext = "png" if rng.random() < 0.3 else "jpg"
    name = f"scan_{index:03d}.{ext}"
    img.save(os.path.join(out, name), **({"quality": 90} if ext == "jpg" else {}))
    return name, {"skew_deg": round(skew, 3), "page_size": [pw, ph], "canvas": [cw, ch], "dpi": dpi,
                  "background": bgv, "gray": gray}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--photos", type=int, default=40)
    ap.add_argument("--scans", type=int, default=12)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--backgrounds", default="", help="comma-separated subset, e.g. white,light")
    args = ap.parse_args()
    kinds = [k for k in args.backgrounds.split(",") if k] or None
    rng = np.random.default_rng(args.seed)
    for sub, count, make in (("captures", args.photos, lambda r, i, f: photo(r, i, f, kinds)), ("scans", args.scans, scan)):
        folder = os.path.join(args.out, sub)
        os.makedirs(folder, exist_ok=True)
        truth = {}
        for i in range(count):
            name, entry = make(rng, i, folder)
            truth[name] = entry
        with open(os.path.join(folder, "truth.json"), "w") as f:
            json.dump(truth, f, indent=1, sort_keys=True)
        print(f"{folder}: {count} images")


if __name__ == "__main__":
    main()
