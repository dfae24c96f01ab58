"""Tools/accuracy/fit_contested_axis.py replays each copy's orientation decision from a call
trace (`QUIRE_PROFILE=calls`); the replay must follow the detector's rules (`TesseractOSD`) or
its check against layout.json fails on a fresh trace. Synthetic trace rows, no quire run."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "Tools" / "accuracy"))
import fit_contested_axis as fc  # noqa: E402


def row(votes=400, margin=-0.05, updown=0.5, axis=(270, 0.2, 1.67), again=(270, 1.0, 2.0)):
    """A copy whose look is sure the lines run down (270), not of up or down."""
    look = {"rotate": 270.0 if margin < 0 else 90.0, "votes": float(votes), "share": 0.9, "pieces": 300.0,
            "margin": margin, "axisSure": "true", "sure": "false", "updown": updown}
    r = {"name": "x-r0.jpg", "source": "s", "needed": 270, "got": 0, "look": look, "crop": None, "fallback": None,
         "axis": {"rotate": axis[0], "conf": axis[1], "script": axis[2]}}
    if again is not None:
        r["again"] = {"rotate": again[0], "conf": again[1], "script": again[2]}
    return r


def test_the_second_crop_turns_a_page_the_short_reading_left():
    # The short reading (0.2, scaled 0.8) keeps the page; the second window's 1.0 turns it.
    assert fc.decide(row(), fc.CURRENT, fc.AGAIN) == 270
    assert fc.decide(row(), fc.CURRENT, None) == 0


def test_the_second_crop_is_not_read_under_its_votes_nor_taken_across_the_axis():
    assert fc.decide(row(votes=299), fc.CURRENT, fc.AGAIN) == 0
    assert fc.decide(row(again=(180, 3.0, 2.0)), fc.CURRENT, fc.AGAIN) == 0
    assert fc.decide(row(again=(270, 0.4, 2.0)), fc.CURRENT, fc.AGAIN) == 0


def test_a_contested_short_reading_is_not_read_again():
    # 90 at 1.0 (scaled 4) against the look's edge side and leptonica (both 270): kept, not read again.
    r = row(margin=-0.05, updown=-1.0, axis=(90, 1.0, 2.0), again=(90, 3.0, 2.0))
    assert not fc.asks_again(r)
    assert fc.decide(r, fc.CURRENT, fc.AGAIN) == 0


def test_a_doubted_short_reading_stands_only_when_reading_on_keeps_it():
    # The short reading turns 90 (1.0, scaled 4) along the look's axis; the look's edge side says 270.
    def doubted(same):
        r = row(margin=-0.05, updown=0.0, axis=(90, 1.0, 2.0), again=None)
        r["same"] = {"rotate": same[0], "conf": same[1], "script": 2.0}
        return r
    assert fc.decide(doubted((90, 1.2)), fc.CURRENT, fc.AGAIN, None) == 90
    assert fc.decide(doubted((90, 1.2)), fc.CURRENT, fc.AGAIN, fc.DOUBT) == 90
    assert fc.decide(doubted((90, 0.8)), fc.CURRENT, fc.AGAIN, fc.DOUBT) == 0
    assert fc.decide(doubted((270, 3.0)), fc.CURRENT, fc.AGAIN, fc.DOUBT) == 0
    # Neither cheap reading against it (the look says 90, leptonica nothing): not doubted.
    agreed = doubted((90, 0.8))
    agreed["look"].update(margin=0.05, rotate=90.0)
    assert fc.decide(agreed, fc.CURRENT, fc.AGAIN, fc.DOUBT) == 90
    # A short reading at or over the cap (the contested bar) is not doubted.
    firm = doubted((90, 0.8))
    firm["axis"]["conf"] = fc.DOUBT[1]
    assert fc.decide(firm, fc.CURRENT, fc.AGAIN, fc.DOUBT) == 90
