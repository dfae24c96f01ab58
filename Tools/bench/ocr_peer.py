#!/usr/bin/env python3
"""Searchable PDFs: `quire process --ocr --pdf` against OCRmyPDF on the same pages, one core each.

    python3 Tools/bench/ocr_peer.py QUIRE [--before OLD_QUIRE] [--runs 3] [--ocrmypdf BIN] INPUT...

INPUT: files or folders, as `quire process` takes them. Per round, in this order (alternating, so
load on the shared machine falls on every contender alike): OLD_QUIRE --ocr --pdf, QUIRE --ocr --pdf,
QUIRE --pdf (no OCR), and OCRmyPDF on the PDF that last run wrote (its pages, Quire's corrected
ones, get a text layer: `ocrmypdf --jobs 1 -l eng --output-type pdf --optimize 0`, the options that
match what Quire does: no PDF/A conversion, the images kept as they are, one page at a time).
Every run is `--jobs 1`; its CPU is user + system of the process and every child it waited for
(Tesseract processes, Ghostscript), from wait4, so other work on the machine does not count.
Prints each run, the medians, pages per CPU second, the ratios, the word agreement of each quire's
hOCR with `tesseract PAGE - hocr` on the same written pages (as Tests/python/test_ocr.py counts
it) and the PDF's size against its page JPEGs plus 30 KB a page.
"""
import argparse
import difflib
import html
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

WORD = re.compile(r"class='ocrx_word'[^>]*>(.*?)</span>", re.S)
# The text layer the issue allows a page on top of its JPEG.
TEXT_BYTES_PER_PAGE = 30 * 1024


def run(argv, env=None):
    """Exit code, stderr, CPU seconds (user + system, with the children it waited for) and peak RSS
    (MB) of one command, reaped with wait4 so the figures are its own."""
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env={**os.environ, **(env or {})})
    err = proc.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, err, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def quire(binary, inputs, out, *options):
    code, err, cpu, rss = run([binary, "process", *inputs, "-o", out, "--jobs", "1", "--viewer", "none",
                               "--page-timeout", "0", "-q", *options])
    if code not in (0, 1):
        sys.exit(f"{binary} failed: {err}")
    return cpu, rss


def hocr_words(text):
    return [html.unescape(re.sub(r"<[^>]+>", "", w)) for w in WORD.findall(text)]


def agreement(out):
    """Words of OUT's hOCR equal to the `tesseract` command's on the same page, and the total."""
    layout = json.loads((out / "layout.json").read_text())
    same = total = 0
    for page in layout["pages"]:
        ours = hocr_words((out / page["text"]["hocr"]).read_text())
        cli = subprocess.run(["tesseract", out / page["files"]["page"], "-", "-l", page["text"]["language"], "hocr"],
                             capture_output=True, text=True, env={**os.environ, "OMP_THREAD_LIMIT": "1"})
        theirs = hocr_words(cli.stdout)
        matcher = difflib.SequenceMatcher(a=ours, b=theirs, autojunk=False)
        same += sum(block.size for block in matcher.get_matching_blocks())
        total += max(len(ours), len(theirs))
    return same, total, len(layout["pages"])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("quire")
    parser.add_argument("inputs", nargs="+")
    parser.add_argument("--before", help="an older quire, run alternately with QUIRE")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--ocrmypdf", default="/work/.venv-ocrmypdf/bin/ocrmypdf")
    parser.add_argument("--lang", default="eng")
    args = parser.parse_args()
    inputs = [str(Path(p).resolve()) for p in args.inputs]
    cpu = {}
    rss = {}

    def note(name, seconds, megabytes):
        cpu.setdefault(name, []).append(seconds)
        rss.setdefault(name, []).append(megabytes)
        print(f"  {name:28} {seconds:7.2f} CPU s {megabytes:6.0f} MB", flush=True)

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        sizes = {}
        for r in range(args.runs):
            print(f"round {r + 1}", flush=True)
            contenders = ([("before --ocr --pdf", args.before)] if args.before else []) + [("quire --ocr --pdf", args.quire)]
            for name, binary in contenders:
                out = tmp / f"{name.split()[0]}-{r}"
                note(name, *quire(binary, inputs, out, "--ocr", "--lang", args.lang, "--pdf"))
                pdf = out / "pages.pdf"
                jpegs = sum(f.stat().st_size for f in (out / "pages").iterdir())
                sizes[name] = (pdf.stat().st_size, jpegs)
            plain = tmp / f"plain-{r}"
            note("quire --pdf (no OCR)", *quire(args.quire, inputs, plain, "--pdf"))
            code, err, seconds, megabytes = run([args.ocrmypdf, "--jobs", "1", "-l", args.lang, "--output-type", "pdf",
                                                 "--optimize", "0", "-q", plain / "pages.pdf", tmp / f"ocrmypdf-{r}.pdf"])
            if code != 0:
                sys.exit(f"ocrmypdf failed: {err}")
            note("ocrmypdf", seconds, megabytes)
            sizes["ocrmypdf"] = ((tmp / f"ocrmypdf-{r}.pdf").stat().st_size, sizes["quire --ocr --pdf"][1])
        agree = {name: agreement(tmp / f"{name.split()[0]}-{args.runs - 1}") for name in sizes if name != "ocrmypdf"}
        pages = agree["quire --ocr --pdf"][2]
        print(f"\n{pages} pages, {args.runs} runs each, medians (CPU = user + system incl. children)")
        median = {name: statistics.median(v) for name, v in cpu.items()}
        for name, seconds in median.items():
            print(f"  {name:28} {seconds:7.2f} CPU s  {pages / seconds:6.3f} pages/CPU s  "
                  f"peak {statistics.median(rss[name]):5.0f} MB  runs {' '.join(f'{s:.2f}' for s in cpu[name])}")
        ocr_only = median["quire --ocr --pdf"] - median["quire --pdf (no OCR)"]
        print(f"  quire's OCR (--ocr --pdf minus --pdf): {ocr_only:.2f} CPU s")
        peer = median["ocrmypdf"]
        print(f"  OCRmyPDF / quire --ocr --pdf (whole run): {peer / median['quire --ocr --pdf']:.2f}x pages/s per core")
        print(f"  OCRmyPDF / quire's OCR:                   {peer / ocr_only:.2f}x")
        if args.before:
            before_only = median["before --ocr --pdf"] - median["quire --pdf (no OCR)"]
            print(f"  before's OCR: {before_only:.2f} CPU s; OCRmyPDF / before's OCR: {peer / before_only:.2f}x")
        for name, (same, total, _) in agree.items():
            print(f"  {name}: words equal to the tesseract command's {same} of {total} ({100 * same / max(1, total):.2f} %)")
        for name, (pdf, jpegs) in sizes.items():
            limit = jpegs + TEXT_BYTES_PER_PAGE * pages
            print(f"  {name:28} PDF {pdf / 1e6:.3f} MB; page JPEGs {jpegs / 1e6:.3f} MB; "
                  f"JPEGs + 30 KB a page {limit / 1e6:.3f} MB: {'within' if pdf <= limit else 'OVER'}")


if __name__ == "__main__":
    main()
