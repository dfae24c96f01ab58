#!/usr/bin/env python3
"""CPU cost of Tesseract in `quire process`: orientation detection and --ocr, per page.

    python3 Tools/bench/ocr_cost.py QUIRE [--before OLD_QUIRE] FOLDER...

For each folder, one page at a time (--jobs 1, so CPU time is the page's own):
- orientation: CPU of the whole run (quire and any child it waits for, e.g. the `tesseract`
  subprocess of Quire before 0.3) with --rotate auto minus the same run with --rotate none,
  divided by the pages the detector was asked about (QUIRE_PROFILE's "2e orientation" calls);
  with --before, the same for an older quire on the same pages;
- OCR: QUIRE_PROFILE's "8 ocr" CPU ms per page with --ocr (read back, recognise, write).
CPU time, not wall time: other work on the machine does not count in it.
"""
import argparse
import re
import resource
import subprocess
import sys
import tempfile


def run(quire, folder, *options, profile=False):
    """CPU seconds (self + children) of one `quire process` run, and its profile table."""
    env = {"QUIRE_PROFILE": "1"} if profile else {}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory() as out:
        done = subprocess.run([quire, "process", folder, "-o", out, "--jobs", "1", "--viewer", "none",
                               "--page-timeout", "0", "-q", *options],
                              capture_output=True, text=True, env={"PATH": "/usr/bin:/bin", **env})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        sys.exit(f"{quire} failed on {folder}: {done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    stages = {}
    for line in done.stderr.splitlines():
        m = re.match(r"(.+?)\s+(\d+)\s+([\d.]+)\s+([\d.]+)$", line)
        if m:
            stages[m.group(1).strip()] = (int(m.group(2)), float(m.group(3)))
    return cpu, stages


def orientation_ms(quire, folder, calls):
    auto, _ = run(quire, folder, "--rotate", "auto")
    none, _ = run(quire, folder, "--rotate", "none")
    return (auto - none) * 1000 / max(1, calls)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("quire")
    parser.add_argument("folders", nargs="+")
    parser.add_argument("--before", help="an older quire to compare orientation with")
    args = parser.parse_args()
    print(f"{'folder':40} {'pages':>5} {'orient. calls':>13} {'orient. ms/page':>16} "
          f"{'before ms/page':>15} {'in-process ms/call':>19} {'OCR ms/page':>12}")
    for folder in args.folders:
        _, stages = run(args.quire, folder, "--ocr", profile=True)
        calls, in_process = stages.get("2e orientation", (0, 0.0))
        pages, ocr = stages.get("8 ocr", (0, 0.0))
        after = orientation_ms(args.quire, folder, calls)
        before = orientation_ms(args.before, folder, calls) if args.before else float("nan")
        print(f"{folder:40} {pages:5d} {calls:13d} {after:16.0f} {before:15.0f} "
              f"{in_process / max(1, calls):19.0f} {ocr / max(1, pages):12.0f}")


if __name__ == "__main__":
    main()
