"""The issue-32 targets of `make bench` (Tools/bench/run_bench.py) are medians of paired runs:
each run's quire time over the yardstick's time in the same interleaved run, wall and CPU,
not the best run of each (which pairs times taken under different load)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "Tools", "bench"))
import run_bench  # noqa: E402


def contender(key, folder, times, cpu):
    c = run_bench.Contender(key, key, None, 3, folder)
    c.times, c.cpu = list(times), list(cpu)
    return c


def test_scan_target_is_the_median_of_paired_ratios():
    # Run by run: wall 10/5, 30/10, 12/4 = 2, 3, 3 (median 3; best against best would be 2.5);
    # CPU 4/2, 6/2, 9/3 = 2, 3, 3.
    quire = contender("quire-scans", "scans", [10, 30, 12], [4, 6, 9])
    floor = contender("ifloor-scans", "scans", [5, 10, 4], [2, 2, 3])
    meta = {"date": "now", "machine": "test", "captures": "-", "megapixels": "-", "runs": 3,
            "load_before": "0", "load_after": "0", "floor_page": "-"}
    text, targets = run_bench.report([quire, floor], 10, 0, meta, False, {"scans": 24})
    scan = next(t for t in targets if t["target"].startswith("real scans"))
    assert scan["verdict"] == "FAIL", scan
    assert scan["detail"].startswith("3.00x wall, 3.00x CPU"), scan
    row = next(line for line in text.splitlines() if line.startswith("quire-scans"))
    assert row.rstrip().endswith("3.00x         3.00x"), row


def test_faster_targets_invert_the_paired_ratio():
    # The thumbnails take half the Pillow peer's time in every run: 2x its pages/s.
    thumbs = contender("quire-thumbs", "main", [1, 2], [1, 2])
    pillow = contender("pillow-shared", "main", [2, 4], [2, 4])
    meta = {"date": "now", "machine": "test", "captures": "-", "megapixels": "-", "runs": 2,
            "load_before": "0", "load_after": "0", "floor_page": "-"}
    _, targets = run_bench.report([thumbs, pillow], 10, 0, meta, False, {})
    t = next(t for t in targets if "thumbnails-only >= 2x" in t["target"])
    assert t["verdict"] == "PASS" and t["detail"].startswith("2.00x wall, 2.00x CPU"), t
