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
        r["look"]["updown"] = 0.5  # leptonica not silent: the unopposed edge side does not answer
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


def test_a_trace_is_read_per_copy_with_its_first_calls_notes(tmp_path):
    # Two decoded sources: the first with a look and a short reading, the second with no look;
    # the notes before each source's first orientation call are its readings.
    (tmp_path / "profile.png.txt").write_text(
        "call 1 decode a\n"
        "note look rotate 90 margin 0.05 updown 3.2 sure false axisSure true votes 400\n"
        "note tesseract axis rotate 90 conf 1.5 script 2.0\n"
        "call 2e orientation 12\n"
        "call 1 decode b\n"
        "note look none\n"
        "call 2e orientation 3\n")
    (tmp_path / "layout.png.json").write_text(
        '{"pages": [{"index": 1, "source": "/x/b-r0.png"}, {"index": 0, "source": "/x/a-r90.png", "rotation": 270}]}')
    copies = fc.traced_copies(tmp_path, "png")
    assert [(name, got) for name, _, got in copies] == [("a-r90.png", 270), ("b-r0.png", 0)]
    a = fc.read_notes({"look": None, "axis": None}, copies[0][1])
    assert a["look"]["votes"] == 400 and a["look"]["sure"] == "false"
    assert a["axis"] == {"rotate": 90, "conf": 1.5, "script": 2.0}
    assert fc.read_notes({"look": None}, copies[1][1])["look"] == "none"


def test_an_unopposed_clear_edge_side_answers_before_tesseract():
    # Leptonica silent (0): the edge side's 270 at the bar answers, whatever Tesseract read.
    r = row(margin=-fc.UNOPPOSED, updown=0.0, axis=(90, 1.0, 2.0), again=None)
    assert fc.decide(r) == 270
    assert fc.decide(r, margin=None) == 90
    r["look"]["updown"] = "none"
    assert fc.decide(r) == 270
    # Under the bar, or leptonica read anything: Tesseract's short reading decides.
    assert fc.decide(row(margin=-fc.UNOPPOSED / 2, updown=0.0, axis=(90, 1.0, 2.0), again=None)) == 90
    assert fc.decide(row(margin=-fc.UNOPPOSED, updown=0.5, axis=(90, 1.0, 2.0), again=None)) == 90


def test_no_second_crop_after_a_short_reading_that_read_nothing():
    r = row(axis=(0, 0.0, None))
    assert not fc.asks_again(r)
    assert fc.decide(r) == 0
    assert fc.asks_again(row(axis=(0, 0.0, 0.5)))


def test_no_second_crop_where_the_lines_barely_agree_on_their_direction():
    # The copy the second crop turns (270), with the look's direction share just under the bar.
    r = row()
    r["look"]["share"] = fc.AGAIN_SHARE - 0.01
    assert not fc.asks_again(r)
    assert fc.decide(r) == 0
    assert fc.decide(r, fc.CURRENT, fc.AGAIN, share=0.0) == 270
    r["look"]["share"] = fc.AGAIN_SHARE
    assert fc.decide(r) == 270


def test_the_share_fit_counts_only_second_crops_the_bar_saves():
    import fit_again_share as fa
    low, high = dict(row(), scan=False), dict(row(), scan=False)
    low["look"] = dict(low["look"], share=0.62)
    assert fa.tally([low, high], fa.OFF)["saved"] == 0
    assert fa.tally([low, high], 0.7) == {"right": 1, "kept": 1, "saved": 1}
    # Allowed only when no right copy is lost: with the low copy turned by its second crop, no bar.
    assert fa.fitter(fa.SHARES)([low, high]) == fa.OFF


def test_glyph_scores_are_read_with_their_reading_and_a_bad_fit_keeps_the_turn():
    import fit_glyph_fit as fg
    look = ("look rotate 270 votes 400 share 0.9 pieces 300 margin -0.05 axisSure true sure false "
            "updown 0.5")
    notes = [look, "glyphs scores -55.0,-56.2,-54.4,-56.1 characters 40",
             "tesseract axis rotate 90 conf 1.0 script 2.0", "glyphs none", "tesseract again rotate 0 conf 0 script none"]
    r = fg.read_notes({"name": "x-r0.jpg", "source": "s", "needed": 90, "got": 90, "look": None, "axis": None,
                       "crop": None, "fallback": None, "scan": False}, notes)
    assert r["glyphs"] == {"axis": {"scores": [-55.0, -56.2, -54.4, -56.1], "characters": 40}}
    # The short reading (1.0, scaled 4) turns the page; its best orientation fits at -54.4 / 40 = -1.36.
    assert fg.deciding(r) == "axis" and abs(fg.fit_of(r) + 1.36) < 1e-9
    assert fg.decide(r) == 90 and fg.decide(r, -1.35) == 0 and fg.decide(r, -1.37) == 90
