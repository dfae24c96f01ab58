#!/usr/bin/env python3
"""Generate deterministic phone-style document captures for the throughput benchmark.

Each capture is an 8-12 megapixel JPEG (quality 90, 4:2:0 like a phone camera) of a document
page with text-like content (title bar, paragraphs of word-shaped dashes) lying on a varied
background (flat, gradient, wood, noise, clutter), seen in perspective, with a soft shadow,
uneven light, slight blur on some and sensor noise. About a third are stored sideways with
EXIF Orientation 6 (a phone held upright), a few with 8 or 3, like real camera rolls.
The page corners in display coordinates go to truth.json (same format as
../shared/data/synthetic/captures/truth.json), so detection can be checked on these too.

Files are written only when missing, and everything is seeded: the same --count and --seed
give the same pixels on every machine with the same Pillow and numpy.

Usage: gen_captures.py OUT_DIR [--count 50] [--seed 2026] [--jobs 2]
       gen_captures.py OUT_DIR --link-to BIG_DIR --total 1000
         (BIG_DIR gets TOTAL symlinks cycling over OUT_DIR's captures: the flat-memory check)
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
from concurrent.futures import ProcessPoolExecutor

import numpy as np
from PIL import Image, ImageChops, ImageDraw, ImageFilter

# Phone sensor sizes between 8 and 12 megapixels (landscape; half are shown portrait).
SENSORS = [(3264, 2448), (3456, 2592), (3648, 2736), (3840, 2880), (4000, 3000)]
PAPER_ASPECTS = [0.7071, 0.7727, 0.7071, 0.7727, 1.0, 0.45]  # A4, letter, square, receipt
BACKGROUNDS = ["flat", "gradient", "wood", "noise", "clutter"]


def name_for(index: int) -> str:
    return f"bench_{index:04d}.jpg"


def solve_perspective(dst, src):
    """Pillow's PERSPECTIVE coefficients mapping output (dst) points to input (src) points."""
    rows, rhs = [], []
    for (x, y), (u, v) in zip(dst, src):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y]); rhs.append(u)
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y]); rhs.append(v)
    return np.linalg.solve(np.array(rows, float), np.array(rhs, float)).tolist()


def low_res_field(rng, w, h, kind):
    """A smooth or textured RGB background, drawn small where it can be and scaled up."""
    if kind == "flat":
        c = tuple(int(v) for v in rng.integers(40, 200, 3))
        return Image.new("RGB", (w, h), c)
    if kind == "gradient":
        sw, sh = max(2, w // 16), max(2, h // 16)
        a, b = rng.integers(20, 220, 3), rng.integers(20, 220, 3)
        ang = rng.uniform(0, 2 * math.pi)
        yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
        t = (xx / sw) * math.cos(ang) + (yy / sh) * math.sin(ang)
        t = (t - t.min()) / max(1e-6, float(t.max() - t.min()))
        arr = a[None, None, :] * (1 - t[..., None]) + b[None, None, :] * t[..., None]
        return Image.fromarray(arr.astype(np.uint8), "RGB").resize((w, h), Image.BILINEAR)
    if kind == "wood":
        sw, sh = max(2, w // 4), max(2, h // 4)
        base = rng.integers(90, 170)
        yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
        freq = rng.uniform(0.02, 0.06)
        wobble = 8 * np.sin(xx * 0.01 + rng.uniform(0, 6))
        grain = np.sin((yy + wobble) * freq * 2 * math.pi) * 18 + rng.normal(0, 6, (sh, sw))
        r = np.clip(base + 40 + grain, 0, 255)
        g = np.clip(base - 5 + grain * 0.8, 0, 255)
        bl = np.clip(base - 50 + grain * 0.5, 0, 255)
        arr = np.stack([r, g, bl], -1).astype(np.uint8)
        return Image.fromarray(arr, "RGB").resize((w, h), Image.BICUBIC)
    if kind == "noise":
        sw, sh = max(2, w // 5), max(2, h // 5)
        mean = rng.integers(60, 180, 3)
        arr = np.clip(mean[None, None, :] + rng.normal(0, 45, (sh, sw, 3)), 0, 255)
        return Image.fromarray(arr.astype(np.uint8), "RGB").resize((w, h), Image.NEAREST)
    # clutter: a flat or gradient desk with objects (books, cards, sticky notes)
    img = low_res_field(rng, w, h, "flat" if rng.random() < 0.5 else "gradient")
    d = ImageDraw.Draw(img)
    for _ in range(int(rng.integers(4, 10))):
        x0, y0 = int(rng.integers(-w // 8, w)), int(rng.integers(-h // 8, h))
        x1, y1 = x0 + int(rng.integers(w // 20, w // 3)), y0 + int(rng.integers(h // 20, h // 3))
        d.rectangle([x0, y0, x1, y1], fill=tuple(int(v) for v in rng.integers(0, 255, 3)))
    return img


def draw_page(rng, pw, ph):
    """A flat page: off-white paper, a title bar and paragraphs of word-shaped dashes."""
    paper = tuple(int(v) for v in (rng.integers(225, 250), rng.integers(225, 250), rng.integers(215, 245)))
    page = Image.new("RGB", (pw, ph), paper)
    d = ImageDraw.Draw(page)
    ink = tuple(int(v) for v in rng.integers(10, 50, 3))
    margin = int(pw * rng.uniform(0.07, 0.12))
    line_h = max(6, int(ph * rng.uniform(0.012, 0.022)))
    gap = int(line_h * rng.uniform(0.6, 1.1))
    y = margin
    if rng.random() < 0.7:  # title
        d.rectangle([margin, y, margin + int((pw - 2 * margin) * rng.uniform(0.3, 0.8)), y + 2 * line_h], fill=ink)
        y += 2 * line_h + 2 * gap
    while y + line_h < ph - margin:
        if rng.random() < 0.08:  # paragraph break
            y += line_h + gap
            continue
        x = margin
        end = pw - margin - (int((pw - 2 * margin) * rng.uniform(0.1, 0.6)) if rng.random() < 0.15 else 0)
        while x < end:
            word = int(line_h * rng.uniform(1.0, 5.0))
            d.rectangle([x, y, min(x + word, end), y + line_h], fill=ink)
            x += word + int(line_h * 0.6)
        y += line_h + gap
    return page, paper


def make_capture(index: int, seed: int):
    rng = np.random.default_rng([seed, index])
    sw, sh = SENSORS[int(rng.integers(0, len(SENSORS)))]
    portrait = rng.random() < 0.6
    w, h = (sh, sw) if portrait else (sw, sh)  # display size
    bg = low_res_field(rng, w, h, BACKGROUNDS[index % len(BACKGROUNDS)])

    # The page: its size on the sensor, then a perspective quad around the image centre.
    aspect = PAPER_ASPECTS[int(rng.integers(0, len(PAPER_ASPECTS)))]
    cover = rng.uniform(0.45, 0.8)
    ph_disp = min(h * cover, w * cover / aspect)
    pw_disp = ph_disp * aspect
    cx = w / 2 + rng.uniform(-0.08, 0.08) * w
    cy = h / 2 + rng.uniform(-0.08, 0.08) * h
    ang = math.radians(rng.uniform(-25, 25))
    keystone = rng.uniform(-0.12, 0.12)
    corners = []
    for sx, sy in [(-1, -1), (1, -1), (1, 1), (-1, 1)]:
        hx = pw_disp / 2 * (1 + keystone * sy)  # narrower at top or bottom
        hy = ph_disp / 2
        x, y = sx * hx, sy * hy
        x += rng.uniform(-0.03, 0.03) * pw_disp
        y += rng.uniform(-0.03, 0.03) * ph_disp
        corners.append((cx + x * math.cos(ang) - y * math.sin(ang),
                        cy + x * math.sin(ang) + y * math.cos(ang)))

    # Render the flat page near its on-screen size, then warp just its bounding box.
    pw = int(pw_disp * 1.05); ph = int(pw / aspect)
    page, _ = draw_page(rng, pw, ph)
    xs = [c[0] for c in corners]; ys = [c[1] for c in corners]
    bx0, by0 = max(0, int(min(xs)) - 2), max(0, int(min(ys)) - 2)
    bx1, by1 = min(w, int(max(xs)) + 3), min(h, int(max(ys)) + 3)
    local = [(x - bx0, y - by0) for x, y in corners]
    coeffs = solve_perspective(local, [(0, 0), (pw, 0), (pw, ph), (0, ph)])
    box = (bx1 - bx0, by1 - by0)
    warped = page.transform(box, Image.PERSPECTIVE, coeffs, Image.BILINEAR)
    mask = Image.new("L", (pw, ph), 255).transform(box, Image.PERSPECTIVE, coeffs, Image.BILINEAR)

    # Soft shadow: the page mask, blurred small, offset, darkening the background beneath.
    full_mask = Image.new("L", (w, h), 0)
    full_mask.paste(mask, (bx0, by0))
    k = 8
    small = full_mask.resize((w // k, h // k), Image.BILINEAR).filter(ImageFilter.GaussianBlur(rng.uniform(2, 6)))
    shadow = small.resize((w, h), Image.BILINEAR)
    off = (int(rng.uniform(0.005, 0.02) * w), int(rng.uniform(0.005, 0.02) * h))
    shadow = ImageChops.offset(shadow, *off).point(lambda v, s=rng.uniform(0.3, 0.6): int(v * s))
    bg = Image.composite(Image.new("RGB", (w, h), (0, 0, 0)), bg, shadow)
    bg.paste(warped, (bx0, by0), mask)

    # Uneven light: a smooth multiplier between ~0.7 and 1.
    lw, lh = 4, 4
    light = np.clip(rng.uniform(180, 255) + rng.normal(0, 18, (lh, lw)), 150, 255).astype(np.uint8)
    light_img = Image.fromarray(light, "L").resize((w, h), Image.BICUBIC)
    img = ImageChops.multiply(bg, Image.merge("RGB", (light_img,) * 3))

    if rng.random() < 0.3:
        img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.6, 1.5)))
    noise = Image.effect_noise((w, h), float(rng.uniform(3, 8)))
    img = ImageChops.add(img, Image.merge("RGB", (noise,) * 3), 1.0, -128)

    # Storage orientation: sideways with an EXIF tag for a share of them.
    r = rng.random()
    orientation = 6 if r < 0.34 else 8 if r < 0.42 else 3 if r < 0.46 else 1
    stored = img
    if orientation == 6:
        stored = img.transpose(Image.Transpose.ROTATE_90)   # viewer turns it 90 deg clockwise
    elif orientation == 8:
        stored = img.transpose(Image.Transpose.ROTATE_270)
    elif orientation == 3:
        stored = img.transpose(Image.Transpose.ROTATE_180)
    exif = Image.Exif()
    exif[0x0112] = orientation
    exif[0x010F] = "Quire bench"
    truth = {
        "corners": [[round(x, 2), round(y, 2)] for x, y in corners],
        "display_size": [w, h],
        "orientation": orientation,
        "paper_aspect": round(aspect, 4),
    }
    return stored, exif, truth


def generate_one(args):
    out_dir, index, seed = args
    path = os.path.join(out_dir, name_for(index))
    stored, exif, truth = make_capture(index, seed)
    if not os.path.exists(path):
        tmp = path + ".tmp"
        stored.save(tmp, "JPEG", quality=90, exif=exif.tobytes(), subsampling=2)
        os.replace(tmp, path)
    return name_for(index), truth


def ensure(out_dir: str, count: int, seed: int, jobs: int) -> None:
    os.makedirs(out_dir, exist_ok=True)
    truth_path = os.path.join(out_dir, "truth.json")
    missing = [i for i in range(count) if not os.path.exists(os.path.join(out_dir, name_for(i)))]
    if not missing and os.path.exists(truth_path):
        with open(truth_path) as f:
            if len(json.load(f)) >= count:
                return
    todo = list(range(count))  # truth needs every index; existing files are not rewritten
    print(f"generating {len(missing)} of {count} captures in {out_dir} (seed {seed})", file=sys.stderr)
    with ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = dict(pool.map(generate_one, [(out_dir, i, seed) for i in todo]))
    with open(truth_path, "w") as f:
        json.dump(dict(sorted(results.items())), f, indent=1)


def link_many(src_dir: str, big_dir: str, total: int) -> None:
    names = sorted(n for n in os.listdir(src_dir) if n.endswith(".jpg"))
    if not names:
        sys.exit(f"no captures in {src_dir}")
    os.makedirs(big_dir, exist_ok=True)
    src_abs = os.path.abspath(src_dir)
    for i in range(total):
        link = os.path.join(big_dir, f"big_{i:05d}.jpg")
        if not os.path.lexists(link):
            os.symlink(os.path.join(src_abs, names[i % len(names)]), link)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("out_dir")
    p.add_argument("--count", type=int, default=50)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--link-to", help="also make TOTAL symlinks to the captures in this folder")
    p.add_argument("--total", type=int, default=1000)
    a = p.parse_args()
    ensure(a.out_dir, a.count, a.seed, a.jobs)
    if a.link_to:
        link_many(a.out_dir, a.link_to, a.total)


if __name__ == "__main__":
    main()
