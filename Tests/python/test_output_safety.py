"""The three ways a user's own setup could spoil OUT, tried with the real binary: OUT inside the
input folder, two runs on one OUT, and a full disk (a small tmpfs, where this user may mount one)."""
import fcntl
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import SAMPLES

CAPTURES = sorted(SAMPLES.glob("cap_*.jpg"))


def run(quire_bin, *args):
    return subprocess.run([quire_bin, *args], capture_output=True, text=True)


def pages(out: Path) -> int:
    return len(json.loads((out / "layout.json").read_text())["pages"])


def test_out_inside_the_input_folder_is_never_an_input(quire_bin, tmp_path):
    scans = tmp_path / "scans"
    scans.mkdir()
    for p in CAPTURES:
        shutil.copy(p, scans)
    out = scans / "out"
    for _ in range(2):
        r = run(quire_bin, "process", str(scans), "-o", str(out), "--correct", "none", "-q")
        assert r.returncode == 0, r.stderr
        assert pages(out) == len(CAPTURES)


def test_a_second_run_on_a_locked_out_is_refused(quire_bin, tmp_path):
    out = tmp_path / "out"
    (out / ".quire").mkdir(parents=True)
    lock = out / ".quire" / "lock"
    with open(lock, "w") as held:
        held.write(f"{os.getpid()}\n")
        held.flush()
        fcntl.flock(held, fcntl.LOCK_EX)  # what a live `quire process` holds
        r = run(quire_bin, "process", str(CAPTURES[0]), "-o", str(out), "-q")
        assert r.returncode == 1
        assert f"is in use by another quire process (pid {os.getpid()})" in r.stderr
        assert not (out / "layout.json").exists()
    # Released, as when that process dies: the file left behind blocks nothing.
    assert lock.exists()
    r = run(quire_bin, "process", str(CAPTURES[0]), "-o", str(out), "-q", "--correct", "none")
    assert r.returncode == 0, r.stderr


def test_a_full_disk_is_named_and_keeps_the_previous_run(quire_bin, tmp_path):
    disk = tmp_path / "disk"
    disk.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=900k", "tmpfs", str(disk)],
                                           capture_output=True).returncode != 0:
        pytest.skip("mounting a small tmpfs needs root")
    try:
        out = disk / "out"
        r = run(quire_bin, "process", str(CAPTURES[0]), "-o", str(out), "-q")
        assert r.returncode == 0, r.stderr
        before = (out / "layout.json").read_bytes()
        r = run(quire_bin, "process", *map(str, CAPTURES), str(SAMPLES), "-o", str(out))
        assert r.returncode == 1
        assert f"cannot write {out}: no space left on device" in r.stderr
        assert "cannot decode" not in r.stderr
        assert (out / "layout.json").read_bytes() == before
        assert sorted(p.name for p in (out / "pages").iterdir()) == ["0001.jpg"]
    finally:
        subprocess.run(["umount", str(disk)])
