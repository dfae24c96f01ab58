"""Fits the bar Tesseract's short axis reading needs against both cheap readings of up and down
(`TesseractOSD.minimumContestedAxisConfidence`): on a page whose line look is sure of the axis
only, the short crop reading's turn is not taken when the look's edge side and leptonica's
count both say the other end of the axis and its confidence is under BAR.

    python3 Tools/accuracy/fit_contested_axis.py DIR [QUIRE]

DIR: where a photo table of `orientation.py` run with QUIRE_PROFILE=calls is saved (its
layout.jpg.json and profile.jpg.txt; made here, with QUIRE, when DIR has none). The call trace
carries what each reading said (`StageProfile.note`: the look, leptonica along its axis,
Tesseract's readings), so every copy's decision is replayed here under each BAR; the replay at
rules of the build that ran must give the turns layout.json records (checked, with and without
the bar). The bar is fitted leaving one
source out at a time (each source scored by the bar fitted on the others), and on the halves of
`folds.py`. A rule is allowed when it loses no right copy; the fewest wrong, then the most right,
then the lowest bar wins. Each copy is scored against the turn its page needs as straightened
(`upright_turn` and the copy's turn), not as written.
"""
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_line_orientation as fl  # noqa: E402
import folds  # noqa: E402
import orientation  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
BARS = [0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 4.0]
AXIS_BAR = 0.5  # TesseractOSD.minimumAxisConfidence
SCALE = 2.0  # LineOrientation.sureConfidence: the policy's scale at a bar
CURRENT = 1.5  # TesseractOSD.minimumContestedAxisConfidence
AGAIN = (300, 0.5)  # TesseractOSD.minimumAgainVotes, minimumAgainConfidence: the second crop
DOUBT = (1.0, 1.5)  # TesseractOSD.minimumReadOnShare, minimumContestedAxisConfidence (fit_axis_doubt.py)
UNOPPOSED = 0.05  # TesseractOSD.minimumUnopposedMargin (fit_unopposed_edge.py)
AGAIN_SHARE = 0.75  # TesseractOSD.minimumAgainShare (fit_again_share.py)


def run(quire, save):
    """orientation.py's photo table, with the call trace."""
    os.environ["QUIRE_PROFILE"] = "calls"
    orientation.SAVE = save
    truth = json.loads((REPO / "Tools/accuracy/real-photos/truth.json").read_text())
    photos = sorted((REPO / "Tools/accuracy/real-photos").glob("*.jpg"))
    orientation.score(quire, [(p, "", truth.get(p.name, {}).get("upright_turn", 0), truth.get(p.name, {}).get(
        "corners")) for p in photos], suffix=".jpg")


def number(v):
    return float(v) if re.match(r"^-?[\d.]+(e-?\d+)?$", v) else v


def traced_copies(save, ext):
    """(name, notes of its first orientation call, turn taken) per copy of a trace `save`
    written for files ending in `ext` ("jpg", "png"): the first call decides; later ones re-ask a
    turned page."""
    groups = []  # per decoded source, the notes of each orientation call
    for line in (save / f"profile.{ext}.txt").read_text().splitlines():
        if line.startswith("call 1 decode "):
            groups.append([[]])
        elif line.startswith("note ") and groups:
            groups[-1][-1].append(line[5:])
        elif line.startswith("call 2e orientation ") and groups:
            groups[-1].append([])
    pages = sorted(json.loads((save / f"layout.{ext}.json").read_text())["pages"], key=lambda p: p["index"])
    names = list(dict.fromkeys(Path(p["source"]).name for p in pages))
    assert len(names) == len(groups), (len(names), len(groups))
    got = {}
    for p in pages:
        got.setdefault(Path(p["source"]).name, p.get("rotation", 0))
    return [(name, calls[0] if len(calls) > 1 else [], got[name]) for name, calls in zip(names, groups)]


def read_notes(r, notes):
    """Fills row `r`'s readings (look, axis, crop, fallback, ...) from an orientation call's notes."""
    for n in notes:
        words = n.split()
        if words[:2] == ["look", "none"]:
            r["look"] = "none"
        elif words[0] == "look":
            r["look"] = {words[i]: number(words[i + 1]) for i in range(1, len(words) - 1, 2)}
        elif words[0] == "tesseract" and words[2] != "none":
            kv = {words[i]: number(words[i + 1]) for i in range(2, len(words) - 1, 2)}
            r[words[1]] = {"rotate": int(kv["rotate"]), "conf": kv["conf"],
                           "script": kv["script"] if kv["script"] != "none" else None}
    return r


def load(save):
    """One row per copy: its source, the turn it needs, what each reading said, the turn taken."""
    truth = json.loads((REPO / "Tools/accuracy/real-photos/truth.json").read_text())
    rows = []
    for name, notes, got in traced_copies(save, "jpg"):
        stem, turn = re.match(r"(.*)-r(\d+)\.jpg", name).groups()
        t = truth.get(stem + ".jpg", {})
        r = {"name": name, "source": t.get("source", "photo"), "needed": (t.get("upright_turn", 0) - int(turn)) % 360,
             "got": got, "look": None, "axis": None, "crop": None, "fallback": None}
        rows.append(read_notes(r, notes))
    return rows


def turns(rotate, conf, script):
    """OrientationPolicy.turns."""
    return rotate != 0 and conf >= 2 and (conf >= 8 or (script if script is not None else float("inf")) >= 1)


def contested(look, a):
    """The look's edge side and leptonica's sign (0 says nothing) both against the reading `a`."""
    m, ud = look["margin"], look["updown"] if look["updown"] != "none" else 0
    return a["rotate"] != 0 and a["rotate"] != int(look["rotate"]) and m != 0 and ud != 0 and (ud > 0) == (m > 0)


def axis_turn(look, a, bar=None):
    """The short axis reading `a`'s turn (0: kept) and its confidence on the policy's scale
    (`TesseractOSD.axisGuess`, rounded as it rounds; across the look's axis: 0), with the
    contested bar `bar` (None: none)."""
    if a["rotate"] % 180 != int(look["rotate"]) % 180:
        return 0, 0.0
    scaled = round(SCALE * a["conf"] / AXIS_BAR, 2)
    if bar is not None and a["conf"] < bar and contested(look, a):
        return 0, scaled
    return (a["rotate"] if turns(a["rotate"], scaled, a["script"]) else 0), scaled


def asks_again(r, again=AGAIN, bar=CURRENT, share=AGAIN_SHARE):
    """Whether the detector reads the second crop (`TesseractOSD.readsAxisAgain`) under the
    rule `again` (VOTES, BAR[, "kept"]; None: never): the look sure of the axis only, not
    answered with leptonica, the short reading kept the page, the look has VOTES or more and a
    direction share of at least `share`, and the short reading is under the policy's bar as
    `axisGuess` scales it (a contested one is not: it is over it); with "kept", every page the
    short reading kept that was not contested."""
    look, a = r["look"], r["axis"]
    if again is None or look in (None, "none") or look["sure"] == "true" or look["axisSure"] != "true":
        return False
    if answered_up_down(look) or unopposed(look, UNOPPOSED) or a is None or look["votes"] < again[0]:
        return False
    if look["share"] < share:
        return False
    if a["rotate"] == 0 and a["conf"] == 0 and a["script"] is None:
        return False  # the short reading found too few characters (`TesseractOSD.readNothing`)
    turn, scaled = axis_turn(look, a, bar)
    if turn != 0:
        return False
    if len(again) > 2 and again[2] == "kept":
        return axis_turn(look, a)[0] == 0
    return scaled < 2


def doubted(r, doubt):
    """Whether the short reading's turn is taken back under the rule `doubt` (SHARE, CAP; None:
    never): the short reading is under CAP, the look's edge side or leptonica's sign (0 says
    nothing) says the other end of the axis, and the first window read on to 20 characters
    (`same`) turns another way or with under SHARE times the short reading's confidence."""
    g = r.get("same")
    if doubt is None or g is None or r["axis"]["conf"] >= doubt[1] or not contradicted(r["look"], r["axis"]):
        return False
    return g["rotate"] != r["axis"]["rotate"] or g["conf"] < doubt[0] * r["axis"]["conf"]


def contradicted(look, a):
    """Whether the look's edge side or leptonica's sign (0 says nothing) says the other end of
    the axis from the reading `a`."""
    base = int(look["rotate"]) % 180
    ud = look["updown"] if look["updown"] != "none" else 0
    return int(look["rotate"]) != a["rotate"] or (ud != 0 and (base if ud > 0 else base + 180) != a["rotate"])


def answered_up_down(look):
    """Whether the look and leptonica answer the page without Tesseract (`upDownGuess`)."""
    ud = look["updown"] if look["updown"] != "none" else 0
    return abs(look["margin"]) >= 0.04 and abs(ud) >= 4 and (ud > 0) == (look["margin"] >= 0)


def unopposed(look, margin):
    """Whether the look's edge side alone answers (`TesseractOSD.unopposedGuess`): leptonica
    silent (0 or none) and the edge margin at least `margin` (None: never)."""
    ud = look["updown"] if look["updown"] != "none" else 0
    return margin is not None and ud == 0 and abs(look["margin"]) >= margin


def again_turn(r, again):
    """The second crop's turn (`againGuess`): along the look's axis, not 0, over the policy's
    bar scaled from again's BAR, with a script read; 0 otherwise (the short reading stands)."""
    g = r.get("again")
    if g is None or g["rotate"] == 0 or g["rotate"] % 180 != int(r["look"]["rotate"]) % 180:
        return 0
    return g["rotate"] if turns(g["rotate"], round(SCALE * g["conf"] / again[1], 2), g["script"]) else 0


def decide(r, bar=None, again=AGAIN, doubt=DOUBT, margin=UNOPPOSED, share=AGAIN_SHARE):
    """The turn taken (0: kept) by the detector, with the contested bar `bar` (None: before it),
    the second crop's rule `again` (VOTES, BAR[, "kept"]; None: before it) and direction `share`
    (0: before it), the doubted reading's rule `doubt` (None: before it) and the unopposed edge
    side's `margin` (None: before it)."""
    look = r["look"]
    if look is None:
        return 0
    if look != "none":
        direction = (look["share"] - 0.5) / 0.1
        if look["sure"] == "true":
            return int(look["rotate"]) if SCALE * min(direction, abs(look["margin"]) / 0.15) >= 2 else 0
        if look["axisSure"] == "true" and (answered_up_down(look) or unopposed(look, margin)):
            return int(look["rotate"])
        if look["axisSure"] == "true":
            a = r["axis"]
            if a is None:
                return 0
            turn = axis_turn(look, a, bar)[0]
            if turn != 0 and doubted(r, doubt):
                return 0
            if asks_again(r, again, bar, share):
                return again_turn(r, again) or turn
            return turn
    c, f = r["crop"], r["fallback"]
    if c is None:
        return 0
    g = f if f is not None and f["conf"] > c["conf"] else c
    return g["rotate"] if turns(g["rotate"], g["conf"], g["script"]) else 0


def outcome(turn, needed):
    return "right" if turn == needed else "kept" if turn == 0 else "wrong"


def tally(rows, bar=None):
    return Counter(outcome(decide(r, bar), r["needed"]) for r in rows)


def fit(rows):
    before = tally(rows)

    def rank(bar):
        t = tally(rows, bar)
        return None if t["right"] < before["right"] else (-t["wrong"], t["right"], -bar)
    return folds.best(BARS, rank)


def show(title, rows, bar):
    print(f"== {title}: {len(rows)} copies, bar {bar}: before {dict(tally(rows))}, after {dict(tally(rows, bar))}")
    for r in rows:
        a, b = outcome(decide(r), r["needed"]), outcome(decide(r, bar), r["needed"])
        if a != b:
            print(f"    {a}->{b}: {r['name']} ({r['source']}): Tesseract {r['axis']}, look {r['look']}")


def main():
    save = Path(sys.argv[1])
    if not (save / "profile.jpg.txt").exists():
        run(sys.argv[2] if len(sys.argv) > 2 else str(REPO / ".build/release/quire"), save)
    rows = load(save)
    for label, rules in (("without the bar, the second crop or the doubt (main before them)", (None, None, None)),
                         ("without the doubt", (CURRENT, AGAIN, None)),
                         (f"with the bar {CURRENT}, the second crop {AGAIN} and the doubt {DOUBT} (today's build)",
                          (CURRENT, AGAIN, DOUBT))):
        replayed = [r["name"] for r in rows if decide(r, *rules) != r["got"]]
        print(f"{len(rows)} copies; replayed {label}, differs from layout.json on {len(replayed)}: {replayed}")
    folds.one_source_out(rows, fit, tally, show, "bars")
    folds.held_out(rows, fit, show, lambda bar, fitted: f"halves: fitted on {len(fitted)} copies of "
                   f"{sorted(fl.FIT_SOURCES)}: bar {bar}")
    folds.every_source(rows, fit, show, lambda bar: f"\nfitted on every source: bar {bar}")


if __name__ == "__main__":
    main()
