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

# The stub: for every turned copy it is given, the true corners carried into the copy (`vips rot`
# turns clockwise: (x, y) -> (h - y, x)), listed from the corner `shift` places on, and the
# rotation Quire would report having straightened from that corner. Shift 0 names the written
# page's own corners (upright, however it got there); any other shift writes it turned.
STUB = """#!{python}
import json, re, sys
from pathlib import Path
src, out = Path(sys.argv[2]), Path(sys.argv[sys.argv.index("-o") + 1])
corners, shift, rotation, (w, h) = {corners}, {shift}, {rotation}, {size}
pages = []
for path in sorted(src.iterdir()):
    turn = int(re.search(r"-r(\\d+)", path.name).group(1))
    quad, cw, ch = [list(p) for p in corners], w, h
    for _ in range(turn // 90):
        quad, cw, ch = [[ch - y, x] for x, y in quad], ch, cw
    pages.append({{"source": str(path), "rotation": rotation(turn), "rotationConfidence": 3.0,
                   "quad": quad[shift:] + quad[:shift]}})
out.mkdir(parents=True)
(out / "layout.json").write_text(json.dumps({{"pages": pages}}))
"""


def run_score(tmp_path, shift, rotation, capsys):
    if not shutil.which("vips"):
        pytest.skip("libvips-tools (vips) is not installed")
    photo = tmp_path / "tilted.png"
    Image.new("RGB", (WIDTH, HEIGHT), (200, 200, 200)).save(photo)
    stub = tmp_path / "quire"
    stub.write_text(STUB.format(python=sys.executable, corners=CORNERS, shift=shift, rotation=rotation,
                                size=(WIDTH, HEIGHT)))
    stub.chmod(stub.stat().st_mode | stat.S_IXUSR)
    orientation.score(str(stub), [(photo, "", 0, CORNERS)], suffix=".png")
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


def test_a_quad_found_after_the_turn_is_read_in_the_turned_frame():
    # The photo turned 180 shows the page upside down; Quire kept the frame whole, turned it 180
    # and found the page's quad only then, so layout.json has the quad in the turned frame (the
    # original's): the true corners, TL first. The page is written upright.
    copy_corners, size = orientation.turned_corners(CORNERS, (WIDTH, HEIGHT), 180)
    assert size == (WIDTH, HEIGHT) and copy_corners[0] == [WIDTH - 200, HEIGHT - 20]
    top = orientation.true_top_angle(CORNERS, 0) + 180
    page = {"rotation": 180, "quad": CORNERS}
    assert orientation.written_turn(page, top, copy_corners, size) == 0
    # A quad in the source's frame is read there: the same corners named from the copy's TL.
    page = {"rotation": 180, "quad": copy_corners}
    assert orientation.written_turn(page, top, copy_corners, size) == 0
    page = {"rotation": 0, "quad": copy_corners[2:] + copy_corners[:2]}
    assert orientation.written_turn(page, top, copy_corners, size) == 180
