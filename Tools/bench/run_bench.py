#!/usr/bin/env python3
"""Quire's throughput benchmark: one table, every contender measured in the same run.

Contenders (each run the way its users run it, on the same folder of captures):
  quire process            the full pipeline (decode, detect, correct, page+preview+thumb, layout.json)
  quire --thumbnails-only  thumbnails alone
  floor                    quire-floor: decode + encode page, preview 1600, thumb 256, no correction,
                           two workers (both cores), same library and encoder settings as Quire
  opencv scanner           the classic OpenCV document-scanner script (one Python process)
  pillow draft             Pillow draft-mode thumbnailing (one Python process)
  vipsthumbnail            Debian's vipsthumbnail -s 256 over the folder
  quire x1000 / floor x1000  the same on 1000 pages (symlinks cycling over the captures): flat memory

Wall time is the best of --runs runs (runs are interleaved across contenders so that load
from other work on the machine is spread evenly); peak RSS is the child's ru_maxrss from
wait4(2) -- what GNU time's %M reports -- the largest over the runs. Contenders that do not
exist yet are listed as "not available"; peers that cannot be installed are skipped with a note.
The issue's targets follow the table as PASS / FAIL / N/A lines. Targets are reported, not
enforced, unless --strict is given (then any FAIL exits 1).

Usage: run_bench.py [--quick] [--captures DIR] [--count 50] [--runs 3] [--big 1000]
                    [--quire .build/release/quire] [--floor .build/release/quire-floor]
                    [--stand-in] [--only NAME,...] [--strict]
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import yardsticks  # noqa: E402  (the independent floors, real sets, profile, regression check)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.join(ROOT, "Tools", "bench")
CACHE = os.path.join(ROOT, ".bench-cache")
IMAGE_EXTS = (".jpg", ".jpeg", ".png", ".tif", ".tiff", ".webp", ".heic")


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


@dataclass
class Contender:
    name: str
    key: str                      # stable id used by --only and the targets
    argv: callable                # (input_dir, files, out_dir) -> list[str]
    outputs_per_page: int         # image files expected per page (3 full, 1 thumbs only)
    folder: str                   # which set it runs on: "main", "big", "real-photos" or "scans"
    runs: int | None = None       # overrides --runs (the 1000-page rows run once)
    note: str = ""
    available: bool = True
    times: list = field(default_factory=list)
    cpu: list = field(default_factory=list)   # user + system seconds of each run
    rss_kb: int = 0
    files_written: int | None = None
    error: str = ""
    layout: str = ""              # what quire's layout.json says about correction and page size

    @property
    def seconds(self):
        return min(self.times) if self.times else None


def list_images(folder: str) -> list[str]:
    return sorted(os.path.join(folder, n) for n in os.listdir(folder)
                  if not n.startswith(".") and n.lower().endswith(IMAGE_EXTS))


def count_images(folder: str) -> int:
    """Image files a contender wrote for the user: hidden folders (quire's resume store in
    OUT/.quire holds hard links to the same files) and hidden files are not counted."""
    total = 0
    for _, dirs, names in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        total += sum(1 for n in names if not n.startswith(".") and n.lower().endswith(IMAGE_EXTS))
    return total


def summarize_layout(path: str) -> str | None:
    """How many pages quire corrected and how large its pages are, from its layout.json."""
    try:
        with open(path) as f:
            pages = json.load(f).get("pages", [])
    except (OSError, ValueError):
        return None
    if not pages:
        return None
    corrected = sum(1 for p in pages if p.get("correction") not in (None, "none"))
    mp = sum(p.get("width", 0) * p.get("height", 0) for p in pages) / len(pages) / 1e6
    return f"layout.json: {corrected} of {len(pages)} pages corrected, pages {mp:.1f} MP on average"


def run_once(c: Contender, input_dir: str, files: list[str], keep: str | None) -> None:
    """One timed run in a fresh temporary output folder; wall time and ru_maxrss via wait4."""
    out = tempfile.mkdtemp(prefix="quire-bench-")
    argv = c.argv(input_dir, files, out)
    err_path = out + ".stderr"
    try:
        with open(err_path, "wb") as err, open(os.devnull, "wb") as null:
            start = time.perf_counter()
            proc = subprocess.Popen(argv, stdout=null, stderr=err, cwd=ROOT)
            _, status, usage = os.wait4(proc.pid, 0)
            elapsed = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        with open(err_path, "rb") as f:
            tail = f.read().decode("utf-8", "replace").strip().splitlines()[-3:]
        if proc.returncode not in (0, 1):
            # The whole stderr (a crash's backtrace) is kept: the table shows only its last lines.
            kept = os.path.join(CACHE, f"failed-{c.key}-{time.strftime('%Y%m%d-%H%M%S')}.stderr")
            shutil.copyfile(err_path, kept)
            c.error = f"exit {proc.returncode} (stderr kept in {os.path.relpath(kept, ROOT)}): " + " | ".join(tail)
            return
        if proc.returncode == 1:
            c.note = (c.note + "; " if c.note else "") + "exit 1 (some pages failed): " + " | ".join(tail)
        c.times.append(elapsed)
        c.cpu.append(usage.ru_utime + usage.ru_stime)
        c.rss_kb = max(c.rss_kb, usage.ru_maxrss)
        c.files_written = count_images(out)
        c.layout = summarize_layout(os.path.join(out, "layout.json")) or c.layout
        if keep:
            dest = os.path.join(keep, c.key)
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(out, dest, symlinks=True)
    finally:
        shutil.rmtree(out, ignore_errors=True)
        if os.path.exists(err_path):
            os.remove(err_path)


def venv_python(venv: str) -> str | None:
    py = os.path.join(venv, "bin", "python")
    return py if os.access(py, os.X_OK) else None


def can_import(py: str | None, module: str) -> bool:
    if not py:
        return False
    return subprocess.run([py, "-c", f"import {module}"], capture_output=True).returncode == 0


def quire_help(quire: str) -> str | None:
    """`quire process --help` output, or None when the binary or the subcommand is missing."""
    if not os.access(quire, os.X_OK):
        return None
    r = subprocess.run([quire, "process", "--help"], capture_output=True, text=True)
    text = r.stdout + r.stderr
    # Without the subcommand, argument-parser prints the root command's help (and exits 0).
    return text if r.returncode == 0 and "quire process" in text else None


def ensure_captures(args, py: str | None) -> str:
    """The folder of captures to measure: --captures as given, or the generated cache."""
    if args.captures:
        folder = os.path.abspath(args.captures)
        if not os.path.isdir(folder):
            sys.exit(f"--captures {folder}: not a folder")
    else:
        folder = os.path.join(CACHE, "captures")
        if not (can_import(py, "numpy") and can_import(py, "PIL")):
            have = len(list_images(folder)) if os.path.isdir(folder) else 0
            if have < args.count:
                sys.exit("the capture generator needs numpy and Pillow in the venv: run `make bench-venv`")
        else:
            subprocess.run([py, os.path.join(HERE, "gen_captures.py"), folder, "--count", str(args.count)],
                           check=True)
    images = list_images(folder)
    if len(images) < args.count:
        log(f"note: {folder} holds {len(images)} images, fewer than --count {args.count}")
    if len(images) > args.count:  # measure exactly --count pages: a folder of symlinks to the first ones
        sub = os.path.join(CACHE, f"subset-{args.count}")
        if os.path.isdir(sub):
            shutil.rmtree(sub)
        os.makedirs(sub)
        for p in images[:args.count]:
            os.symlink(os.path.abspath(p), os.path.join(sub, os.path.basename(p)))
        folder = sub
    return folder


def page_sizes_from_truth(source: str) -> str | None:
    """Writes the floor's --page-sizes file from SOURCE/truth.json corners, or None without one.

    The corrected page's size follows the usual four-point rule (width = the longer of the top
    and bottom edges, height = the longer of the left and right edges), centred on the corners'
    mean: the floor then encodes a page as large as the one a correct pipeline writes.
    """
    truth_path = os.path.join(source, "truth.json")
    if not os.path.exists(truth_path):
        return None
    with open(truth_path) as f:
        truth = json.load(f)

    def dist(a, b):
        return ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5

    sizes = {}
    for name, t in truth.items():
        corners = t.get("corners")
        if not corners or len(corners) != 4:
            continue
        tl, tr, br, bl = corners
        sizes[name] = [round(max(dist(tl, tr), dist(bl, br))), round(max(dist(tl, bl), dist(tr, br))),
                       sum(c[0] for c in corners) / 4, sum(c[1] for c in corners) / 4]
    out = os.path.join(CACHE, "page-sizes.json")
    with open(out, "w") as f:
        json.dump(sizes, f)
    return out


def ensure_big(folder: str, total: int) -> str:
    big = os.path.join(CACHE, f"big-{total}")
    if os.path.isdir(big):
        shutil.rmtree(big)
    os.makedirs(big)
    images = list_images(folder)
    for i in range(total):
        src = os.path.realpath(images[i % len(images)])
        os.symlink(src, os.path.join(big, f"big_{i:05d}{os.path.splitext(src)[1]}"))
    return big


def build_contenders(args, py: str | None) -> list[Contender]:
    quire, floor = os.path.abspath(args.quire), os.path.abspath(args.floor)
    help_text = quire_help(quire)
    has_process = help_text is not None
    has_thumbs = has_process and "--thumbnails-only" in help_text
    stand_in = args.stand_in
    cs: list[Contender] = []

    sizes = args.page_sizes

    def floor_argv(i, files, out):
        return [floor, i, "-o", out, "--jobs", "2"] + (["--page-sizes", sizes] if sizes else [])

    # quire process (full pipeline)
    if has_process:
        cs.append(Contender("quire process", "quire", lambda i, f, o: [quire, "process", i, "-o", o], 3, "main"))
    elif stand_in:
        cs.append(Contender("quire process [STAND-IN]", "quire",
                            lambda i, f, o: floor_argv(i, f, o) + ["--strategy", "decode-once"], 3, "main",
                            note="stand-in: quire-floor --strategy decode-once, not Quire"))
    else:
        cs.append(Contender("quire process", "quire", None, 3, "main", available=False,
                            note=f"not available: {os.path.relpath(quire, ROOT)} has no `process` subcommand yet"))
    # quire --thumbnails-only
    if has_thumbs:
        cs.append(Contender("quire --thumbnails-only", "quire-thumbs",
                            lambda i, f, o: [quire, "process", "--thumbnails-only", i, "-o", o], 1, "main"))
    elif stand_in:
        cs.append(Contender("quire --thumbnails-only [STAND-IN]", "quire-thumbs",
                            lambda i, f, o: ["sh", "-c", 'mkdir -p "$0/thumbs" && printf "%s\\0" "$@" | '
                                             'xargs -0 -P 2 -n 25 vipsthumbnail -s 256 -o "$0/thumbs/%s.jpg[Q=85,strip,optimize_coding]"',
                                             o, *f], 1, "main",
                            note="stand-in: vipsthumbnail in two parallel processes, not Quire"))
    else:
        cs.append(Contender("quire --thumbnails-only", "quire-thumbs", None, 1, "main", available=False,
                            note="not available: `quire process` has no --thumbnails-only yet"))
    # the floor
    if os.access(floor, os.X_OK):
        cs.append(Contender("floor (decode+encode, 2 workers)", "floor", floor_argv, 3, "main",
                            note="" if sizes else "no truth.json beside the captures: the floor's page is the whole frame"))
    else:
        cs.append(Contender("floor (decode+encode, 2 workers)", "floor", None, 3, "main", available=False,
                            note=f"not available: build it with `swift build -c release --product quire-floor`"))
    if os.access(floor, os.X_OK) and sizes:
        cs.append(Contender("floor, whole frame (reference)", "floor-frame",
                            lambda i, f, o: [floor, i, "-o", o, "--jobs", "2"], 3, "main",
                            note="reference only: the page is the whole capture, as with --correct none"))
    # peers
    if can_import(py, "cv2"):
        cs.append(Contender("opencv document scanner", "opencv",
                            lambda i, f, o: [py, os.path.join(HERE, "peers", "opencv_scanner.py"), o, *f], 3, "main"))
    else:
        cs.append(Contender("opencv document scanner", "opencv", None, 3, "main", available=False,
                            note="skipped: opencv-python-headless not installed in the venv (make bench-venv)"))
    if can_import(py, "PIL"):
        cs.append(Contender("pillow draft thumbnails", "pillow",
                            lambda i, f, o: [py, os.path.join(HERE, "peers", "pillow_thumbs.py"), o, *f], 1, "main"))
    else:
        cs.append(Contender("pillow draft thumbnails", "pillow", None, 1, "main", available=False,
                            note="skipped: Pillow not installed in the venv (make bench-venv)"))
    vt = shutil.which("vipsthumbnail")
    if vt:
        cs.append(Contender("vipsthumbnail -s 256", "vipsthumbnail",
                            lambda i, f, o: [vt, "-s", "256", "-o", os.path.join(o, "%s.jpg[Q=85,strip,optimize_coding]"), *f],
                            1, "main"))
    else:
        cs.append(Contender("vipsthumbnail -s 256", "vipsthumbnail", None, 1, "main", available=False,
                            note="skipped: vipsthumbnail not found (apt-get install libvips-tools)"))
    # yardsticks that share no code with Quire (../shared/bench), and the real sets
    cs += independent_contenders(args, py, quire if has_process else None)
    # flat memory: the same contenders on the big folder, once
    if args.big:
        q = cs[0]
        cs.append(Contender(q.name + f" x{args.big}", "quire-big", q.argv, 3, "big", runs=1,
                            available=q.available, note=q.note))
        if os.access(floor, os.X_OK):
            cs.append(Contender(f"floor x{args.big}", "floor-big", floor_argv, 3, "big", runs=1))
    if args.only:
        keep = set(args.only.split(","))
        cs = [c for c in cs if c.key in keep]
    return cs


def independent_contenders(args, py: str | None, quire: str | None) -> list[Contender]:
    """The independent floors and peers of ../shared/bench on the captures, and quire against
    the independent floors on the real photos and the real scans (`--sets`)."""
    cs: list[Contender] = []
    shared = {n: yardsticks.shared_script(n) for n in
              ("floor_photos.py", "floor_scans.py", "peer_opencv_pipeline.py", "peer_pillow_thumbs.py")}
    has_cv2, has_pil = can_import(py, "cv2"), can_import(py, "PIL")
    missing = f"skipped: {yardsticks.SHARED_BENCH} is absent" if not os.path.isdir(yardsticks.SHARED_BENCH) else None

    def add(name, key, script, needs, argv, outputs, folder):
        if missing or not shared[script]:
            cs.append(Contender(name, key, None, outputs, folder, available=False,
                                note=missing or f"skipped: no {script} in {yardsticks.SHARED_BENCH}"))
        elif not needs:
            cs.append(Contender(name, key, None, outputs, folder, available=False,
                                note="skipped: OpenCV/Pillow not installed in the venv (make bench-venv)"))
        else:
            cs.append(Contender(name, key, argv(shared[script]), outputs, folder))
    sizes = args.photo_sizes
    if "captures" in args.sets:
        add("independent floor (OpenCV, 2 procs)", "ifloor", "floor_photos.py", has_cv2,
            lambda s: lambda i, f, o: yardsticks.two_halves(py, s, [sizes], f), 0, "main")
        add("OpenCV pipeline peer (shared)", "opencv-shared", "peer_opencv_pipeline.py", has_cv2,
            lambda s: lambda i, f, o: [py, s, i, o], 3, "main")
        add("Pillow draft thumbs peer (shared)", "pillow-shared", "peer_pillow_thumbs.py", has_pil,
            lambda s: lambda i, f, o: [py, s, i, o], 1, "main")
    for set_name, label, script, lead in (("real-photos", "real photos", "floor_photos.py", [args.empty_sizes]),
                                          ("scans", "real scans", "floor_scans.py", [])):
        if set_name not in args.sets:
            continue
        if quire:
            cs.append(Contender(f"quire process [{label}]", f"quire-{set_name}",
                                lambda i, f, o: [quire, "process", i, "-o", o], 3, set_name))
            if set_name == "scans":
                cs.append(Contender(f"quire --rotate none [{label}]", "quire-scans-norotate",
                                    lambda i, f, o: [quire, "process", "--rotate", "none", i, "-o", o], 3, set_name))
        add(f"independent floor [{label}]", f"ifloor-{set_name}", script, has_cv2,
            lambda s, lead=lead: lambda i, f, o: yardsticks.two_halves(py, s, lead, f), 0, set_name)
    return cs


def fmt(v, spec, width, suffix=""):
    return (format(v, spec) + suffix).rjust(width) if v is not None else "-".rjust(width)


def report(cs: list[Contender], pages_main: int, pages_big: int, meta: dict, stand_in: bool,
           set_pages: dict | None = None) -> tuple[str, list]:
    by = {c.key: c for c in cs}
    set_pages = dict(set_pages or {}, main=pages_main, big=pages_big)

    def pages(c):
        return set_pages.get(c.folder, pages_main)

    def ms_per_page(c):
        return c.seconds * 1000 / pages(c) if c.seconds else None

    def pps(c):
        return pages(c) / c.seconds if c.seconds else None

    floor, ocv = by.get("floor"), by.get("opencv")
    # The independent floor of each set (../shared/bench): shares no code with Quire.
    indep = {"main": by.get("ifloor"), "real-photos": by.get("ifloor-real-photos"), "scans": by.get("ifloor-scans")}
    lines = []
    def paired(c, other, what="times"):
        """Median over the runs of c's time (or CPU) over `other`'s in the same run: runs are
        interleaved, so each pair saw about the same load on the shared machine."""
        if c is None or other is None:
            return None
        a, b = getattr(c, what), getattr(other, what)
        ratios = [(x / pages(c)) / (y / pages(other)) for x, y in zip(a, b) if x and y]
        return statistics.median(ratios) if ratios else None

    head = (f"{'contender':<38} {'pages':>6} {'seconds':>8} {'pages/s':>8} {'ms/page':>8} {'CPU ms/page':>11} "
            f"{'peak RSS MB':>11} {'time/floor':>10} {'speed/OpenCV':>12} {'time/indep':>10} "
            f"{'wall/indep med':>14} {'CPU/indep med':>13}")
    lines.append(head)
    lines.append("-" * len(head))
    notes = []
    for c in cs:
        if not c.available or c.error or not c.times:
            why = c.error or c.note or "no successful run"
            lines.append(f"{c.name:<38} {pages(c):>6}   not available" if not c.available
                         else f"{c.name:<38} {pages(c):>6}   FAILED")
            notes.append(f"{c.name}: {why}")
            continue
        same_set = c.folder in ("main", "big")
        tf = ms_per_page(c) / ms_per_page(floor) if same_set and floor and floor.times else None
        so = pps(c) / pps(ocv) if same_set and ocv and ocv.times else None
        ind = indep.get(c.folder)
        ti = ms_per_page(c) / ms_per_page(ind) if ind and ind.times else None
        pw = paired(c, ind) if ind is not c else None
        pc = paired(c, ind, "cpu") if ind is not c else None
        lines.append(f"{c.name:<38} {pages(c):>6} {fmt(c.seconds, '.2f', 8)} {fmt(pps(c), '.2f', 8)} "
                     f"{fmt(ms_per_page(c), '.1f', 8)} {fmt(min(c.cpu) * 1000 / pages(c), '.1f', 11)} "
                     f"{fmt(c.rss_kb / 1024, '.1f', 11)} "
                     f"{fmt(tf, '.2f', 10, 'x')} {fmt(so, '.2f', 12, 'x')} {fmt(ti, '.2f', 10, 'x')} "
                     f"{fmt(pw, '.2f', 14, 'x')} {fmt(pc, '.2f', 13, 'x')}")
        expected = pages(c) * c.outputs_per_page
        if c.files_written is not None and c.files_written != expected:
            notes.append(f"{c.name}: wrote {c.files_written} image files, expected {expected}")
        if c.note:
            notes.append(f"{c.name}: {c.note}")
        if c.layout:
            notes.append(f"{c.name}: {c.layout}")

    def ok(c):
        return c is not None and c.available and bool(c.times)

    targets = []

    def target(label, contender_keys, check):
        if all(ok(by.get(k)) for k in contender_keys):
            passed, detail = check()
            verdict = "PASS" if passed else "FAIL"
            if stand_in and any("STAND-IN" in by[k].name for k in contender_keys):
                verdict += " (stand-in, not a verdict on Quire)"
        else:
            verdict, detail = "N/A", "missing: " + ", ".join(k for k in contender_keys if not ok(by.get(k)))
        targets.append({"target": label, "verdict": verdict.split()[0], "detail": detail})
        lines.append(f"{verdict:<5} {label}  [{detail}]")

    q, qt, fl, pil, vt, qb = (by.get(k) for k in ("quire", "quire-thumbs", "floor", "pillow", "vipsthumbnail", "quire-big"))
    lines.append("")
    lines.append("Targets (issues 2 and 5):")
    target("quire >= 1.5x OpenCV scanner pages/s", ["quire", "opencv"],
           lambda: (pps(q) >= 1.5 * pps(ocv), f"{pps(q) / pps(ocv):.2f}x"))
    target("quire time <= 1.3x floor (aim 1.1x)", ["quire", "floor"],
           lambda: (ms_per_page(q) <= 1.3 * ms_per_page(fl), f"{ms_per_page(q) / ms_per_page(fl):.2f}x"))
    target("quire --thumbnails-only >= 1.5x Pillow draft pages/s", ["quire-thumbs", "pillow"],
           lambda: (pps(qt) >= 1.5 * pps(pil), f"{pps(qt) / pps(pil):.2f}x"))
    target("quire --thumbnails-only >= 1.5x vipsthumbnail pages/s", ["quire-thumbs", "vipsthumbnail"],
           lambda: (pps(qt) >= 1.5 * pps(vt), f"{pps(qt) / pps(vt):.2f}x"))
    target("quire peak RSS <= 150 MB", ["quire"],
           lambda: (q.rss_kb / 1024 <= 150, f"{q.rss_kb / 1024:.1f} MB"))
    if pages_big:
        # "The same peak": within 10% + 5 MB (allocator noise) of the 50-page peak.
        target(f"quire peak RSS flat: {pages_big} pages within 10%+5MB of {pages_main}", ["quire", "quire-big"],
               lambda: (qb.rss_kb <= q.rss_kb * 1.10 + 5 * 1024,
                        f"{q.rss_kb / 1024:.1f} -> {qb.rss_kb / 1024:.1f} MB"))
    lines.append("")
    lines.append("Targets (issue 32: independent yardsticks of ../shared/bench):")
    # Issue 32 asks for paired runs and medians: each ratio is the median of the runs' ratios
    # (wall; CPU beside it, steadier when other work shares the machine).

    def paired_target(label, a, b, limit, faster=False):
        def check():
            wall, cpu = paired(by[a], by[b]), paired(by[a], by[b], "cpu")
            value = 1 / wall if faster else wall
            return (value >= limit if faster else value <= limit,
                    f"{value:.2f}x wall, {(1 / cpu if faster else cpu):.2f}x CPU, medians of paired runs")
        target(label, [a, b], check)
    paired_target("photos: quire >= 1.5x the OpenCV pipeline peer's pages/s", "quire", "opencv-shared", 1.5, True)
    paired_target("photos: quire time <= 1.2x the independent floor", "quire", "ifloor", 1.2)
    paired_target("real photos: quire time <= 1.2x the independent floor", "quire-real-photos", "ifloor-real-photos", 1.2)
    paired_target("real scans: quire time <= 1.5x the independent floor", "quire-scans", "ifloor-scans", 1.5)
    paired_target("quire --thumbnails-only >= 2x the Pillow draft peer's pages/s", "quire-thumbs", "pillow-shared", 2, True)
    if notes:
        lines.append("")
        lines.append("Notes:")
        lines += [f"- {n}" for n in notes]
    header = [f"Quire benchmark {meta['date']} on {meta['machine']}",
              f"captures: {meta['captures']} ({pages_main} pages, {meta['megapixels']}); "
              f"wall time = best of {meta['runs']} runs, CPU = least user+sys of the runs, RSS = max over runs; load average before/after: "
              f"{meta['load_before']} / {meta['load_after']}",
              f"floor page: {meta['floor_page']}; all JPEG outputs at quality 85", ""]
    return "\n".join(header + lines), targets


def describe_captures(files: list[str]) -> str:
    try:
        sizes = []
        for p in files[:200]:
            out = subprocess.run(["vipsheader", "-f", "width", p], capture_output=True, text=True).stdout
            out2 = subprocess.run(["vipsheader", "-f", "height", p], capture_output=True, text=True).stdout
            sizes.append(int(out) * int(out2) / 1e6)
        return f"{min(sizes):.1f}-{max(sizes):.1f} MP, mean {sum(sizes) / len(sizes):.1f} MP"
    except (ValueError, OSError, ZeroDivisionError):
        return "size unknown"


def machine() -> str:
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores ({model})"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="10 captures, 2 runs, no 1000-page check")
    p.add_argument("--captures", help="measure this folder instead of the generated captures")
    p.add_argument("--count", type=int, help="pages to measure (default 50; 10 with --quick)")
    p.add_argument("--runs", type=int, help="timed runs per contender, best taken (default 3; 2 with --quick)")
    p.add_argument("--big", type=int, help="pages for the flat-memory check (default 1000; 0 with --quick)")
    p.add_argument("--quire", default=os.environ.get("QUIRE_BIN", os.path.join(ROOT, ".build/release/quire")))
    p.add_argument("--floor", default=os.environ.get("QUIRE_FLOOR_BIN", os.path.join(ROOT, ".build/release/quire-floor")))
    p.add_argument("--venv", default=os.environ.get("BENCH_VENV", os.path.join(ROOT, ".venv")))
    p.add_argument("--stand-in", action="store_true", default=os.environ.get("BENCH_STANDIN") == "1",
                   help="while `quire process` is missing, time stand-ins in its rows (to test the harness)")
    p.add_argument("--only", help="comma-separated contender keys: quire,quire-thumbs,floor,floor-frame,opencv,pillow,vipsthumbnail,quire-big,floor-big")
    p.add_argument("--keep-output", help="copy each contender's last output here (to look at it)")
    p.add_argument("--json", default=os.path.join(CACHE, "last-bench.json"), help="also write results here")
    p.add_argument("--strict", action="store_true", help="exit 1 when a target fails")
    p.add_argument("--sets", default="captures,real-photos,scans",
                   help="which sets besides the captures' quire/floor/peer rows: captures (independent "
                        "yardsticks on them), real-photos, scans")
    p.add_argument("--no-profile", action="store_true", help="skip the QUIRE_PROFILE stage table of each set")
    p.add_argument("--record", action="store_true",
                   help=f"write the results to {os.path.relpath(yardsticks.RESULTS, ROOT)} (what later runs compare with)")
    args = p.parse_args()
    args.sets = set(args.sets.split(",")) if args.sets else set()
    args.count = args.count or (10 if args.quick else 50)
    args.runs = args.runs or (2 if args.quick else 3)
    args.big = (0 if args.quick else 1000) if args.big is None else args.big

    os.makedirs(CACHE, exist_ok=True)
    py = venv_python(args.venv)
    folder = ensure_captures(args, py)
    source = os.path.abspath(args.captures) if args.captures else os.path.join(CACHE, "captures")
    files = list_images(folder)
    if not files:
        sys.exit(f"no images in {folder}")
    args.page_sizes = page_sizes_from_truth(source)
    args.photo_sizes = yardsticks.photo_sizes(source, os.path.join(CACHE, "photo-sizes.json"))
    args.empty_sizes = yardsticks.photo_sizes(os.path.join(CACHE, "none"), os.path.join(CACHE, "no-sizes.json"))
    big = ensure_big(folder, args.big) if args.big else None
    big_files = list_images(big) if big else []
    sets = {"main": (folder, files), "big": (big, big_files)}
    real_photos = list_images(os.path.join(ROOT, "Tools", "accuracy", "real-photos"))
    if "real-photos" in args.sets and real_photos:
        sets["real-photos"] = (yardsticks.link_folder(os.path.join(CACHE, "real-photos"), real_photos), real_photos)
    scans = yardsticks.real_scans()
    if "scans" in args.sets and scans:
        sets["scans"] = (yardsticks.link_folder(os.path.join(CACHE, "real-scans"), scans), scans)
    args.sets = {n for n in args.sets if n == "captures" or n in sets}
    cs = build_contenders(args, py)

    # Warm the page cache so that the first contender does not pay for disk reads.
    for path in files + real_photos + scans:
        with open(path, "rb") as f:
            while f.read(1 << 20):
                pass
    load_before = " ".join(f"{v:.2f}" for v in os.getloadavg())
    log(f"benchmarking {len(files)} pages from {folder}" + (f" and {len(big_files)} pages" if big else ""))
    for run in range(max(args.runs, 1)):
        for c in cs:
            if not c.available or c.error or run >= (c.runs or args.runs):
                continue
            input_dir, inputs = sets[c.folder]
            log(f"  run {run + 1}: {c.name} ...")
            run_once(c, input_dir, inputs, args.keep_output)
            if c.times and len(c.times) == run + 1:
                log(f"           {c.times[-1]:.2f} s, peak RSS {c.rss_kb / 1024:.1f} MB")
            elif c.error:
                log(f"           failed: {c.error}")
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "captures": os.path.relpath(source, ROOT),
        "megapixels": describe_captures(files),
        "runs": args.runs,
        "floor_page": ("a crop of the true page size (truth.json corners), no correction" if args.page_sizes
                       else "the whole frame (no truth.json)"),
        "load_before": load_before,
        "load_after": " ".join(f"{v:.2f}" for v in os.getloadavg()),
    }
    set_pages = {n: len(fs) for n, (_, fs) in sets.items()}
    text, targets = report(cs, len(files), len(big_files), meta, args.stand_in, set_pages)
    profiles = {}
    quire = os.path.abspath(args.quire)
    if not args.no_profile and quire_help(quire) is not None:
        for name, (d, fs) in sets.items():
            if name == "big" or not fs:
                continue
            log(f"  stage profile: {name} ...")
            profiles[name] = yardsticks.stage_profile(quire, d, [], tempfile.mkdtemp(prefix="quire-prof-"))
        lines = ["", "CPU ms a call per stage (QUIRE_PROFILE=1, --jobs 1, one run; calls in brackets):"]
        for name, rows in profiles.items():
            lines.append(f"  {name}: " + ", ".join(f"{stage} {ms:.1f} [{n}]" for stage, ms, n in rows))
        text += "\n".join(lines) + "\n"
    results = {"meta": meta, "pages": len(files), "big_pages": len(big_files), "set_pages": set_pages,
               "contenders": [{"name": c.name, "key": c.key, "available": c.available,
                               "pages": set_pages.get(c.folder, len(files)),
                               "times": c.times, "cpu_seconds": c.cpu, "best_seconds": c.seconds,
                               "peak_rss_mb": round(c.rss_kb / 1024, 1), "files_written": c.files_written,
                               "note": c.note, "error": c.error, "layout": c.layout} for c in cs],
               "targets": targets, "stage_profile": profiles}
    text += "\nAgainst the recorded results (Tools/bench/results/latest.json):\n" + \
        "\n".join("  " + line for line in yardsticks.compare_with_recorded(results)) + "\n"
    print(text)
    if args.record:
        yardsticks.record(results)
    with open(args.json, "w") as f:
        json.dump(results, f, indent=1)
    with open(os.path.splitext(args.json)[0] + ".txt", "w") as f:
        f.write(text + "\n")
    if args.strict and any(t["verdict"] == "FAIL" for t in targets):
        sys.exit(1)


if __name__ == "__main__":
    main()
