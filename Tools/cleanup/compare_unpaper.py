"""Quire's scan clean-up next to unpaper's, on unpaper's own test images, in one run.

    .venv/bin/python Tools/cleanup/compare_unpaper.py [QUIRE] [DATA] [OUT]

QUIRE: the quire binary (default: the debug build); DATA: unpaper's test images
(default ../shared/data/real/unpaper-tests); OUT: where the side-by-side pictures go
(default /tmp/quire-unpaper). For each image it prints the seconds each tool took and the dark
pixels in the outer 6 % of the page (scanner edges left, but also text that runs to the edge:
look at the pictures). Needs Debian's unpaper.
"""
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from PIL import Image

REPO = Path(__file__).resolve().parents[2]


def grey(path):
    return np.asarray(Image.open(path).convert("L"), dtype=np.uint8)


def edge_pixels(image):
    """Dark pixels in the outer 6 % band of the page."""
    h, w = image.shape
    band = np.zeros_like(image, dtype=bool)
    bx, by = int(w * 0.06), int(h * 0.06)
    band[:by, :] = band[-by:, :] = True
    band[:, :bx] = band[:, -bx:] = True
    return int((image[band] < 128).sum())


def main():
    quire = sys.argv[1] if len(sys.argv) > 1 else str(REPO / ".build/debug/quire")
    data = Path(sys.argv[2] if len(sys.argv) > 2 else REPO.parent / "shared/data/real/unpaper-tests")
    out = Path(sys.argv[3] if len(sys.argv) > 3 else "/tmp/quire-unpaper")
    if not shutil.which("unpaper"):
        sys.exit("unpaper is not installed (Debian package unpaper; `make deps` installs it)")
    if not data.is_dir():
        sys.exit(f"{data}: unpaper's test images are not there")
    out.mkdir(parents=True, exist_ok=True)
    print(f"{'image':<16}{'unpaper s':>10}{'quire s':>9}{'edge px input':>15}{'edge px unpaper':>17}{'edge px quire':>15}")
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        for source in sorted(data.glob("imgsrc*.png")):
            pnm = work / (source.stem + ".pnm")
            Image.open(source).save(pnm)
            started = time.monotonic()
            subprocess.run(["unpaper", "--overwrite", "-q", pnm, work / (source.stem + "-unpaper.pnm")],
                           check=True, capture_output=True)
            unpaper_s = time.monotonic() - started
            started = time.monotonic()
            subprocess.run([quire, "process", source, "-o", work / source.stem, "--format", "png", "-q",
                            "--viewer", "none"], check=True, capture_output=True)
            quire_s = time.monotonic() - started
            reference = grey(source)
            a = grey(work / (source.stem + "-unpaper.pnm"))
            b = grey(work / source.stem / "pages" / "0001.png")
            print(f"{source.stem:<16}{unpaper_s:>10.2f}{quire_s:>9.2f}{edge_pixels(reference):>15}"
                  f"{edge_pixels(a):>17}{edge_pixels(b):>15}")
            # Input, unpaper, Quire side by side, 500 px high.
            tiles = [Image.fromarray(x).convert("RGB") for x in (reference, a, b)]
            tiles = [t.resize((max(1, t.width * 500 // t.height), 500), Image.LANCZOS) for t in tiles]
            sheet = Image.new("RGB", (sum(t.width for t in tiles) + 24, 500), (160, 160, 160))
            x = 0
            for t in tiles:
                sheet.paste(t, (x, 0))
                x += t.width + 12
            sheet.save(out / f"{source.stem}.png")
    print(f"side by side (input, unpaper, Quire): {out}/")


if __name__ == "__main__":
    main()
