#!/usr/bin/env python3
"""Tesseract settings that may do less work: the CPU of Quire's OCR with each, and its words
against the `tesseract` command's on the same written pages.

    python3 Tools/bench/ocr_settings.py QUIRE [--rounds 3] INPUT... [--only NAME|name=value,... ...]

QUIRE must read `QUIRE_TESSERACT_SET="name=value,..."` (Tesseract variables set on its OCR engines,
`psm=N` the page segmentation mode): a release build of commit 1b40535, where that hook was added
for these measurements and then removed; shipped builds ignore it, so every run is the default.
`--only` goes after the inputs (it takes any number of values). Per round, every
setting runs once, alternating with a run without it ("default"), each `quire process --ocr
--jobs 1` over all INPUTs with QUIRE_PROFILE=1: the "8 ocr" stage's CPU ms (the OCR thread's own)
and the run's CPU (user + system from wait4). The words of each run's hOCR are compared with
`tesseract PAGE - hocr` on its written pages, per page, as Tests/python/test_ocr.py counts them;
the written pages are checked to be byte for byte those of the default run. Prints one row per
setting: median CPU, change against the default runs of the same rounds, words equal, the worst
page.
"""
import argparse
import difflib
import hashlib
import html
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

WORD = re.compile(r"class='ocrx_word'[^>]*>(.*?)</span>", re.S)
STAGE = re.compile(r"^8 ocr\s+\d+\s+([\d.]+)", re.M)

SETTINGS = {
    "find_tables": "textord_tabfind_find_tables=0",
    "vertical_text": "textord_tabfind_vertical_text=0",
    "fuzzy_spaces": "tessedit_fix_fuzzy_spaces=0",
    "threshold_1": "thresholding_method=1",
    "threshold_2": "thresholding_method=2",
    "psm_6": "psm=6",
    "psm_4": "psm=4",
    "learning": "classify_enable_learning=0",
    "doc_dict": "tessedit_enable_doc_dict=0",
    "noise_removal": "enable_noise_removal=0",
    "invert_0.5": "invert_threshold=0.5",
}


def hocr_words(text):
    return [html.unescape(re.sub(r"<[^>]+>", "", w)) for w in WORD.findall(text)]


def quire(binary, inputs, out, setting):
    env = {**os.environ, "QUIRE_PROFILE": "1", "OMP_THREAD_LIMIT": "1"}
    if setting:
        env["QUIRE_TESSERACT_SET"] = setting
    shutil.rmtree(out, ignore_errors=True)
    proc = subprocess.Popen([binary, "process", *inputs, "-o", out, "--ocr", "--jobs", "1", "--viewer", "none",
                             "--page-timeout", "0", "-q"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env=env)
    err = proc.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        sys.exit(f"{binary} failed ({setting}): {err}")
    stage = STAGE.search(err)
    return float(stage.group(1)) / 1000 if stage else float("nan"), usage.ru_utime + usage.ru_stime


def pages(out):
    layout = json.loads((out / "layout.json").read_text())
    return [(out / p["files"]["page"], out / p["text"]["hocr"]) for p in layout["pages"]]


def command_words(page, cache):
    digest = hashlib.sha256(page.read_bytes()).hexdigest()
    if digest not in cache:
        cli = subprocess.run(["tesseract", page, "-", "-l", "eng", "hocr"], capture_output=True, text=True,
                             env={**os.environ, "OMP_THREAD_LIMIT": "1"})
        cache[digest] = hocr_words(cli.stdout)
    return digest, cache[digest]


def agreement(out, cache):
    """(same, total, worst page's fraction and name, page digests) of OUT against the command."""
    same = total = 0
    worst = (1.0, "")
    digests = []
    for page, hocr in pages(out):
        digest, theirs = command_words(page, cache)
        digests.append(digest)
        ours = hocr_words(hocr.read_text())
        matcher = difflib.SequenceMatcher(a=ours, b=theirs, autojunk=False)
        s = sum(block.size for block in matcher.get_matching_blocks())
        t = max(len(ours), len(theirs))
        same, total = same + s, total + t
        if t and s / t < worst[0]:
            worst = (s / t, page.name)
    return same, total, worst, digests


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("quire")
    parser.add_argument("inputs", nargs="+")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--only", nargs="*", help="setting names (default: all); 'name=value,...' for others")
    args = parser.parse_args()
    chosen = {n: SETTINGS.get(n, n) for n in args.only} if args.only else dict(SETTINGS)
    cache, runs, words = {}, {n: [] for n in ["default", *chosen]}, {}
    with tempfile.TemporaryDirectory() as tmp:
        base_digests = None
        for r in range(args.rounds):
            for name, setting in chosen.items():
                for label, value in (("default", None), (name, setting)):
                    out = Path(tmp) / label
                    stage, cpu = quire(args.quire, args.inputs, out, value)
                    runs[label].append((stage, cpu))
                    if label not in words:
                        same, total, worst, digests = agreement(out, cache)
                        base_digests = base_digests or digests
                        words[label] = (same, total, worst, digests == base_digests)
                    print(f"round {r + 1} {label:14} ocr {stage:7.2f} s  run {cpu:7.2f} s", flush=True)
    base_stage = statistics.median(s for s, _ in runs["default"])
    base_cpu = statistics.median(c for _, c in runs["default"])
    print(f"\n| setting | OCR stage CPU s (median) | change | run CPU s | words = command's | worst page |")
    print("|---|---:|---:|---:|---:|---|")
    for label, values in runs.items():
        stage = statistics.median(s for s, _ in values)
        cpu = statistics.median(c for _, c in values)
        same, total, worst, pages_same = words[label]
        note = "" if pages_same else " (pages differ!)"
        print(f"| {chosen.get(label, 'default')} | {stage:.2f} ({', '.join(f'{s:.2f}' for s, _ in values)}) | "
              f"{100 * (stage / base_stage - 1):+.1f} % | {cpu:.2f} | {same} of {total} "
              f"({100 * same / max(total, 1):.2f} %) | {worst[1]} {100 * worst[0]:.1f} %{note} |")


if __name__ == "__main__":
    main()
