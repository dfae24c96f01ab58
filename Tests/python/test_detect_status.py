"""`quire detect` uses `quire process`'s exit statuses: 0 when every input was read, 1 when one
could not be (named on stderr, the others still detected), 2 for a usage error."""
import json
import subprocess
from pathlib import Path

SAMPLES = Path(__file__).resolve().parents[2] / "Samples" / "scans"


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
    assert results[0]["kind"] in ("photo", "scan", "none")
    lines = mixed.stderr.strip().splitlines()
    assert len(lines) == 2 and "broken.jpg" in lines[0] and "missing.png" in lines[1]
    usage = subprocess.run([quire_bin, "detect"], capture_output=True, text=True)
    assert usage.returncode == 2
