"""Fits when a straightened scan's way up is answered by leptonica's up-or-down count alone,
without Tesseract (`TesseractOSD.scanUpDownGuess`): on a scan whose line look is sure of the
axis (lines across or down) but not of up or down, where the look's edge side and leptonica
clearly disagree (the edge margin at least 0.04, `minimumAgreeingMargin`, one way, leptonica at
least UD the other way), leptonica is taken. The edge side misreads two-page spreads (the
gutter and the facing page's lines); leptonica's count of ascenders and descenders does not.
Also replays today's rule without Tesseract's second crop (`fit_contested_axis.decide`): on the
scan tables it gives layout.json's turns on every copy, yet the second crop stays on scans: a
photo the pipeline analyses as a scan (lept_lyra_005 turned 180) is turned upright only by it.

    python3 Tools/accuracy/fit_scan_up_down.py DIR [QUIRE] [PHOTOS]

DIR: where `orientation.py`'s scan tables are saved, run with QUIRE_PROFILE=calls (DIR/scans and
DIR/others, each with its layout.png.json and profile.png.txt; made here with QUIRE when absent).
The call trace carries what each reading said (`StageProfile.note`), so every copy's decision is
replayed under each UD. A rule is allowed when it loses no right copy and adds no wrong one; the
most Tesseract readings saved, then the highest UD, win. Fitted leaving one source out at a time
(each scored by the rule fitted on the others; a scan's source is its repository, a photo's its
truth.json source), then on every source. PHOTOS: a saved photo table with the call trace
(`fit_contested_axis.py`'s DIR): its copies join the fit (leptonica reads a straightened photo as
it reads a scan), though the rule is applied to scans only.
"""
import math
import os
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_contested_axis as fc  # noqa: E402
import folds  # noqa: E402
import orientation  # noqa: E402

UDS = [4, 6, 8, 10, 12, 14, 16, 20, 25, 30, math.inf]
CURRENT = 8  # TesseractOSD.minimumScanUpDown
OFF = math.inf
MARGIN = 0.04  # TesseractOSD.minimumAgreeingMargin


def repository(stem):
    """The repository (folder under DATA, or in the repo) a scan page comes from."""
    for item in orientation.SET + orientation.OTHERS:
        path = item.partition("[")[0]
        if Path(path).stem == stem:
            return Path(path).parent.name
    return stem


def run(quire, save):
    os.environ["QUIRE_PROFILE"] = "calls"
    for table in ("scans", "others"):
        orientation.SAVE = save / table
        data = orientation.REPO.parent / "shared/data/real"
        if table == "scans":
            items = [(data / p, o) for p, _, o in (i.partition("[") for i in orientation.SET) if (data / p).exists()]
        else:
            items = []
            for item in orientation.OTHERS:
                p, _, o = item.partition("[")
                path = orientation.REPO / p[5:] if p.startswith("repo:") else data / p
                if path.exists():
                    items.append((path, o))
        orientation.score(quire, items, suffix=".png")


def load_scans(save):
    """One row per copy, as `fit_contested_axis.load` makes them, for a scan table."""
    rows = []
    for name, notes, got in fc.traced_copies(save, "png"):
        stem, turn = re.match(r"(.*)-r(\d+)\.png", name).groups()
        r = {"name": name, "source": repository(stem), "needed": (-int(turn)) % 360, "got": got,
             "look": None, "axis": None, "crop": None, "fallback": None}
        rows.append(fc.read_notes(r, notes))
    return rows


def traced_rows(argv):
    """The scan rows and the photo rows of a fit script's arguments `SAVE [QUIRE [PHOTO_TRACE]]`:
    the scan traces under SAVE are made with QUIRE (the release build by default) when SAVE has
    none yet; the photo rows come from PHOTO_TRACE when given."""
    save = Path(argv[1])
    if not (save / "scans/profile.png.txt").exists():
        run(argv[2] if len(argv) > 2 else str(orientation.REPO / ".build/release/quire"), save)
    scans = [dict(r, scan=True) for r in load_scans(save / "scans") + load_scans(save / "others")]
    photos = [dict(r, scan=False) for r in fc.load(Path(argv[3]))] if len(argv) > 3 else []
    return scans, photos


def answered(r, rule):
    """The turn leptonica alone gives under `rule` (UD), None when it does not answer."""
    look = r["look"]
    if not isinstance(look, dict) or look["sure"] == "true" or look["axisSure"] != "true":
        return None
    ud = look["updown"] if look["updown"] != "none" else 0
    if abs(look["margin"]) < MARGIN or abs(ud) < rule or (ud > 0) == (look["margin"] >= 0):
        return None
    sideways = int(look["rotate"]) in (90, 270)
    return (90 if ud > 0 else 270) if sideways else (0 if ud > 0 else 180)


def decide(r, rule=OFF):
    turn = answered(r, rule)
    return fc.decide(r) if turn is None else turn


def tally(rows, rule=OFF):
    t = Counter(fc.outcome(decide(r, rule), r["needed"]) for r in rows)
    t["saved"] = sum(answered(r, rule) is not None for r in rows)
    return t


def fit(rows):
    before = tally(rows)
    best = None
    for ud in UDS:
        t = tally(rows, ud)
        if t["right"] < before["right"] or t["wrong"] > before["wrong"]:
            continue
        if best is None or (t["saved"], ud) > best[0]:
            best = ((t["saved"], ud), ud)
    return best[1] if best else OFF


def show(title, rows, rule):
    print(f"== {title}: {len(rows)} copies, rule {rule}: before {dict(tally(rows))}, after {dict(tally(rows, rule))}")
    for r in rows:
        turn = answered(r, rule)
        if turn is not None:
            look = r["look"]
            print(f"    {fc.outcome(fc.decide(r), r['needed'])}->{fc.outcome(turn, r['needed'])}: {r['name']} "
                  f"({r['source']}): votes {look['votes']:.0f} share {look['share']:.3f} "
                  f"margin {look['margin']:.3f} updown {look['updown']:.1f}, "
                  f"Tesseract {r['axis']}")


def main():
    save = Path(sys.argv[1])
    if not (save / "scans/profile.png.txt").exists():
        run(sys.argv[2] if len(sys.argv) > 2 else str(orientation.REPO / ".build/release/quire"), save)
    scans = load_scans(save / "scans") + load_scans(save / "others")
    replayed = [r["name"] for r in scans if fc.decide(r) != r["got"]]
    print(f"{len(scans)} scan copies; today's rule replayed without the second crop differs from layout.json "
          f"on {len(replayed)}: {replayed}")
    photos = fc.load(Path(sys.argv[3])) if len(sys.argv) > 3 else []
    rows = scans + photos
    folds.one_source_out(rows, fit, tally, show, "rules")
    rule = fit(rows)
    show("fitted on every source (in-sample)", rows, rule)
    show(f"the build's rule {CURRENT}, scans", scans, CURRENT)


if __name__ == "__main__":
    main()
