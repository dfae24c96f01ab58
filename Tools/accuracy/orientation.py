"""How well `quire process` turns pages upright: every real scan of the set, turned by 0, 90,
180 and 270 degrees, must come back upright; so should the real photos of
Tools/accuracy/real-photos, turned the same way (a photo is straightened first, then asked which
way up it is, as a scan is). A photo's truth is its `upright_turn` in real-photos/truth.json: the
clockwise turn that makes the page straightened from its corners read upright (photos taken
sideways or upside down need 90, 180 or 270; 0 when absent). A third table scores the other
upright real scans (OTHERS: pages the orientation look was not tuned on, many with little or
no text, which should be kept as they are).

    python3 Tools/accuracy/orientation.py [--sets scans,photos,others,bench] [--every N] [--save DIR] [QUIRE] [DATA]

`--sets` picks the tables (default: scans, photos and others); `bench` is the bench's real
scans (Tools/bench/real_scans.txt) as they are, upright, not turned. `--every N` keeps every Nth
real photo (sorted by name): a quicker photo table on a loaded machine.

Each batch runs with `--jobs 1` and QUIRE_PROFILE=1, and the CPU milliseconds of the
orientation stage ("2e orientation": the text check, the line look and Tesseract when asked) are
printed per page and per call (user + system CPU, so other work on the machine does not count).

QUIRE: the quire binary (default .build/release/quire); DATA: ../shared/data/real (the scans;
the photos are in the repo). Each page is turned with `vips rot` into a temporary folder and
processed once (no viewer); a table per set says, per turn, how many pages came back upright,
how many were turned wrong and how many were kept as they were (the detector was not confident
enough, or not asked), with the confidences seen. A page is scored as written: a photo Quire
straightened from another first corner and turned back counts upright (`written_turn`; its quad is
read in the source's frame, where Quire names it even when it found it only after turning the
whole frame: `Quad.unturned`); "no text" counts the pages kept at confidence
0 (too little readable text to ask, or Tesseract found too few characters). Needs libvips-tools (`vips`) and Tesseract
with its osd data (tesseract-ocr, tesseract-ocr-osd).
"""
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# `--save DIR`: each table's layout.json and profile are copied there, to compare two builds page
# by page (layout.png.json for the scans, layout.jpg.json for the photos).
SAVE = None

# Upright real scans with enough text to tell (path under DATA, and page for PDFs).
SET = [
    "tesseract-test-images/phototest.tif",
    "tesseract-test-images/eurotext.tif",
    "tesseract-test-images/8071_093.3B.tif",
    "tesseract-test-images/8087_054.3B.tif",
    "tesseract-test-images/devatest.png",
    "ocrmypdf-test-resources/typewriter.png",
    "ocrmypdf-test-resources/linn.png",
    "ocrmypdf-test-resources/cardinal.pdf[page=0,dpi=150]",
    "ocrmypdf-test-resources/skew.pdf[dpi=150]",
    "unpaper-tests/imgsrc001.png",
    "unpaper-tests/imgsrc002.png",
    "unpaper-tests/imgsrcE001.png",
    "scikit-image-data/page.png",
    "opencv-samples-data/imageTextN.png",
]

# Other upright real scans, not used to tune the line look (LineOrientation): "repo:" paths are
# committed, the others are under DATA.
OTHERS = [
    "tesseract-test-images/deslant.tif",
    "tesseract-test-images/hebtypo.jpg",
    "tesseract-test-images/segmodeimg.tif",
    "unpaper-tests/imgsrc003.png",
    "unpaper-tests/imgsrc004.png",
    "unpaper-tests/imgsrc005.png",
    "unpaper-tests/imgsrcE002.png",
    "unpaper-tests/imgsrcE003.png",
    "ocrmypdf-test-resources/crom.png",
    "ocrmypdf-test-resources/baiona_color.jpg",
    "ocrmypdf-test-resources/c02-22.pdf[dpi=150]",
    "opencv-samples-data/notes.png",
    "opencv-samples-data/text_motion.jpg",
    "debian-python3-skimage-data/bw_text.png",
    "repo:Tools/accuracy/real-scans/galfar-deskew/F1550.jpg",
    "repo:Tools/accuracy/real-scans/ocrmypdf/epson.pdf[dpi=200]",
] + [f"repo:Tools/accuracy/real-scans/sbrunner-deskew/deskew-{n}.png" for n in range(1, 9)]


def bench_scans(data):
    """The bench's real scans (Tools/bench/real_scans.txt) found here, with no load options."""
    items = []
    for line in (REPO / "Tools/bench/real_scans.txt").read_text().splitlines():
        if line.startswith("repo:"):
            path = REPO / line[5:]
        elif line.startswith("shared:"):
            path = data.parent / line[7:]
        else:
            continue
        if path.exists():
            items.append((path, ""))
    return items


def main():
    args = sys.argv[1:]
    sets = {"scans", "photos", "others"}
    if args[:1] == ["--sets"]:
        sets, args = set(args[1].split(",")), args[2:]
    every = 1
    if args[:1] == ["--every"]:
        every, args = int(args[1]), args[2:]
    global SAVE
    if args[:1] == ["--save"]:
        SAVE, args = Path(args[1]), args[2:]
    quire = args[0] if args else str(REPO / ".build/release/quire")
    data = Path(args[1] if len(args) > 1 else REPO.parent / "shared/data/real")
    if not shutil.which("vips") or not shutil.which("tesseract"):
        print("note: vips or tesseract is not installed; orientation not scored")
        return
    if "bench" in sets:
        print("== the bench's real scans, upright")
        score(quire, bench_scans(data), suffix=".png", turns=(0,))
    if "scans" not in sets:
        pass
    elif data.is_dir():
        scans = [(data / path, options) for path, _, options in (item.partition("[") for item in SET)
                 if (data / path).exists()]
        print("== real scans")
        score(quire, scans, suffix=".png")
    else:
        print(f"note: {data} is absent; scans not scored")
    photos = sorted((REPO / "Tools/accuracy/real-photos").glob("*.jpg"))[::every] if "photos" in sets else []
    if photos:
        truth = json.loads((REPO / "Tools/accuracy/real-photos/truth.json").read_text())
        print("== real photos")
        score(quire, [(path, "", truth.get(path.name, {}).get("upright_turn", 0), truth.get(path.name, {}).get("corners"))
                      for path in photos], suffix=".jpg")
    others = []
    for item in OTHERS if "others" in sets else []:
        path, _, options = item.partition("[")
        path = REPO / path[5:] if path.startswith("repo:") else data / path
        if path.exists():
            others.append((path, options))
    if others:
        print("== other real scans (not used for tuning)")
        score(quire, others, suffix=".png")


def true_top_angle(corners, upright_turn):
    """The direction (degrees clockwise from +x, y down) of the upright page's top edge, left to
    right, in the photo as given: from the corner that becomes the top-left once the page
    straightened from `corners` (TL, TR, BR, BL) is turned clockwise by `upright_turn` to the
    next. A clockwise quarter turn brings the bottom-left corner to the top-left, so that corner
    is `(4 - upright_turn / 90) % 4`. Without corners (a scan, a photo read as a whole frame) the
    page is the frame, whose top edge runs at 0 degrees before the turn."""
    quarter = (upright_turn // 90) % 4
    if not corners:
        return -90 * quarter
    first = (4 - quarter) % 4
    (x0, y0), (x1, y1) = corners[first], corners[(first + 1) % 4]
    return math.degrees(math.atan2(y1 - y0, x1 - x0))


def written_turn(page, true_top):
    """The clockwise quarter turn (0, 90, 180 or 270) the written page still needs to read
    upright, from its layout.json record: where its top edge lies in the source against where the
    true top edge lies (`true_top`, degrees, in the source as Quire read it). A page straightened
    from a quad has its `quad` named as written (TL, TR first, whatever corner Quire straightened
    from before it turned the page), so its top edge is quad[0] -> quad[1]; a page written from the
    whole frame (no quad: a scan, deskewed or kept) is the source turned clockwise by `rotation`,
    whose top edge ran at -rotation degrees in the source. Scoring `rotation` alone against the
    turn the true corners need counts a page straightened from another first corner and turned
    back upright as wrong. The quad is read as written, in the source's frame: Quire names it
    there even for a page it turned before it found the quad (`Quad.unturned`). Guessing the frame
    from the nearer of two readings to the true corners took the wrong one for a split half (its
    quad covers half the true page) and for a loose quad."""
    quad = page.get("quad")
    if quad:
        (x0, y0), (x1, y1) = quad[0], quad[1]
        written_top = math.degrees(math.atan2(y1 - y0, x1 - x0))
    else:
        written_top = -page.get("rotation", 0)
    # In the written page's own frame (its top edge at 0) the true top edge runs at
    # true_top - written_top; a clockwise turn by x adds x to it, and upright is 0.
    return round((written_top - true_top) / 90) % 4 * 90


def score(quire, items, suffix, turns=(0, 90, 180, 270)):
    """Turns every (path, load options[, upright turn[, true corners]]) of `items` by each of
    `turns` degrees, processes them in one batch and prints the table. The upright turn (0 when not
    given) is the clockwise turn the page straightened from the true corners (TL, TR, BR, BL, in
    display pixels; the whole frame when not given) needs to read upright. Each page is scored as
    written (`written_turn`), not by its `rotation` alone."""
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        expected = {}
        for path, options, *truth in items:
            upright_turn = truth[0] if truth else 0
            corners = truth[1] if len(truth) > 1 else None
            stem = Path(path).stem
            upright = work / f"{stem}.v"
            source = f"{path}[{options}" if options else str(path)
            # The EXIF orientation first (`vips rot` turns the stored pixels), and none written
            # after: autorot keeps the tag in the metadata, and a photo saved with it would be
            # turned again when read.
            subprocess.run(["vips", "autorot", source, str(upright)], check=True, capture_output=True)
            for turn in turns:
                name = f"{stem}-r{turn}{suffix}"
                subprocess.run(["vips", "rot", str(upright), f"{work / name}[strip]", f"d{turn}"], check=True,
                               capture_output=True)
                expected[name] = (true_top_angle(corners, upright_turn) + turn, (upright_turn - turn) % 360, turn)
            upright.unlink()
        out = work / "out"
        done = subprocess.run([quire, "process", str(work), "-o", str(out), "--format", "png", "--viewer", "none",
                               "--jobs", "1", "--page-timeout", "0", "-q"], capture_output=True, text=True,
                              env={**os.environ, "QUIRE_PROFILE": "calls" if os.environ.get("QUIRE_PROFILE") == "calls" else "1"})
        pages = json.loads((out / "layout.json").read_text())["pages"]
        if SAVE:
            SAVE.mkdir(parents=True, exist_ok=True)
            shutil.copy(out / "layout.json", SAVE / f"layout{suffix}.json")
            (SAVE / f"profile{suffix}.txt").write_text(done.stderr)
    calls, spent, stages = 0, 0.0, []
    for line in done.stderr.splitlines():
        m = re.match(r"2e orientation\s+(\d+)\s+([\d.]+)\s", line)
        if m:
            calls, spent = int(m.group(1)), float(m.group(2))
        m = re.match(r"(2e [a-z ]+?)\s+(\d+)\s+([\d.]+)\s", line)
        if m and m.group(1) != "2e orientation":
            stages.append(f"{m.group(1)}: {m.group(2)} calls, {float(m.group(3)) / max(1, int(m.group(2))):.0f} ms a call")
    rows = {turn: {"upright": 0, "wrong": 0, "kept": 0, "blank": 0, "conf": []} for turn in turns}
    failures = []
    for page in pages:
        name = Path(page["source"]).name
        top, want, turn = expected[name]
        got = page.get("rotation", 0)
        row = rows[turn]
        confidence = page.get("rotationConfidence")
        if confidence is not None:
            row["conf"].append(confidence)
        if got == 0 and not confidence:
            row["blank"] += 1
        still = written_turn(page, top)
        if still == 0:
            row["upright"] += 1
        elif got == 0:
            row["kept"] += 1
            failures.append(f"{name}: kept as it was (confidence {confidence}), needs {still} more")
        else:
            row["wrong"] += 1
            failures.append(f"{name}: turned {got}, needed {want} as straightened; the written page needs {still} more "
                            f"(confidence {confidence})")
    print(f"{'turned by':>10}{'pages':>7}{'upright':>9}{'wrong':>7}{'kept':>6}{'no text':>9}  confidence min-max")
    for turn, row in rows.items():
        n = row["upright"] + row["wrong"] + row["kept"]
        conf = f"{min(row['conf']):.2f}-{max(row['conf']):.2f}" if row["conf"] else "-"
        print(f"{turn:>10}{n:>7}{row['upright']:>9}{row['wrong']:>7}{row['kept']:>6}{row['blank']:>9}  {conf}")
    total = sum(r["upright"] for r in rows.values())
    print(f"upright {total} of {len(pages)} pages")
    print(f"orientation CPU: {spent / max(1, len(pages)):.1f} ms a page, {spent / max(1, calls):.1f} ms a call "
          f"({calls} calls, {spent / 1000:.1f} s)")
    for line in stages:
        print("  " + line)
    for line in failures:
        print("  " + line)


if __name__ == "__main__":
    main()
