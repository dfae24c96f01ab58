"""`quire detect` is a preview of `quire process`: on every real scan and photo available, both
take the same decision (photo -> perspective with the same quad, scan -> deskew by the same angle,
none -> none; the pages of a split open book take the spread's decision, each at its own angle),
and the same turn, photos taken sideways included (two of the repo's real photos, turned).

Reads the real scans committed in Tools/accuracy/real-scans and ../shared/data/real ($QUIRE_SHARED_DATA;
left out when absent).
"""
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("QUIRE_SHARED_DATA", REPO.parent / "shared" / "data"))
REPO_SCANS = REPO / "Tools" / "accuracy" / "real-scans"
# Real sets of pages (scans and photos of documents); decode-test and fuzz folders are left out.
REAL_DIRS = ["real/unpaper-tests", "real/tesseract-test-images", "real/scikit-image-data",
             "real/opencv-samples-data", "real/ocrmypdf-test-resources", "real/debian-python3-skimage-data",
             "real/exif-orientation-examples"]
IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".tif", ".tiff", ".pbm", ".pdf"}
KIND_OF_CORRECTION = {"perspective": "photo", "deskew": "scan", "none": "none"}
REPO_PHOTOS = REPO / "Tools" / "accuracy" / "real-photos"
SIDEWAYS_PHOTOS = ["dynamsoft_about_page.jpg", "inv3d_invoice_tiles.jpg"]


def real_files():
    files = []
    for d in REAL_DIRS:
        folder = SHARED / d
        if folder.is_dir():
            files += sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    files += sorted(p for p in REPO_SCANS.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES)
    return files


def test_detect_and_process_decide_the_same(quire_bin, tmp_path):
    files = real_files()
    if not files:
        pytest.skip("no real scans here")
    inputs = tmp_path / "in"
    inputs.mkdir()
    for i, f in enumerate(files):   # unique names: the layout is keyed by file name
        shutil.copy(f, inputs / f"{i:03d}-{f.name}")
    # Photos taken with the page on its side: process turns the straightened page upright and
    # names the page's own corners; detect must say the same turn and the same quad.
    for name in SIDEWAYS_PHOTOS:
        for turn in ("d90", "d270"):
            subprocess.run(["vips", "rot", str(REPO_PHOTOS / name), str(inputs / f"turned-{turn}-{name}"), turn], check=True)
    # Both at once: detect reads the inputs one by one on one core while process uses two, and
    # neither writes where the other reads, so the test no longer waits for detect alone.
    out = tmp_path / "out"
    # No page time limit: on a loaded machine a page that ran out of time would drop out of the
    # comparison unseen (the check below also fails on any page detect read and process did not).
    process = subprocess.Popen([quire_bin, "process", str(inputs), "-o", str(out), "--page-timeout", "0"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        detect = subprocess.run([quire_bin, "detect", str(inputs)], capture_output=True, text=True)
    finally:
        _, process_errors = process.communicate()
    assert detect.returncode in (0, 1), detect.stderr   # 1: some real files are truncated on purpose
    assert process.returncode in (0, 1), process_errors
    detected = {Path(r["source"]).name: r for r in json.loads(detect.stdout)["results"]}
    layout = json.loads((out / "layout.json").read_text())
    # Every file detect read is a page of process's, or one process refused and said why (a
    # file it finds damaged where detect's smaller read did not); none ran out of time.
    processed = {Path(page["source"]).name for page in layout["pages"]}
    refused = {Path(e["source"]).name: e.get("code") for e in layout["errors"]}
    assert "timeout" not in refused.values(), refused
    missing = sorted(n for n, r in detected.items() if "error" not in r and n not in processed | refused.keys())
    assert not missing, f"detect read these and process neither wrote nor refused them: {missing}"
    compared, disagreements = 0, []
    for page in layout["pages"]:
        if page.get("sourcePage", 0):
            continue   # detect looks at the first page of a multi-page file
        name = Path(page["source"]).name
        r = detected.get(name)
        if r is None or "error" in r:
            continue
        compared += 1
        kind = KIND_OF_CORRECTION[page["correction"]]
        if kind != r.get("kind"):
            disagreements.append(f"{name}: detect {r.get('kind')}, process {page['correction']}")
        elif kind == "scan" and not page.get("split") and abs((page["skewDegrees"] or 0) - (r["skewDegrees"] or 0)) > 0.001:
            # (A page of a split open book is deskewed on its own: its angle is not the spread's.)
            disagreements.append(f"{name}: skew detect {r['skewDegrees']}, process {page['skewDegrees']}")
        if page.get("rotation", 0) != r.get("rotation", 0):
            disagreements.append(f"{name}: rotation detect {r.get('rotation')}, process {page.get('rotation')}")
        if kind == "photo" and not page.get("split") and r.get("quad") and page.get("quad"):
            if max(abs(a - b) for p, q in zip(page["quad"], r["quad"]) for a, b in zip(p, q)) > 1:
                disagreements.append(f"{name}: quad detect {r['quad']}, process {page['quad']}")
        if name.startswith("turned-") and shutil.which("tesseract") and page.get("rotation", 0) not in (90, 270):
            disagreements.append(f"{name}: a page photographed sideways written with rotation {page.get('rotation')}")
    assert compared >= 10, f"only {compared} real files compared"
    assert not disagreements, "\n".join(disagreements)
