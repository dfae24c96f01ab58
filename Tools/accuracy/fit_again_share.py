"""Fits the look's direction share a page needs before Tesseract reads its second crop
(`TesseractOSD.minimumAgainShare`): on a page whose line look is sure of the axis only, whose
short axis reading was too unsure to turn it and whose look has `minimumAgainVotes`, the second
densest window is read only when the look's direction share is at least SHARE. Under it the
glyph pieces barely agree on which way the lines run (handwriting, scribbled sums), and the
second window's reading, like the first, is too weak or finds no script.

    python3 Tools/accuracy/fit_again_share.py DIR [QUIRE] [PHOTOS]

DIR, QUIRE and PHOTOS as `fit_unopposed_edge.py`'s (the scan tables with their call trace, made
with QUIRE when absent; a saved photo table with the call trace). In that mode the detector reads
the second crop on every page the short reading was asked of, so each copy's decision is
replayed (`fit_contested_axis.decide`) under each SHARE. A rule is allowed when it loses no right
copy and adds no wrong one; the most second readings saved, then the lowest SHARE, win. Fitted
leaving one source out at a time (each scored by the rule fitted on the others), then on every
source; the grid is 0.05 steps, and the same fold is printed on a grid of 0.02 steps, where it
is not as safe (docs/correction-photos.md, "which Tesseract readings never change the outcome").
"""
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_contested_axis as fc  # noqa: E402
import fit_unopposed_edge as fu  # noqa: E402
import folds  # noqa: E402
import fit_scan_up_down as fs  # noqa: E402

SHARES = [0.0, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9]  # 0: no bar (the build before it)
FINE = [0.0] + [round(0.6 + 0.02 * i, 2) for i in range(16)]
CURRENT = fc.AGAIN_SHARE  # TesseractOSD.minimumAgainShare
OFF = 0.0


def decide(r, share):
    turn = fs.answered(r, fs.CURRENT) if r["scan"] else None
    return fc.decide(r, fc.CURRENT, fc.AGAIN, fc.DOUBT, fc.UNOPPOSED, share) if turn is None else turn


def asked(r, share):
    """Whether the second crop is read under `share` (the scans' leptonica answer comes first)."""
    return (fs.answered(r, fs.CURRENT) is None or not r["scan"]) and fc.asks_again(r, fc.AGAIN, fc.CURRENT, share)


def tally(rows, share=OFF):
    t = Counter(fc.outcome(decide(r, share), r["needed"]) for r in rows)
    t["saved"] = sum(asked(r, OFF) and not asked(r, share) for r in rows)
    return t


def fitter(grid):
    def fit(rows):
        before = tally(rows)

        def rank(share):
            t = tally(rows, share)
            return None if t["right"] < before["right"] or t["wrong"] > before["wrong"] else (t["saved"], -share)
        return folds.best(grid, rank)
    return fit


def show(title, rows, share):
    print(f"== {title}: {len(rows)} copies, share {share}: before {dict(tally(rows))}, "
          f"after {dict(tally(rows, share))}")
    for r in rows:
        if asked(r, OFF) and not asked(r, share):
            look = r["look"]
            print(f"    {fc.outcome(decide(r, OFF), r['needed'])}->{fc.outcome(decide(r, share), r['needed'])}: "
                  f"{r['name']} ({r['source']}): share {look['share']:.3f} votes {look['votes']:.0f}, "
                  f"short {r['axis']}, second {r.get('again')}")


def main():
    scans, photos = fs.traced_rows(sys.argv)
    rows = scans + photos
    for title, share in (("without the bar", OFF), (f"with the build's {CURRENT}", CURRENT)):
        differ = [r["name"] for r in rows if decide(r, share) != r["got"]]
        print(f"{len(rows)} copies; replayed {title}, {len(differ)} differ from layout.json: {differ}")
    # Every second crop that turned a page, lowest share first: the bar must stay under these.
    turned = sorted((r for r in rows if asked(r, OFF) and decide(r, OFF) != decide(r, 1.0)),
                    key=lambda r: r["look"]["share"])
    print("second crops that changed the outcome: "
          + ", ".join(f"{r['name']} {r['look']['share']:.3f}" for r in turned))
    folds.one_source_out(rows, fitter(SHARES), tally, show, "shares")
    show("fitted on every source (in-sample)", rows, fitter(SHARES)(rows))
    print("\nthe same on a grid of 0.02 steps:")
    folds.one_source_out(rows, fitter(FINE), tally, show, "shares")
    assert fu.CURRENT == fc.UNOPPOSED


if __name__ == "__main__":
    main()
