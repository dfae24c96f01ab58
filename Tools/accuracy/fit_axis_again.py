"""Fits the second crop Tesseract reads when its short axis reading was too unsure to turn the
page (`TesseractOSD.readsAxisAgain`, `minimumAgainVotes`, `minimumAgainConfidence`): on a page
whose line look is sure of the axis only and has at least VOTES direction votes (many lines of
text), Tesseract reads the second densest window (20 characters) and its turn is taken when it
lies along the look's axis, its confidence is at least BAR and (under Tesseract's sure 8, on the
policy's scale) it read a script.

    python3 Tools/accuracy/fit_axis_again.py DIR [QUIRE]

DIR: where a photo table of `orientation.py` run with QUIRE_PROFILE=calls is saved (made here,
with QUIRE, when DIR has none). In that mode the detector reads the second crop (`tesseract
again`) and, for comparison, the first window once more with 20 characters (`tesseract same`)
on every page the short reading did not turn, so each copy's decision is replayed here under
every (VOTES, BAR), with either reading. The replay at the build's rule must give the turns
layout.json records (checked, with and without the second crop: one of the two applies). A rule is allowed when it loses no right copy and adds no wrong
one; the most right, then the fewest second readings (the highest VOTES, then BAR) win. Fitted
leaving one source out at a time (each source scored by the rule fitted on the others), on the
halves of `folds.py`, and on every source.
"""
import math
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_contested_axis as fc  # noqa: E402
import fit_line_orientation as fl  # noqa: E402
import folds  # noqa: E402

VOTES = [0, 100, 150, 200, 250, 300, 400, 500, 600, 800, 1000, math.inf]
BARS = [0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 4.0]
CONTESTED = 1.5  # TesseractOSD.minimumContestedAxisConfidence
CURRENT = (300, 0.5)  # TesseractOSD.minimumAgainVotes, minimumAgainConfidence
OFF = (math.inf, math.inf)  # no second crop: the rule before it
# Which kept pages are read again: under the policy's bar (the build's), or every page the short
# reading kept that was not contested ("kept": also one it said 0 for, or read no script on).
MODES = [(), ("kept",)]
READING = "again"  # the second window; "same": the first window read with 20 characters


def decide(r, rule, reading=READING):
    """The turn taken under rule (VOTES, BAR), and whether the second crop was read; with
    `reading` "same" the first window's 20-character reading stands in for the second crop's."""
    row = r if reading == "again" else {**r, "again": r.get(reading)}
    return fc.decide(row, CONTESTED, rule), fc.asks_again(row, rule, CONTESTED)


def tally(rows, rule, reading=READING):
    t = Counter()
    for r in rows:
        turn, read = decide(r, rule, reading)
        t[fc.outcome(turn, r["needed"])] += 1
        t["reads"] += read
    return t


def fitter(reading):
    def fit(rows):
        before = tally(rows, OFF, reading)

        def rank(rule):
            t = tally(rows, rule, reading)
            if t["right"] < before["right"] or t["wrong"] > before["wrong"]:
                return None
            return (t["right"], -t["reads"], rule[0], rule[1], -len(rule))
        return folds.best([(v, b) + m for v in VOTES for b in BARS for m in MODES], rank)
    return fit


def shower(reading):
    def show(title, rows, rule):
        before, after = tally(rows, OFF, reading), tally(rows, rule, reading)
        print(f"== {title}: {len(rows)} copies, rule {rule}: before {dict(before)}, after {dict(after)}")
        for r in rows:
            a, b = fc.outcome(decide(r, OFF, reading)[0], r["needed"]), fc.outcome(decide(r, rule, reading)[0],
                                                                                       r["needed"])
            if a != b:
                print(f"    {a}->{b}: {r['name']} ({r['source']}): {reading} {r.get(reading)}, votes "
                      f"{r['look']['votes']:.0f}, short {r['axis']}")
    return show


def main():
    save = Path(sys.argv[1])
    if not (save / "profile.jpg.txt").exists():
        fc.run(sys.argv[2] if len(sys.argv) > 2 else str(fc.REPO / ".build/release/quire"), save)
    rows = fc.load(save)
    for label, rule in (("without the second crop", OFF), (f"with {CURRENT}", CURRENT)):
        replayed = [r["name"] for r in rows if decide(r, rule)[0] != r["got"]]
        print(f"{len(rows)} copies; replayed {label}, differs from layout.json on {len(replayed)}: {replayed}")
    print(f"copies where the second crop was read: {sum('again' in r for r in rows)}")
    for reading in ("again", "same"):
        fit, show = fitter(reading), shower(reading)
        print(f"\n##### reading: {reading}\nleaving one source out:")
        before, after, rules = Counter(), Counter(), Counter()
        for source in sorted({r["source"] for r in rows}):
            rule = fit([r for r in rows if r["source"] != source])
            held = [r for r in rows if r["source"] == source]
            rules[rule] += 1
            before += tally(held, OFF, reading)
            after += tally(held, rule, reading)
            for r in held:
                a, b = decide(r, OFF, reading)[0], decide(r, rule, reading)[0]
                if a != b:
                    print(f"    held out {r['name']}: {fc.outcome(a, r['needed'])}->{fc.outcome(b, r['needed'])} "
                          f"under {rule}")
        print(f"  rules fitted {dict(rules)}; held out, every source: before {dict(before)}, after {dict(after)}")
        folds.held_out(rows, fit, show, lambda rule, fitted: f"halves: fitted on {len(fitted)} copies of "
                       f"{sorted(fl.FIT_SOURCES)}: rule {rule}")
        folds.every_source(rows, fit, show, lambda rule: f"\nfitted on every source: rule {rule}")


if __name__ == "__main__":
    main()
