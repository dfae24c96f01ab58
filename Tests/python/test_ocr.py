"""`quire process --ocr`: each page's text in OUT/text/NNNN.hocr and .txt, named in layout.json
(validated against its schema), with the same words the `tesseract` command reads from the
written page; without Tesseract's models the batch runs and says once that OCR is off."""
import difflib
import html
import json
import re
from pathlib import Path

import pytest

from conftest import TESSERACT_ENV, run, which_or_skip

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "Tests" / "Fixtures" / "generated"
REAL = REPO / "Tools" / "accuracy" / "real-scans"
# Real scans of printed text (the generated pages carry bars, not letters): colour and grey, a PDF
# rendered at 200 dpi, pages with and without a stated resolution.
REAL_PAGES = ["galfar-deskew/F1550.jpg", "ocrmypdf/epson.pdf", "sbrunner-deskew/deskew-3.png",
              "sbrunner-deskew/deskew-7.png"]
WORD = re.compile(r"class='ocrx_word'[^>]*>(.*?)</span>", re.S)
jsonschema = pytest.importorskip("jsonschema")


def hocr_words(text):
    return [html.unescape(re.sub(r"<[^>]+>", "", w)) for w in WORD.findall(text)]


def jpeg_components(path):
    """The number of colour components in a JPEG's frame header (1 grey, 3 colour)."""
    data, at = path.read_bytes(), 2
    while at + 4 <= len(data) and data[at] == 0xFF:
        marker, length = data[at + 1], int.from_bytes(data[at + 2:at + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2):
            return data[at + 9]
        at += 2 + length
    return None


def english_or_skip():
    which_or_skip("tesseract", "tesseract-ocr")
    if "eng" not in run("tesseract", "--list-langs").stdout.splitlines()[1:]:
        pytest.skip("Tesseract's English model is not installed (Debian package tesseract-ocr-eng)")


@pytest.fixture(scope="module")
def ocr_out(quire_bin, tmp_path_factory):
    english_or_skip()
    out = tmp_path_factory.mktemp("ocr") / "out"
    inputs = sorted(SAMPLES.glob("*.jpg")) + [REAL / p for p in REAL_PAGES]
    done = run(quire_bin, "process", *inputs, "-o", out, "--ocr", "--viewer", "none", "--page-timeout", 0, "-q")
    assert done.returncode == 0, done.stderr
    return out


def test_layout_json_names_each_pages_text(ocr_out):
    layout = json.loads((ocr_out / "layout.json").read_text())
    schema = jsonschema.Draft202012Validator(json.loads((REPO / "Schemas" / "quire.layout-1.schema.json").read_text()))
    schema.validate(layout)
    assert len(layout["pages"]) == len(list(SAMPLES.glob("*.jpg"))) + len(REAL_PAGES)
    for page in layout["pages"]:
        text = page["text"]
        number = Path(page["files"]["page"]).stem
        assert (text["hocr"], text["txt"], text["language"]) == (f"text/{number}.hocr", f"text/{number}.txt", "eng")
        hocr = (ocr_out / text["hocr"]).read_text()
        assert hocr.startswith('<?xml version="1.0" encoding="UTF-8"?>') and "<meta name='ocr-system' content='tesseract " in hocr
        # Boxes are in the written page's own pixels.
        assert f"bbox 0 0 {page['width']} {page['height']};" in hocr
        assert text["words"] == len(hocr_words(hocr))
        assert (text["meanConfidence"] is None) == (text["words"] == 0)
        assert (ocr_out / text["txt"]).exists()
    assert sum(p["text"]["words"] for p in layout["pages"]) > 1000
    # The schema rejects a text record that lacks a field or names a file outside text/.
    broken = json.loads(json.dumps(layout))
    del broken["pages"][0]["text"]["words"]
    assert not schema.is_valid(broken)
    broken = json.loads(json.dumps(layout))
    broken["pages"][0]["text"]["hocr"] = "../etc/passwd"
    assert not schema.is_valid(broken)


def test_words_equal_the_tesseract_commands(ocr_out):
    """The words of every page equal those `tesseract OUT/pages/NNNN.jpg - hocr` reads, in order,
    for at least 99 % of them (counted over the longer of the two lists)."""
    layout = json.loads((ocr_out / "layout.json").read_text())
    same = total = 0
    for page in layout["pages"]:
        ours = hocr_words((ocr_out / page["text"]["hocr"]).read_text())
        cli = run("tesseract", ocr_out / page["files"]["page"], "-", "-l", page["text"]["language"], "hocr",
                  env=TESSERACT_ENV)
        assert cli.returncode == 0, cli.stderr
        theirs = hocr_words(cli.stdout)
        matcher = difflib.SequenceMatcher(a=ours, b=theirs, autojunk=False)
        same += sum(block.size for block in matcher.get_matching_blocks())
        total += max(len(ours), len(theirs))
    assert total > 1000, "the check needs pages with text"
    assert same / total >= 0.99, f"{same} of {total} words agree"


def test_a_straightened_colour_photo_reads_the_commands_words(quire_bin, tmp_path):
    """A photo straightened by perspective and written in colour: its line images reach Tesseract
    as 32-bit colour and are kept uncompressed (CTesseractShim/line_images.c), and every word equals
    the `tesseract` command's on the written page, in order. (The alpha byte of those images is
    pinned at the pixel level by TextEngineTests.lineImagesKeptRawClearTheAlphaByte.)"""
    english_or_skip()
    out = tmp_path / "out"
    photo = REPO / "Tools" / "accuracy" / "real-photos" / "fairscan_page_on_beige_fabric.jpg"
    done = run(quire_bin, "process", photo, "-o", out, "--ocr", "--viewer", "none", "--page-timeout", 0, "-q")
    assert done.returncode == 0, done.stderr
    page = json.loads((out / "layout.json").read_text())["pages"][0]
    assert page["correction"] == "perspective"
    assert jpeg_components(out / page["files"]["page"]) == 3, "the written page is colour"
    ours = hocr_words((out / page["text"]["hocr"]).read_text())
    cli = run("tesseract", out / page["files"]["page"], "-", "-l", "eng", "hocr")
    assert cli.returncode == 0, cli.stderr
    assert len(ours) > 300, "the check needs a page of text"
    assert ours == hocr_words(cli.stdout)


def test_without_tesseract_one_notice_and_the_batch_runs(quire_bin, tmp_path):
    out = tmp_path / "out"
    done = run(quire_bin, "process", SAMPLES / "scan_004.jpg", SAMPLES / "cap_003.jpg", "-o", out, "--ocr",
               "--viewer", "none", env={"QUIRE_NO_TESSERACT": "1"})
    assert done.returncode == 0, done.stderr
    notes = [line for line in done.stderr.splitlines() if "OCR" in line or "orientation" in line]
    assert len(notes) == 1 and "OCR and page orientation are off" in notes[0], done.stderr
    layout = json.loads((out / "layout.json").read_text())
    assert len(layout["pages"]) == 2 and all("text" not in page for page in layout["pages"])
    assert all((out / page["files"]["page"]).exists() for page in layout["pages"])
    assert not (out / "text").exists()
    # --lang is not checked against models that are not there: the same note, the same run.
    again = run(quire_bin, "process", SAMPLES / "scan_004.jpg", "-o", tmp_path / "again", "--ocr", "--lang", "deu",
                "--viewer", "none", env={"QUIRE_NO_TESSERACT": "1"})
    assert again.returncode == 0 and "OCR and page orientation are off" in again.stderr


def test_a_language_not_installed_is_refused_naming_those_that_are(quire_bin, tmp_path):
    english_or_skip()
    installed = sorted(set(run("tesseract", "--list-langs").stdout.splitlines()[1:]) - {"osd"})
    done = run(quire_bin, "process", SAMPLES / "scan_004.jpg", "-o", tmp_path / "out", "--ocr", "--lang", "eng+xqz")
    assert done.returncode == 2
    error = [line for line in done.stderr.splitlines() if line.startswith("Error:")]
    assert len(error) == 1 and "xqz not installed" in error[0] and "eng" in error[0], done.stderr
    assert all(name in error[0] for name in installed)
    assert not (tmp_path / "out").exists()
