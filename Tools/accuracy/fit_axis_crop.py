"""Fits the bar of Tesseract's short reading on pages whose line look is sure of the axis only
(`TesseractOSD.axisGuess`, `minimumAxisConfidence`) on half the sources and scores it on the
other half, then on all. On such a page (the look sure whether the lines run across or down, not
of up or down, and leptonica's reading not agreeing clearly) the detector reads one crop with
`axisCropCharacters` characters and no whole-page reading after it; the crop's turn is taken
when it lies along the look's axis, its confidence is at least BAR and (under Tesseract's sure 8,
on the policy's scale) it read a script. Every other page is decided as before.

    python3 Tools/accuracy/fit_axis_crop.py SHORT [FEATURES]

SHORT: a dump of `LineOrientationFeatureDump` with QUIRE_ORIENT_OSD=unsure,
QUIRE_ORIENT_OSD_CHARS=8 and QUIRE_ORIENT_FALLBACK=0 (the short crop of each copy the look is
not sure of); FEATURES: the table with today's crop (20 characters) and whole-page readings
(default .build/orientation-features.tsv), which says what the detector did before. Only copies
in both, or copies the short reading does not concern, are scored. Prints per half: right,
wrong, kept, and Tesseract's CPU ms a copy (as the dumps measured it) before and after.
"""
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_fallback as ff  # noqa: E402
import fit_line_orientation as fl  # noqa: E402
import fit_up_down as fu  # noqa: E402
import folds  # noqa: E402

GATE = (2.0, 400)  # TesseractOSD's fallback gate (fit_fallback.py): every unsure crop, votes < 400
BARS = [0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0]
SURE = 8.0  # OrientationPolicy.sureConfidence: no script needed at or over it
SCALE = 2.0  # LineOrientation.sureConfidence: the policy's scale at the bar


def axis_path(r):
    """Whether the detector now reads the short crop on this copy."""
    return (fu.decided(r, ff.UP_DOWN)[1] == "tess" and fu.axis_sure(r) and r["pieces"] >= fu.LOOK[2]
            and r["found"] >= 0)


def before(r):
    d = ff.decided(r, GATE)
    ms = r["osd_ms"] + (r["fb_ms"] if ff.falls_back(r) and not ff.skipped(r, GATE) else 0)
    return d, ms if fu.decided(r, ff.UP_DOWN)[1] == "tess" else 0


def after(r, bar):
    if not axis_path(r):
        return before(r)
    s = r["short"]
    on_axis = s["rotate"] >= 0 and s["rotate"] % 180 == r["found"] % 180
    value = SCALE * s["conf"] / bar if on_axis else 0
    turns = s["rotate"] > 0 and value >= SCALE and (value >= SURE or s["script"] >= 1)
    return (s["rotate"] if turns else None), s["ms"]


def tally(rows, decide):
    t = Counter()
    for r in rows:
        d, ms = decide(r)
        t[ff.outcome(d, r["needed"])] += 1
        t["ms"] += ms
        t["axis"] += axis_path(r)
    return t


def fit(rows):
    base = tally(rows, before)

    def rank(bar):
        t = tally(rows, lambda r: after(r, bar))
        return None if t["wrong"] > base["wrong"] else (t["right"], bar)  # most right; on ties the strictest
    return folds.best(BARS, rank)


def show(title, rows, bar):
    print(f"== {title}: {len(rows)} turned copies, bar {bar}")
    for name, decide in (("before", before), ("after", lambda r: after(r, bar))):
        t = tally(rows, decide)
        print(f"  {name:>6}: right {t['right']}, wrong {t['wrong']}, kept {t['kept']}; Tesseract "
              f"{t['ms'] / max(1, len(rows)):.0f} ms a copy ({t['axis']} copies on the short path)")
    for r in rows:
        a, b = ff.outcome(before(r)[0], r["needed"]), ff.outcome(after(r, bar)[0], r["needed"])
        if a != b:
            s = r["short"]
            print(f"    {a}->{b}: {Path(r['page']).name} ({r['source']}) turned {r['turn']}: short crop "
                  f"{s['rotate']} {s['conf']:.2f}/{s['script']:.2f}, look {r['found']}, crop {r['osd_rotate']} "
                  f"{r['osd_conf']:.2f}/{r['osd_script']:.2f}")


def main():
    short_path = sys.argv[1]
    rows = fu.load(sys.argv[2] if len(sys.argv) > 2 else str(fu.REPO / ".build/orientation-features.tsv"))
    short = {(r["page"], r["turn"]): {"rotate": r["osd_rotate"], "conf": r["osd_conf"], "script": r["osd_script"],
                                      "ms": r["osd_ms"]} for r in fl.load(short_path)}
    for r in rows:
        r["short"] = short.get((r["page"], r["turn"]))
    scored = [r for r in rows if r["short"] is not None or not axis_path(r)]
    print(f"{len(scored)} of {len(rows)} copies scored ({len(rows) - len(scored)} on the short path not measured)")
    folds.held_out(scored, fit, show, lambda bar, fitted: f"fitted on {len(fitted)} copies of "
                   f"{sorted(fl.FIT_SOURCES)}: bar {bar}")
    folds.every_source(scored, fit, show, lambda bar: f"\nrefitted on every source: bar {bar}")


if __name__ == "__main__":
    main()
