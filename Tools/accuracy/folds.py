"""The folds the orientation fits share (fit_up_down.py, fit_fallback.py, fit_axis_crop.py): a
rule is chosen on a grid from the copies of half the sources (fit_line_orientation.FIT_SOURCES,
split by repository), scored on the other half (held out), then on every source; and chosen
once more on every source, in-sample, for comparison. Each fit script says what it searches
(its grid and how a rule is ranked) and how it shows a rule's outcome; the fold is here once."""
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_line_orientation as fl  # noqa: E402


def halves(rows):
    """The copies of the sources rules are fitted on, and the held-out ones."""
    return ([r for r in rows if r["source"] in fl.FIT_SOURCES],
            [r for r in rows if r["source"] not in fl.FIT_SOURCES])


def best(grid, rank):
    """The rule of `grid` whose `rank` (a sortable key; None when the rule is not allowed) is
    highest; None when no rule is allowed."""
    top = None
    for rule in grid:
        key = rank(rule)
        if key is not None and (top is None or key > top[0]):
            top = (key, rule)
    return top[1] if top else None


def held_out(rows, fit, show, header, label=""):
    """Fits a rule on one half (`fit(rows)`), prints `header(rule, fitted rows)`, and shows it
    (`show(title, rows, rule)`) on that half, on the held-out half and on every source; the
    rule. `label` is added to each title (a second fold of the same script)."""
    fitted, held = halves(rows)
    rule = fit(fitted)
    print(header(rule, fitted))
    show(f"fitted sources{label} (in-sample)", fitted, rule)
    show(f"held-out sources{label}", held, rule)
    show(f"every source{label}", rows, rule)
    return rule


def every_source(rows, fit, show, header):
    """The rule fitted on every source, printed with `header(rule)` and shown in-sample."""
    rule = fit(rows)
    print(header(rule))
    show("every source (in-sample)", rows, rule)
    return rule


def one_source_out(rows, fit, tally, show, noun="rules"):
    """Leave one source out (fit_contested_axis.py, fit_scan_up_down.py, fit_unopposed_edge.py,
    fit_glyph_fit.py): for each source, a rule fitted on the others' copies (`fit(rows)`) is
    scored on its copies (`tally(rows)` without a rule, `tally(rows, rule)` with it; Counters of
    outcomes), the sources it changes shown (`show(title, rows, rule)`); prints the rules fitted
    and the held-out totals before and after, and returns those two Counters."""
    print(f"leaving one source out ({len(rows)} copies):")
    before, after, rules = Counter(), Counter(), Counter()
    for source in sorted({r["source"] for r in rows}):
        rule = fit([r for r in rows if r["source"] != source])
        held = [r for r in rows if r["source"] == source]
        rules[rule] += 1
        before += tally(held)
        after += tally(held, rule)
        if tally(held) != tally(held, rule):
            show(f"held out {source}", held, rule)
    print(f"  {noun} fitted {dict(rules)}; held out, every source: before {dict(before)}, after {dict(after)}")
    return before, after
