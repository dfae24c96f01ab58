#!/usr/bin/env python3
"""Pillow draft-mode thumbnailing, the usual fast Python way: one process, a loop.

For each capture: Image.open, draft("RGB", (256, 256)) so libjpeg decodes at 1/2-1/8 scale
(DCT scaling), EXIF orientation applied (ImageOps.exif_transpose), thumbnail((256, 256)),
save as JPEG quality 85 to OUT/thumbs/NNNN.jpg.

Usage: pillow_thumbs.py OUT FILE...
"""
import os
import sys

from PIL import Image, ImageOps


def main():
    out, files = sys.argv[1], sys.argv[2:]
    os.makedirs(os.path.join(out, "thumbs"), exist_ok=True)
    failed = 0
    for n, path in enumerate(files, 1):
        try:
            with Image.open(path) as im:
                im.draft("RGB", (256, 256))
                im = ImageOps.exif_transpose(im)
                im.thumbnail((256, 256))
                im.save(os.path.join(out, "thumbs", f"{n:04d}.jpg"), "JPEG", quality=85)
        except OSError as error:
            print(f"pillow_thumbs: {path}: {error}", file=sys.stderr)
            failed += 1
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
