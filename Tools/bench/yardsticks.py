"""Yardsticks that share no code with Quire, the real-input sets, the stage profile and the
regression check of `make bench` (imported by run_bench.py).

The independent floors and peers are read from ../shared/bench (SHARED_BENCH overrides): they
are not copied into the repository, and the rows that need them are skipped with a note when the
folder is absent. Real photos are the repository's Tools/accuracy/real-photos; real scans are
the files listed in Tools/bench/real_scans.txt (the repository's own, then ../shared/data ones,
absent files skipped).
"""
from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED_BENCH = os.environ.get("SHARED_BENCH", os.path.join(os.path.dirname(ROOT), "shared", "bench"))
SHARED_DATA = os.environ.get("SHARED_DATA", os.path.join(os.path.dirname(ROOT), "shared", "data"))
RESULTS = os.path.join(ROOT, "Tools", "bench", "results", "latest.json")
# A contender counts as slower when its time per page grew by more than this share.
REGRESSION_SHARE = 0.10


def shared_script(name: str) -> str | None:
    path = os.path.join(SHARED_BENCH, name)
    return path if os.path.isfile(path) else None


def real_scans() -> list[str]:
    """The real scans of Tools/bench/real_scans.txt that exist here (repo: ..., shared: ...)."""
    found = []
    with open(os.path.join(ROOT, "Tools", "bench", "real_scans.txt")) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            root, rel = line.split(":", 1)
            path = os.path.join(ROOT, rel) if root == "repo" else os.path.join(SHARED_DATA, rel)
            if os.path.isfile(path):
                found.append(path)
    return found


def link_folder(folder: str, files: list[str]) -> str:
    """`folder` made afresh with symlinks to `files` (one folder a set, so tools that take a
    folder see exactly these files)."""
    if os.path.isdir(folder):
        for n in os.listdir(folder):
            os.remove(os.path.join(folder, n))
    os.makedirs(folder, exist_ok=True)
    for p in files:
        os.symlink(os.path.abspath(p), os.path.join(folder, os.path.basename(p)))
    return folder


def two_halves(py: str, script: str, lead: list[str], files: list[str]) -> list[str]:
    """A shell command running `script` twice side by side on the two halves of `files` (the
    2-core floor of ../shared/bench/README.md); fails when either half fails."""
    half = (len(files) + 1) // 2
    one = shlex.join([py, script, *lead, *files[:half]])
    two = shlex.join([py, script, *lead, *files[half:]])
    return ["sh", "-c", f"{one} & a=$!; {two}; b=$?; wait $a && exit $b"]


def photo_sizes(truth_source: str, out: str) -> str:
    """SIZES.json for floor_photos.py: each capture's page [width, height] from truth.json
    corners (the four-point rule); files without truth keep the whole frame."""
    sizes = {}
    path = os.path.join(truth_source, "truth.json")
    if os.path.exists(path):
        with open(path) as f:
            truth = json.load(f)

        def dist(a, b):
            return ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5
        for name, t in truth.items():
            c = t.get("corners") if isinstance(t, dict) else None
            if c and len(c) == 4:
                tl, tr, br, bl = c
                sizes[name] = [round(max(dist(tl, tr), dist(bl, br))), round(max(dist(tl, bl), dist(tr, br)))]
    with open(out, "w") as f:
        json.dump(sizes, f)
    return out


def stage_profile(quire: str, folder: str, extra: list[str], out: str) -> list[tuple[str, float, int]]:
    """CPU ms a call of each stage: one `QUIRE_PROFILE=1 quire process --jobs 1` run."""
    env = dict(os.environ, QUIRE_PROFILE="1")
    proc = subprocess.run([quire, "process", folder, "-o", out, "--jobs", "1", *extra], env=env,
                          capture_output=True, text=True)
    rows, seen = [], False
    for line in proc.stderr.splitlines():
        if line.startswith("stage"):
            seen = True
            continue
        parts = line.rsplit(None, 3)
        if seen and len(parts) == 4:
            try:
                rows.append((parts[0], float(parts[3]), int(parts[1])))
            except ValueError:
                pass
    subprocess.run(["rm", "-rf", out])
    return rows


def compare_with_recorded(results: dict, path: str = RESULTS) -> list[str]:
    """Lines naming every contender (by key and set) whose wall or CPU ms a page grew by more
    than REGRESSION_SHARE against the results recorded at `path`."""
    if not os.path.exists(path):
        return [f"no recorded results at {os.path.relpath(path, ROOT)}: run with --record to make them"]
    with open(path) as f:
        old = json.load(f)

    def per_page(doc):
        table = {}
        for c in doc.get("contenders", []):
            if c.get("best_seconds") and c.get("pages"):
                cpu = min(c["cpu_seconds"]) * 1000 / c["pages"] if c.get("cpu_seconds") else None
                table[c["key"]] = (c["best_seconds"] * 1000 / c["pages"], cpu, c["name"])
        return table
    before, now = per_page(old), per_page(results)
    lines = []
    for key, (wall, cpu, name) in now.items():
        if key not in before:
            continue
        w0, c0, _ = before[key]
        for what, a, b in (("wall", w0, wall), ("CPU", c0, cpu)):
            if a and b and b > a * (1 + REGRESSION_SHARE):
                lines.append(f"SLOWER {name}: {what} {a:.1f} -> {b:.1f} ms/page (+{(b / a - 1) * 100:.0f}%)")
    recorded = old.get("meta", {}).get("date", "?")
    return lines or [f"nothing slower by more than {REGRESSION_SHARE * 100:.0f}% than the results of {recorded}"]


def record(results: dict, path: str = RESULTS) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(results, f, indent=1)
        f.write("\n")
    print(f"recorded in {os.path.relpath(path, ROOT)}", file=sys.stderr)
