"""`quire detect` uses `quire process`'s exit statuses: 0 when every input was read, 1 when one
could not be (named on stderr, the others still detected), 2 for a usage error."""
import json
import subprocess
from pathlib import Path

SAMPLES = Path(__file__).resolve().parents[2] / "Tests" / "Fixtures" / "generated"


def test_detect_exit_status_follows_process(quire_bin, tmp_path):
    good = sorted(SAMPLES.glob("*.jpg"))[0]
    ok = subprocess.run([quire_bin, "detect", str(good)], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    bad = tmp_path / "broken.jpg"
    bad.write_bytes(b"\xff\xd8\xff\xe0 not really a jpeg")
    mixed = subprocess.run([quire_bin, "detect", str(good), str(bad), str(tmp_path / "missing.png")],
                           capture_output=True, text=True)
    assert mixed.returncode == 1, mixed.stderr
    results = json.loads(mixed.stdout)["results"]
    assert [("error" in r) for r in results] == [False, True, True]
    # The same stable codes as layout.json errors and progress lines.
    assert [r.get("code") for r in results] == [None, "truncated", "not-found"]
    assert results[0]["kind"] in ("photo", "scan", "none")
    lines = mixed.stderr.strip().splitlines()
    assert len(lines) == 2 and "broken.jpg" in lines[0] and "missing.png" in lines[1]
    assert lines[1].count("missing.png") == 1, "the path is named once"
    usage = subprocess.run([quire_bin, "detect"], capture_output=True, text=True)
    assert usage.returncode == 2


def test_detect_corners_out_round_trips_through_process(quire_bin, tmp_path):
    """detect -> a person moves a corner -> process --corners: the page is cut where they said."""
    photo, scan = SAMPLES / "cap_000.jpg", SAMPLES / "scan_004.jpg"
    corners = tmp_path / "corners.json"
    detect = subprocess.run([quire_bin, "detect", str(photo), str(scan), "--corners-out", str(corners)],
                            capture_output=True, text=True)
    assert detect.returncode == 0, detect.stderr
    found = {r["source"]: r for r in json.loads(detect.stdout)["results"]}
    written = json.loads(corners.read_text())
    # Photos only: a scan is deskewed, which corners cannot say, and keeps its own analysis.
    assert found[str(photo)]["kind"] == "photo" and found[str(scan)]["kind"] == "scan"
    assert list(written) == [str(photo)]
    assert written[str(photo)] == found[str(photo)]["quad"]

    # As found: process cuts the same quad detect showed.
    out = tmp_path / "as-found"
    run = subprocess.run([quire_bin, "process", str(photo), "--corners", str(corners), "-o", str(out), "-q"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    page = json.loads((out / "layout.json").read_text())["pages"][0]
    assert page["correction"] == "perspective"
    assert page["quad"] == written[str(photo)]

    # Edited: pull the bottom-right corner 200 px in; process follows the edit, not detection.
    edited = [list(p) for p in written[str(photo)]]
    edited[2] = [edited[2][0] - 200, edited[2][1] - 200]
    corners.write_text(json.dumps({str(photo): edited}))
    out2 = tmp_path / "edited"
    run = subprocess.run([quire_bin, "process", str(photo), "--corners", str(corners), "-o", str(out2), "-q"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    page2 = json.loads((out2 / "layout.json").read_text())["pages"][0]
    assert page2["quad"] == edited
    assert (page2["width"], page2["height"]) != (page["width"], page["height"])


def test_detect_corners_out_keys_a_name_holding_a_hash(quire_bin, tmp_path):
    """A key is the path as given; `file#N` picks page N, so a name with its own '#' gets one."""
    corners = tmp_path / "c.json"
    names = tmp_path / "odd #name.jpg"
    names.write_bytes((SAMPLES / "cap_000.jpg").read_bytes())
    detect = subprocess.run([quire_bin, "detect", str(names), "--corners-out", str(corners)],
                            capture_output=True, text=True)
    assert detect.returncode == 0, detect.stderr
    # A name holding '#' gets its page number, so the text after its own '#' is not read as one.
    assert list(json.loads(corners.read_text())) == [f"{names}#1"]
    out = tmp_path / "out"
    run = subprocess.run([quire_bin, "process", str(names), "--corners", str(corners), "-o", str(out), "-q"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
