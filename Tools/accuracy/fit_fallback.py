"""Fits a gate on Tesseract's whole-page fallback (`TesseractOSD.fallbackGuess`: the page read
once more, whole, at 50 characters, when the crop's reading is under confidence 2) on half the
sources and scores it on the other half, then on all: the fallback is skipped when the crop's
confidence is under CROP and the line look counted fewer than VOTES direction votes (a page
carrying too little text for either reading to tell its way up).

    python3 Tools/accuracy/fit_fallback.py [FEATURES]

FEATURES: the table `Tools/accuracy/fit_line_orientation.py` keeps in
.build/orientation-features.tsv (`QUIRE_ORIENT_OSD=unsure` is enough: Tesseract's crop and
fallback readings of the copies the look is not sure of). The detector is taken as it runs
(the look, leptonica's up/down reading at UP_DOWN, the crop, the fallback). First prints what
the fallback answers today: per set, how often it changes the outcome (kept -> right, kept ->
wrong, ...), with the pages. Then the fit: among the grid, the gate that skips the most fitted
fallbacks while losing no right page and adding no wrong one there, the strictest on ties.
"""
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_line_orientation as fl  # noqa: E402
import fit_up_down as fu  # noqa: E402
import folds  # noqa: E402

UP_DOWN = (4, 0.04)  # TextOrientation's minimumUpDown and minimumAgreeingMargin
CROPS = [0.01, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0]
VOTES = [0, 25, 50, 100, 150, 200, 300, 400, 600, 800, 1000, 10**9]


def outcome(d, needed):
    got = d if d is not None else 0
    return "right" if got == needed else "kept" if got == 0 else "wrong"


def crop_only(r):
    return fl.acted(r["osd_rotate"], r["osd_conf"], r["osd_script"])


def falls_back(r):
    """Whether the detector reads the whole page again on this copy (and the dump measured it)."""
    return fu.decided(r, UP_DOWN)[1] == "tess" and r["osd_conf"] < 2 and r["fb_ms"] > 0


def skipped(r, gate):
    crop, votes = gate
    return r["osd_conf"] < crop and r["votes"] < votes


def decided(r, gate):
    d, how = fu.decided(r, UP_DOWN)
    if how == "tess" and falls_back(r) and gate is not None and skipped(r, gate):
        return crop_only(r)
    return d


def tally(rows, gate):
    t = Counter()
    for r in rows:
        t[outcome(decided(r, gate), r["needed"])] += 1
        if falls_back(r):
            if gate is not None and skipped(r, gate):
                t["skipped"] += 1
                t["saved_ms"] += r["fb_ms"]
            else:
                t["fallbacks"] += 1
                t["fb_ms"] += r["fb_ms"]
    return t


def what_fallback_answers(title, rows):
    print(f"== {title}: what the fallback changes ({len(rows)} turned copies)")
    fell = [r for r in rows if falls_back(r)]
    changes = Counter((outcome(crop_only(r), r["needed"]), outcome(fu.decided(r, UP_DOWN)[0], r["needed"]))
                      for r in fell)
    ms = sum(r["fb_ms"] for r in fell)
    print(f"  {len(fell)} fallbacks, {ms / 1000:.1f} s ({ms / max(1, len(fell)):.0f} ms a call); "
          "crop alone -> with the fallback: " + ", ".join(f"{a}->{b} {n}" for (a, b), n in sorted(changes.items())))
    for r in fell:
        a, b = outcome(crop_only(r), r["needed"]), outcome(fu.decided(r, UP_DOWN)[0], r["needed"])
        if a != b:
            print(f"    {a}->{b}: {Path(r['page']).name} ({r['source']}) turned {r['turn']}: crop {r['osd_rotate']} "
                  f"{r['osd_conf']:.2f}/{r['osd_script']:.2f}, whole {r['fb_rotate']} {r['fb_conf']:.2f}/"
                  f"{r['fb_script']:.2f}; look votes {r['votes']}, share {r['share']:.2f}, boxes {r.get('boxes')}")


def fit(rows):
    base = tally(rows, None)

    def rank(gate):
        t = tally(rows, gate)
        if t["right"] < base["right"] or t["wrong"] > base["wrong"]:
            return None
        return (t["skipped"], -gate[0], -gate[1])  # most skipped; on ties the strictest
    return folds.best([(c, v) for c in CROPS for v in VOTES], rank)


def show(title, rows, gate):
    print(f"== {title}: {len(rows)} turned copies, gate {gate}")
    for kind in sorted({r["set"] for r in rows}):
        sub = [r for r in rows if r["set"] == kind]
        for name, g in (("before", None), ("after", gate)):
            t = tally(sub, g)
            print(f"  {kind:>18} {name:>6}: right {t['right']}, wrong {t['wrong']}, kept {t['kept']}; fallbacks "
                  f"{t['fallbacks']} ({t['fb_ms'] / 1000:.1f} s), skipped {t['skipped']} ({t['saved_ms'] / 1000:.1f} s)")
    for r in rows:
        if falls_back(r) and skipped(r, gate):
            a, b = outcome(fu.decided(r, UP_DOWN)[0], r["needed"]), outcome(decided(r, gate), r["needed"])
            if a != b:
                print(f"    CHANGED {a}->{b}: {Path(r['page']).name} turned {r['turn']}")


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else str(fu.REPO / ".build/orientation-features.tsv")
    rows = fu.load(path)
    for r in rows:
        r["boxes"] = int(r.get("boxes") or 0)
    what_fallback_answers("every source", rows)
    folds.held_out(rows, fit, show, lambda gate, fitted: f"\nfitted on {len(fitted)} copies of "
                   f"{sorted(fl.FIT_SOURCES)}: skip when crop < {gate[0]} and votes < {gate[1]}")
    folds.every_source(rows, fit, show, lambda gate: f"\nrefitted on every source: crop < {gate[0]}, votes < {gate[1]}")


if __name__ == "__main__":
    main()
