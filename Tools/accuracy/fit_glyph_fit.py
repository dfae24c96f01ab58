"""Fits a "glyphs fit badly -> keep" rule on Tesseract's per-orientation scores (issue 36): a turn
Tesseract's reading gives is not taken when even the best orientation's glyphs fit badly, that is
when its score over the characters read, FIT = best score / characters, is under a bar. Tesseract
adds, for each character, the log of each orientation's share of how well the character fits; a
character that fits all four alike adds log(1/4) = -1.386 to each, one that fits one way only adds
about 0 to that way. The scores come from the readings the detector already makes
(`ctess_detect_orientation`), so the rule costs no Tesseract call.

    python3 Tools/accuracy/fit_glyph_fit.py SCANS [PHOTOS]

SCANS: `fit_scan_up_down.py`'s DIR (the scan tables with the call trace); PHOTOS:
`fit_contested_axis.py`'s DIR (the photo table with the call trace). Both traced by a build that
notes the scores ("note glyphs scores S0,S90,S180,S270 characters N" before each reading). Every
copy's decision is replayed (`fit_unopposed_edge.decide`, today's rules); the rule turns a turn
given by a Tesseract reading (the short axis reading, the second crop, the crop or the whole
page) into a kept page when that reading's FIT is under the bar. A bar is allowed when it keeps at
least one wrong turn and loses no more right turns than it keeps wrong ones; the most wrong turns
kept net of right ones lost, then the most wrong kept, then the lowest bar win (none allowed: no
rule). Fitted leaving one source out at a time (each scored by the bar fitted on the others), then
on every source.
"""
import math
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_contested_axis as fc  # noqa: E402
import folds  # noqa: E402
import fit_scan_up_down as fs  # noqa: E402
import fit_unopposed_edge as fu  # noqa: E402

OFF = -math.inf
BARS = [-1.6, -1.5, -1.45, -1.42, -1.4, -1.39, -1.38, -1.37, -1.36, -1.35, -1.34, -1.32, -1.3, -1.25, -1.2,
        -1.1, -1.0, -0.8, -0.6]

_read_notes = fc.read_notes


def read_notes(r, notes):
    """fc.read_notes, with each reading's scores ("glyphs" note before it) as r["glyphs"][kind]."""
    r = _read_notes(r, notes)
    r["glyphs"] = {}
    pending = None
    for n in notes:
        words = n.split()
        if words[0] == "glyphs":
            pending = None if words[1] == "none" else {
                "scores": [float(s) for s in words[2].split(",")], "characters": int(words[4])}
        elif words[0] == "tesseract":
            if pending is not None and words[2] != "none":
                r["glyphs"][words[1]] = pending
            pending = None
    return r


fc.read_notes = read_notes


def deciding(r):
    """Which Tesseract reading gives the turn the detector takes (None: no turn, or the look or
    leptonica gave it), as `fit_contested_axis.decide` goes."""
    turn = fu.decide(r, fc.UNOPPOSED)
    look = r["look"]
    if turn == 0 or look is None or (r["scan"] and fs.answered(r, fs.CURRENT) is not None):
        return None
    if look != "none":
        if look["sure"] == "true" or answered_any(look):
            return None
        if look["axisSure"] == "true":
            if fc.asks_again(r, fc.AGAIN, fc.CURRENT) and fc.again_turn(r, fc.AGAIN):
                return "again"
            return "axis"
    c, f = r["crop"], r["fallback"]
    return "fallback" if f is not None and f["conf"] > c["conf"] else "crop"


def answered_any(look):
    return look["axisSure"] == "true" and (fc.answered_up_down(look) or fc.unopposed(look, fc.UNOPPOSED))


def fit_of(r):
    """FIT of the reading that gives the copy's turn (None: no such reading, or no scores)."""
    kind = deciding(r)
    g = r["glyphs"].get(kind) if kind else None
    if not g or g["characters"] <= 0:
        return None
    return max(g["scores"]) / g["characters"]


def decide(r, bar=OFF):
    turn = fu.decide(r, fc.UNOPPOSED)
    f = fit_of(r)
    return 0 if f is not None and f < bar else turn


def tally(rows, bar=OFF):
    return Counter(fc.outcome(decide(r, bar), r["needed"]) for r in rows)


def fit(rows):
    before = tally(rows)
    best = None
    for bar in BARS:
        t = tally(rows, bar)
        kept_wrong, lost_right = before["wrong"] - t["wrong"], before["right"] - t["right"]
        if kept_wrong < 1 or lost_right > kept_wrong:
            continue
        rank = (kept_wrong - lost_right, kept_wrong, -bar)
        if best is None or rank > best[0]:
            best = (rank, bar)
    return best[1] if best else OFF


def describe(r):
    kind = deciding(r)
    g = r["glyphs"].get(kind) if kind else None
    if not g:
        return f"{kind}: no scores"
    s = sorted(g["scores"], reverse=True)
    return (f"{kind} {r[kind]}: fit {s[0] / g['characters']:.3f} gap/char {(s[0] - s[1]) / g['characters']:.3f} "
            f"characters {g['characters']} scores {[round(x, 1) for x in g['scores']]}")


def show(title, rows, bar):
    print(f"== {title}: {len(rows)} copies, bar {bar}: before {dict(tally(rows))}, after {dict(tally(rows, bar))}")
    for r in rows:
        a, b = fc.outcome(decide(r), r["needed"]), fc.outcome(decide(r, bar), r["needed"])
        if a != b:
            print(f"    {a}->{b}: {r['name']} ({r['source']}): {describe(r)}")


def load(argv):
    save = Path(argv[1])
    scans = [dict(r, scan=True) for r in fs.load_scans(save / "scans") + fs.load_scans(save / "others")]
    photos = [dict(r, scan=False) for r in fc.load(Path(argv[2]))] if len(argv) > 2 else []
    return scans + photos


def main():
    rows = load(sys.argv)
    differ = [r["name"] for r in rows if decide(r) != r["got"]]
    print(f"{len(rows)} copies; replayed without the rule, {len(differ)} differ from layout.json: {differ}")
    turned = sorted((r for r in rows if fit_of(r) is not None), key=fit_of)
    print(f"turns given by a Tesseract reading with scores: {len(turned)}, by FIT (worst first):")
    for r in turned:
        print(f"    {fc.outcome(decide(r), r['needed'])}: {r['name']} ({r['source']}): {describe(r)}")
    folds.one_source_out(rows, fit, tally, show, "bars")
    show("fitted on every source (in-sample)", rows, fit(rows))


if __name__ == "__main__":
    main()
