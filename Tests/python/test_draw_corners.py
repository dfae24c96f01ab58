"""Tools/accuracy/draw_corners.py draws the true corners where the truth file puts them,
after the EXIF orientation, so a person checking the real-photo truth sees it on the paper."""
import json
import pathlib
import subprocess
import sys

from PIL import Image

TOOL = pathlib.Path(__file__).resolve().parents[2] / "Tools" / "accuracy" / "draw_corners.py"


def test_truth_is_drawn_in_display_pixels(tmp_path):
    photos = tmp_path / "photos"
    photos.mkdir()
    # Stored 200x100, EXIF orientation 6: displayed 100x200 (rotated 90 degrees clockwise).
    im = Image.new("RGB", (200, 100), (40, 40, 40))
    exif = Image.Exif()
    exif[274] = 6
    im.save(photos / "p.jpg", exif=exif)
    quad = [[20, 30], [80, 30], [80, 170], [20, 170]]
    truth = tmp_path / "truth.json"
    truth.write_text(json.dumps({"p.jpg": {"corners": quad, "display_size": [100, 200]}}))
    out = tmp_path / "out"
    subprocess.run([sys.executable, str(TOOL), str(photos), str(out), "--truth", str(truth)], check=True)
    drawn = Image.open(out / "p.png").convert("RGB")
    assert drawn.size == (100, 200)
    r, g, b = drawn.getpixel((50, 30))  # on the top side
    assert g > 150 and r < 100
    r, g, b = drawn.getpixel((50, 100))  # inside the page: untouched
    assert g < 80
