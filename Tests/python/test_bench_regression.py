"""The regression check of `make bench` (Tools/bench/yardsticks.py): a contender whose time a
page grew by more than 10 % against the recorded results is named; smaller changes, new
contenders and missing records are not failures."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "Tools", "bench"))
import yardsticks  # noqa: E402


def results(seconds, cpu, key="quire", pages=10):
    return {"meta": {"date": "then"},
            "contenders": [{"name": key, "key": key, "pages": pages, "best_seconds": seconds, "cpu_seconds": [cpu]}]}


def test_slower_by_more_than_ten_percent_is_named(tmp_path):
    recorded = tmp_path / "latest.json"
    recorded.write_text(json.dumps(results(10.0, 20.0)))
    lines = yardsticks.compare_with_recorded(results(11.5, 20.5), str(recorded))
    assert len(lines) == 1 and lines[0].startswith("SLOWER quire: wall 1000.0 -> 1150.0"), lines
    lines = yardsticks.compare_with_recorded(results(10.5, 23.0), str(recorded))
    assert len(lines) == 1 and "CPU 2000.0 -> 2300.0" in lines[0], lines


def test_small_changes_new_contenders_and_no_record_pass(tmp_path):
    recorded = tmp_path / "latest.json"
    recorded.write_text(json.dumps(results(10.0, 20.0)))
    assert not any(l.startswith("SLOWER") for l in yardsticks.compare_with_recorded(results(10.9, 21.9), str(recorded)))
    assert not any(l.startswith("SLOWER") for l in
                   yardsticks.compare_with_recorded(results(99.0, 99.0, key="new"), str(recorded)))
    missing = yardsticks.compare_with_recorded(results(10.0, 20.0), str(tmp_path / "absent.json"))
    assert missing[0].startswith("no recorded results")
