"""Tools/accuracy/add_photo.py stores a real photo with its truth: the photo file read is the
one named on the command line, and --source (the public repository) is recorded beside it,
not read as the file (the two once shared one argparse destination, so every call with
--source tried to open "owner/name")."""
import json
import subprocess
import sys
from pathlib import Path

from PIL import Image

REPO = Path(__file__).resolve().parents[2]
TOOL = REPO / "Tools" / "accuracy" / "add_photo.py"


def test_a_photo_with_its_source_repository_is_stored_and_scaled(tmp_path):
    photo = tmp_path / "in.png"
    Image.new("RGB", (400, 200), "white").save(photo)
    out = tmp_path / "set"
    done = subprocess.run(
        [sys.executable, str(TOOL), str(photo), "p.jpg", "--set", str(out), "--long-side", "200",
         "--corners", "40,20 360,20 360,180 40,180", "--source", "owner/name", "--kind", "page"],
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    entry = json.loads((out / "truth.json").read_text())["p.jpg"]
    assert entry["source"] == "owner/name" and entry["split"] == "held-out"
    assert entry["display_size"] == [200, 100]
    assert entry["corners"] == [[20, 10], [180, 10], [180, 90], [20, 90]]
    assert Image.open(out / "p.jpg").size == (200, 100)
