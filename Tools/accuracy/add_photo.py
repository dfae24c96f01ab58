#!/usr/bin/env python3
"""Copy a real photo into the repository's real-photo set, small enough to keep.

The set (Tools/accuracy/real-photos) must stay under 30 MB for 40+ photos, so a photo whose
long side is over --long-side (default 2000 px, about 3 MP) is resized with Lanczos and
saved as JPEG quality 88; smaller JPEGs are copied byte for byte. The stored pixels are
resized, not the displayed ones: the EXIF orientation tag (and the rest of the EXIF) is kept,
so the photo still has to be turned on display, as it did when taken.

Truth corners given for the original (display pixels, --corners "x,y x,y x,y x,y", clockwise
from top-left) are scaled with the photo and written into truth.json with the display size
and orientation.

Each photo names the public repository it comes from (--source owner/name) and whether the
detector's rules were tuned on that source (--split tuned-on) or not (held-out, the default
for a new source): `make accuracy` scores held-out sources first. --truth says how the corners
were taken (read off a grid, zoomed crops, ...), for whoever checks them next.

Usage: add_photo.py SOURCE NAME [--corners "..."] [--pages "... | ..."] [--kind TEXT]
       [--source owner/name] [--split held-out|tuned-on] [--truth TEXT]
       [--set Tools/accuracy/real-photos] [--long-side 2000] [--quality Q]
"""
import argparse
import json
import os
import shutil

from PIL import Image, ImageOps


def parse_quad(text):
    pts = [tuple(float(v) for v in p.split(",")) for p in text.split()]
    if len(pts) != 4:
        raise SystemExit(f"a quad needs four x,y corners: {text!r}")
    return pts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("source")
    ap.add_argument("name")
    ap.add_argument("--corners")
    ap.add_argument("--pages", help="open books: two quads separated by |, in reading order")
    ap.add_argument("--kind", default="")
    ap.add_argument("--set", default=os.path.join(os.path.dirname(__file__), "real-photos"))
    ap.add_argument("--long-side", type=int, default=2000)
    ap.add_argument("--quality", type=int, help="JPEG quality of a resized (default 88) or converted (92) photo")
    # Its own dest: the positional SOURCE (the file) is also "source", and the option would overwrite it.
    ap.add_argument("--source", dest="repo", help="the public repository the photo comes from, owner/name")
    ap.add_argument("--split", choices=["held-out", "tuned-on"], default="held-out")
    ap.add_argument("--truth", help="how the corners were taken")
    a = ap.parse_args()

    os.makedirs(a.set, exist_ok=True)
    target = os.path.join(a.set, a.name)
    im = Image.open(a.source)
    orientation = im.getexif().get(274, 1)
    display = ImageOps.exif_transpose(im).size
    scale = min(1.0, a.long_side / max(im.size))
    if scale < 1.0:
        small = im.convert("RGB").resize((round(im.width * scale), round(im.height * scale)), Image.LANCZOS)
        small.save(target, "JPEG", quality=a.quality or 88, exif=im.info.get("exif", b""))
    elif a.source.lower().endswith((".jpg", ".jpeg")):
        shutil.copyfile(a.source, target)
    else:
        im.convert("RGB").save(target, "JPEG", quality=a.quality or 92, exif=im.info.get("exif", b""))
    kept = Image.open(target)
    shown = ImageOps.exif_transpose(kept).size
    sx, sy = shown[0] / display[0], shown[1] / display[1]

    truth_path = os.path.join(a.set, "truth.json")
    truth = json.load(open(truth_path)) if os.path.exists(truth_path) else {}
    entry = {"display_size": list(shown), "orientation": orientation, "kind": a.kind}
    if a.corners:
        entry["corners"] = [[round(x * sx, 1), round(y * sy, 1)] for x, y in parse_quad(a.corners)]
    if a.pages:
        entry["pages"] = [{"corners": [[round(x * sx, 1), round(y * sy, 1)] for x, y in parse_quad(q)]}
                          for q in a.pages.split("|")]
    if a.truth:
        entry["truth"] = a.truth
    if a.repo:
        entry["source"] = a.repo
        entry["split"] = a.split
    truth[a.name] = entry
    with open(truth_path, "w") as f:   # one photo per line, to read and diff
        f.write("{\n" + ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in sorted(truth.items())) + "\n}\n")
    print(f"{a.name}: {os.path.getsize(target) / 1e6:.2f} MB, {shown[0]}x{shown[1]} displayed, orientation {orientation}")


if __name__ == "__main__":
    main()
