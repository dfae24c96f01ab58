"""Fits when the line look's edge side alone answers a page whose look is sure of the axis only,
without Tesseract (`TesseractOSD.unopposedGuess`): leptonica's up-or-down count says nothing (a
reading of 0, or none: too few ascenders and descenders counted) and the look's edge margin is at
least MARGIN. Under the look's own bar (0.15) the side is not sure alone, but with leptonica
silent nothing contradicts it; Tesseract's short reading then only confirms it or says too little.
The grid starts at `minimumAgreeingMargin` (0.04), under which the side is barely measured.

    python3 Tools/accuracy/fit_unopposed_edge.py DIR [QUIRE] [PHOTOS]

DIR, QUIRE and PHOTOS as `fit_scan_up_down.py`'s (the scan tables with their call trace, made with
QUIRE when absent; a saved photo table with the call trace). Every copy's decision is replayed
(`fit_contested_axis.decide`) under each MARGIN; the replay without the rule must give the turns
layout.json records when the trace's build had no such rule (printed). A rule is allowed when it
loses no right copy and adds no wrong one; the most right, then the most Tesseract readings saved,
then the highest MARGIN win. Fitted leaving one source out at a time (each scored by the rule
fitted on the others), then on every source. The rule applies to scans and photos alike.
"""
import math
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_contested_axis as fc  # noqa: E402
import folds  # noqa: E402
import fit_scan_up_down as fs  # noqa: E402

MARGINS = [0.04, 0.05, 0.06, 0.08, 0.10, 0.12, math.inf]
CURRENT = fc.UNOPPOSED  # TesseractOSD.minimumUnopposedMargin
OFF = math.inf


def answers(r, margin):
    """Whether the edge side alone answers copy `r` under `margin` (and would not have before)."""
    look = r["look"]
    if not isinstance(look, dict) or look["sure"] == "true" or look["axisSure"] != "true":
        return False
    if fc.answered_up_down(look) or fs.answered(r, fs.CURRENT) is not None:
        return False
    return fc.unopposed(look, margin)


def decide(r, margin):
    turn = fs.answered(r, fs.CURRENT) if r["scan"] else None
    return fc.decide(r, margin=None if margin == OFF else margin) if turn is None else turn


def tally(rows, margin=OFF):
    t = Counter(fc.outcome(decide(r, margin), r["needed"]) for r in rows)
    t["saved"] = sum(answers(r, margin) for r in rows)
    return t


def fit(rows):
    before = tally(rows)
    best = None
    for margin in MARGINS:
        t = tally(rows, margin)
        if t["right"] < before["right"] or t["wrong"] > before["wrong"]:
            continue
        rank = (t["right"], t["saved"], margin)
        if best is None or rank > best[0]:
            best = (rank, margin)
    return best[1] if best else OFF


def show(title, rows, margin):
    print(f"== {title}: {len(rows)} copies, margin {margin}: before {dict(tally(rows))}, "
          f"after {dict(tally(rows, margin))}")
    for r in rows:
        if answers(r, margin):
            look = r["look"]
            print(f"    {fc.outcome(decide(r, OFF), r['needed'])}->{fc.outcome(decide(r, margin), r['needed'])}: "
                  f"{r['name']} ({r['source']}): votes {look['votes']:.0f} share {look['share']:.3f} "
                  f"margin {look['margin']:.3f}, Tesseract {r['axis']}")


def main():
    scans, photos = fs.traced_rows(sys.argv)
    rows = scans + photos
    for title, margin in (("without the rule", OFF), (f"with the build's {CURRENT}", CURRENT)):
        differ = [r["name"] for r in rows if decide(r, margin) != r["got"]]
        print(f"{len(rows)} copies; replayed {title}, {len(differ)} differ from layout.json: {differ}")
    folds.one_source_out(rows, fit, tally, show, "rules")
    show("fitted on every source (in-sample)", rows, fit(rows))
    show(f"the build's rule {CURRENT}, scans", scans, CURRENT)
    # The second crop after a short reading that found too few characters (`readNothing`): the
    # build no longer reads it. Did it ever turn a page (`again_turn`, the build's rule)?
    empty = [r for r in rows if isinstance(r["look"], dict) and r["axis"] is not None and r.get("again")
             and r["axis"]["rotate"] == 0 and r["axis"]["conf"] == 0 and r["axis"]["script"] is None]
    turned = [r["name"] for r in empty if fc.again_turn(r, fc.AGAIN)]
    print(f"second windows traced after a short reading that read nothing: {len(empty)}, "
          f"turned by it: {turned}")


if __name__ == "__main__":
    main()
