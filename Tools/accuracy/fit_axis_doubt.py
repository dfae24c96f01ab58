"""Fits when Tesseract's short axis reading is doubted (`TesseractOSD.isDoubted`,
`minimumReadOnShare`): on a page whose line look is sure of the axis only, a turn the short
8-character reading would take, that the look's edge side or leptonica's sign contradicts (either
one: `fit_contested_axis.py` keeps the page when both do and the reading is weak), is read on:
the same window to 20 characters, when the short reading is under CAP. The turn stands when that
reading turns the same way with at least SHARE times the short reading's confidence; otherwise
the page is kept (a wrong turn is worse than a kept page). A reading that weakens as it reads on
was a fluke of its first glyphs.

    python3 Tools/accuracy/fit_axis_doubt.py DIR [QUIRE]

DIR: a photo table of `orientation.py` run with QUIRE_PROFILE=calls (made here, with QUIRE,
when DIR has none); the trace reads the first window on to 20 characters (`tesseract same`) on
every axis page, so each copy's decision is replayed under every (SHARE, CAP). A rule is allowed when it
loses no right copy; the fewest wrong, then the most right, then the highest SHARE (the most
cautious rule that loses nothing: a wrong turn is worse than a kept page), then the fewest
readings on (the lowest CAP) wins. Fitted leaving
one source out at a time (each source scored by the rule fitted on the others), on the halves of
`folds.py`, and on every source.
"""
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_contested_axis as fc  # noqa: E402
import fit_line_orientation as fl  # noqa: E402
import folds  # noqa: E402

# Shares over 1 ask the reading to grow as it reads on, which a window of no more than 8
# characters cannot (read on, it says the same): they keep such right pages, in the folds that
# hold them out too; `--over` adds them.
SHARES = [0.5, 0.75, 0.9, 1.0] + ([1.1, 1.25, 1.5] if "--over" in sys.argv else [])
# Short readings at or over CAP are not doubted. CAP is not fitted: it is the contested bar
# (TesseractOSD.minimumContestedAxisConfidence, 1.5), over which a short reading turns the page
# against both cheap readings, so against one too. Fitting it as well chose caps that exclude the
# one doubted wrong turn in the fold that holds it out (held out worse); `python3
# fit_axis_doubt.py DIR --caps` shows that fit.
CAPS = [1.0, 1.25, 1.5, 2.0, 3.0, 4.0, float("inf")] if "--caps" in sys.argv else [1.5]
RULES = [None] + [(s, c) for s in SHARES for c in CAPS]  # None: no doubt (the rule before it)


def decide(r, share):
    return fc.decide(r, fc.CURRENT, fc.AGAIN, share)


def reads(r, share):
    """Whether the first window is read on under `share`: a turn the short reading takes that a
    cheap reading contradicts."""
    look, a = r["look"], r["axis"]
    if share is None or look in (None, "none") or look["sure"] == "true" or look["axisSure"] != "true":
        return False
    if fc.answered_up_down(look) or a is None or a["conf"] >= share[1]:
        return False
    return fc.axis_turn(look, a, fc.CURRENT)[0] != 0 and fc.contradicted(look, a)


def tally(rows, share):
    t = Counter(fc.outcome(decide(r, share), r["needed"]) for r in rows)
    t["reads"] = sum(reads(r, share) for r in rows)
    return t


def fit(rows):
    before = tally(rows, None)

    def rank(share):
        t = tally(rows, share)
        return None if t["right"] < before["right"] else (
            -t["wrong"], t["right"], share[0] if share else 0, -t["reads"], -(share[1] if share else 0))
    return folds.best(RULES, rank)


def show(title, rows, share):
    print(f"== {title}: {len(rows)} copies, share {share}: before {dict(tally(rows, None))}, "
          f"after {dict(tally(rows, share))}")
    for r in rows:
        a, b = fc.outcome(decide(r, None), r["needed"]), fc.outcome(decide(r, share), r["needed"])
        if a != b:
            print(f"    {a}->{b}: {r['name']} ({r['source']}): short {r['axis']}, read on {r.get('same')}")


def main():
    save = Path(sys.argv[1])
    if not (save / "profile.jpg.txt").exists():
        fc.run(sys.argv[2] if len(sys.argv) > 2 else str(fc.REPO / ".build/release/quire"), save)
    rows = fc.load(save)
    for label, share in (("without the doubt (main before it)", None), (f"with the doubt {fc.DOUBT}", fc.DOUBT)):
        replayed = [r["name"] for r in rows if decide(r, share) != r["got"]]
        print(f"{len(rows)} copies; replayed {label}, differs from layout.json on {len(replayed)}: {replayed}")
    print("doubted turns (a cheap reading against the short one):")
    for r in rows:
        if reads(r, (1.0, float("inf"))):
            print(f"    {fc.outcome(decide(r, None), r['needed'])}: {r['name']}: short {r['axis']}, "
                  f"read on {r.get('same')}, look {r['look']['rotate']:.0f} margin {r['look']['margin']:+.3f} "
                  f"leptonica {r['look']['updown']}")
    print("leaving one source out:")
    before, after, shares = Counter(), Counter(), Counter()
    for source in sorted({r["source"] for r in rows}):
        share = fit([r for r in rows if r["source"] != source])
        held = [r for r in rows if r["source"] == source]
        shares[share] += 1
        before += tally(held, None)
        after += tally(held, share)
        for r in held:
            a, b = decide(r, None), decide(r, share)
            if a != b:
                print(f"    held out {r['name']}: {fc.outcome(a, r['needed'])}->{fc.outcome(b, r['needed'])} "
                      f"under {share}")
    print(f"  shares fitted {dict(shares)}; held out, every source: before {dict(before)}, after {dict(after)}")
    folds.held_out(rows, fit, show, lambda share, fitted: f"halves: fitted on {len(fitted)} copies of "
                   f"{sorted(fl.FIT_SOURCES)}: share {share}")
    folds.every_source(rows, fit, show, lambda share: f"\nfitted on every source: share {share}")


if __name__ == "__main__":
    main()
