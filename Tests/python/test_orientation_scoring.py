"""Tools/accuracy/orientation.py scores the page as written: a photo Quire straightens from
another first corner and then turns back upright is upright, not "turned wrong" (scoring
`rotation` against the turn the true corners need counted it wrong); a page written the wrong
way up is still counted wrong. Synthetic: a stub stands in for quire and writes layout.json."""
import shutil
import stat
import sys
from pathlib import Path

import pytest
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "Tools" / "accuracy"))
import orientation  # noqa: E402

# A page lying about 40 degrees clockwise in a 400 x 300 photo: TL, TR, BR, BL as it reads.
WIDTH, HEIGHT = 400, 300
CORNERS = [[200, 20], [360, 155], [230, 280], [60, 150]]

# The stub: for every turned copy it is given, one page per quad of `quads` (the true corners
# of the page, or of each half of a spread), carried into the copy (`vips rot` turns clockwise:
# (x, y) -> (h - y, x)), listed from the corner `shift` places on, and the rotation Quire would
# report having straightened from that corner. Shift 0 names the written page's own corners
# (upright, however it got there); any other shift writes it turned. Quire names quads in the
# frame of the copy it was given (`Quad.unturned`), as here.
STUB = """#!{python}
import json, re, sys
from pathlib import Path
src, out = Path(sys.argv[2]), Path(sys.argv[sys.argv.index("-o") + 1])
quads, shift, rotation, (w, h) = {quads}, {shift}, {rotation}, {size}
pages = []
for path in sorted(src.iterdir()):
    turn = int(re.search(r"-r(\\d+)", path.name).group(1))
    for corners in quads:
        quad, cw, ch = [list(p) for p in corners], w, h
        for _ in range(turn // 90):
            quad, cw, ch = [[ch - y, x] for x, y in quad], ch, cw
        pages.append({{"source": str(path), "rotation": rotation(turn), "rotationConfidence": 3.0,
                       "quad": quad[shift:] + quad[:shift]}})
out.mkdir(parents=True)
(out / "layout.json").write_text(json.dumps({{"pages": pages}}))
"""


def run_score(tmp_path, shift, rotation, capsys, corners=CORNERS, quads=None, size=(WIDTH, HEIGHT)):
    if not shutil.which("vips"):
        pytest.skip("libvips-tools (vips) is not installed")
    photo = tmp_path / "tilted.png"
    Image.new("RGB", size, (200, 200, 200)).save(photo)
    stub = tmp_path / "quire"
    stub.write_text(STUB.format(python=sys.executable, quads=quads or [corners], shift=shift, rotation=rotation,
                                size=size))
    stub.chmod(stub.stat().st_mode | stat.S_IXUSR)
    orientation.score(str(stub), [(photo, "", 0, corners)], suffix=".png")
    return capsys.readouterr().out


def test_a_page_straightened_from_another_corner_and_turned_back_is_upright(tmp_path, capsys):
    # Quire named the photo's left corner first (the true BL, shift 3) and turned the page 270 back:
    # as Quire reports for the photo turned by 0, 90, 180, 270: rotations 270, 180, 90, 0.
    out = run_score(tmp_path, 0, "lambda turn: (270 - turn) % 360", capsys)
    assert "upright 4 of 4 pages" in out, out


def test_a_page_written_a_quarter_turn_off_is_wrong(tmp_path, capsys):
    # The same rotations, but the written page's corners start one place on: it reads sideways.
    out = run_score(tmp_path, 1, "lambda turn: (270 - turn) % 360", capsys)
    assert "upright 0 of 4 pages" in out, out
    assert out.count("the written page needs 90 more") == 3, out  # the 4th is "kept" (rotation 0)


@pytest.mark.parametrize("turn", [0, 90, 180, 270])
def test_a_whole_frame_page_is_upright_when_its_rotation_undoes_the_turn(turn):
    top = orientation.true_top_angle(None, 0) + turn
    assert orientation.written_turn({"rotation": (360 - turn) % 360, "quad": None}, top) == 0
    # Turned a quarter short, it needs one more clockwise quarter.
    assert orientation.written_turn({"rotation": (270 - turn) % 360}, top) == 90


def test_a_true_upright_turn_names_the_top_edge_from_the_right_corner():
    # Straightened from these corners the page reads sideways and needs 90 clockwise: its top edge
    # runs from the true BL (index 3) to TL, upwards in the photo (-90 degrees).
    square = [[0, 0], [100, 0], [100, 100], [0, 100]]
    assert orientation.true_top_angle(square, 90) == pytest.approx(-90)
    assert orientation.true_top_angle(square, 270) == pytest.approx(90)
    # Quire writes it upright: its quad starts at the true BL.
    page = {"rotation": 90, "quad": [square[3], square[0], square[1], square[2]]}
    assert orientation.written_turn(page, orientation.true_top_angle(square, 90)) == 0
    assert orientation.written_turn(page, orientation.true_top_angle(square, 0)) == 270


def test_a_split_half_is_read_in_the_frame_quire_names_it_in(tmp_path, capsys):
    # A two-page spread nearly filling a 500 x 380 frame, split at its gutter. Quire turned each
    # copy back (rotation undoes the turn) and names each half's quad in the copy's own frame. The
    # scoring once guessed the frame from the reading nearer the spread's corners: for a half, whose
    # quad covers half the spread, the quad turned back lay nearer on the copy turned 90 and the
    # upright halves were counted wrong.
    spread = [[26, 4], [492, 9], [495, 370], [26, 374]]
    halves = [[[26, 4], [258, 7], [259, 372], [26, 374]], [[258, 7], [492, 9], [495, 370], [259, 372]]]
    out = run_score(tmp_path, 0, "lambda turn: (360 - turn) % 360", capsys, corners=spread, quads=halves,
                    size=(500, 380))
    assert "upright 8 of 8 pages" in out, out


def test_a_quad_is_read_in_the_source_frame():
    # The photo turned 180 shows the page upside down; Quire turned it 180 and names the quad in
    # the copy's frame: the true corners carried into the copy, TL first. Written upright.
    copy_corners = [[WIDTH - x, HEIGHT - y] for x, y in CORNERS]
    top = orientation.true_top_angle(CORNERS, 0) + 180
    assert orientation.written_turn({"rotation": 180, "quad": copy_corners}, top) == 0
    # The same corners named from the copy's BR: written upside down.
    page = {"rotation": 0, "quad": copy_corners[2:] + copy_corners[:2]}
    assert orientation.written_turn(page, top) == 180
