"""Right-to-left OCR end to end (issue 37): a page of Hebrew or Arabic text drawn here (libvips'
`vips text`, a system font with the script) goes through `quire process --ocr --lang heb|ara --pdf`,
and its words come out as text in the hOCR, the plain text and the PDF's text layer, in reading
order and over their boxes. Pages with right-to-left words are the ones the one-pass writer
(CTesseractShim) leaves to Tesseract's own hOCR and text writers, so this is that path's test.
Each language skips cleanly without its model (Debian tesseract-ocr-heb, tesseract-ocr-ara)
or a font for its script."""
import html
import json
import re
from pathlib import Path

import pytest

from conftest import run, which_or_skip

# Lines as drawn, each in logical (reading) order; the words are everyday ones Tesseract's models
# read reliably at this size, so a failure is Quire's, not a misread.
LINES = {
    "heb": ["שלום עולם", "ספר הדפסה חדש", "מים לחם ובית"],
    "ara": ["مرحبا بالعالم", "كتاب جديد للقراءة"],
}
# fontconfig's language tag of each model's script (`fc-list :lang=he`).
FONT_LANGUAGE = {"heb": "he", "ara": "ar"}
# The page: 1400 x 900 px at 150 dpi, the text at 40 pt from (150, 150): letters 60-70 px high.
PAGE_SIZE, MARGIN, DPI = (1400, 900), 150, 150
# Poppler wraps right-to-left runs in embedding marks (U+202B ... U+202C) and pdftotext -bbox
# words may carry them too.
MARKS = str.maketrans("", "", "\u202b\u202c\u200f")
WORD = re.compile(r"class='ocrx_word'[^>]*?title='bbox (\d+) (\d+) (\d+) (\d+);[^']*'[^>]*>(.*?)</span>", re.S)


def hocr_words(text):
    """(word, (x0, y0, x1, y1)) of every ocrx_word, in file (reading) order."""
    return [(html.unescape(re.sub(r"<[^>]+>", "", w)).strip(), tuple(int(v) for v in box))
            for *box, w in WORD.findall(text)]


def draw_page(lines, font_language, path):
    """Black text on a white page, drawn by libvips (Pango shapes and orders the script)."""
    which_or_skip("vips", "libvips-tools")
    which_or_skip("fc-list", "fontconfig")
    if not run("fc-list", f":lang={font_language}", "family").stdout.strip():
        pytest.skip(f"no font for :lang={font_language} (Debian fonts-dejavu-core has Hebrew and Arabic)")
    text = path.with_name("text.png")
    made = run("vips", "text", text, "\n".join(lines), "--font", "DejaVu Sans 40", "--dpi", DPI)
    assert made.returncode == 0, made.stderr
    inverted = path.with_name("inverted.png")
    assert run("vips", "invert", text, inverted).returncode == 0
    embedded = run("vips", "embed", inverted, path, MARGIN, MARGIN, *PAGE_SIZE, "--extend", "white")
    assert embedded.returncode == 0, embedded.stderr


@pytest.mark.parametrize("language", sorted(LINES))
def test_right_to_left_words_come_out_as_text(quire_bin, tmp_path, language):
    tesseract = which_or_skip("tesseract", "tesseract-ocr")
    if language not in run(tesseract, "--list-langs").stdout.splitlines()[1:]:
        pytest.skip(f"Tesseract's {language} model is not installed (Debian package tesseract-ocr-{language})")
    which_or_skip("pdftotext", "poppler-utils")
    lines = LINES[language]
    page = tmp_path / f"{language}.png"
    draw_page(lines, FONT_LANGUAGE[language], page)
    out = tmp_path / "out"
    done = run(quire_bin, "process", page, "-o", out, "--ocr", "--lang", language, "--pdf", "--viewer", "none",
               "--page-timeout", 0, "-q")
    assert done.returncode == 0, done.stderr

    record = json.loads((out / "layout.json").read_text())["pages"][0]
    assert record["text"]["language"] == language
    hocr = (out / record["text"]["hocr"]).read_text()
    words = hocr_words(hocr)
    expected = [w for line in lines for w in line.split()]
    # hOCR: the words in reading order, in paragraphs marked right to left (Tesseract's writer:
    # the one-pass writer writes no dir='rtl'), counted in layout.json.
    assert [w for w, _ in words] == expected, hocr
    assert "dir='rtl'" in hocr
    assert record["text"]["words"] == len(expected)
    # Plain text: the lines as drawn.
    assert [line for line in (out / record["text"]["txt"]).read_text().splitlines() if line.strip()] == lines

    pdf = out / "pages.pdf"
    assert run(which_or_skip("qpdf", "qpdf"), "--check", pdf).returncode == 0
    # In content order each word once, as it reads.
    raw = run("pdftotext", "-raw", pdf, "-").stdout.translate(MARKS).split()
    assert sorted(raw) == sorted(expected), raw
    # In poppler's reading order, as a user's `pdftotext` gives it: each line whole, in order.
    flowed = [line.strip() for line in run("pdftotext", pdf, "-").stdout.translate(MARKS).splitlines()]
    assert [line for line in flowed if line and line != "\f"] == lines, flowed
    # Each word over its box on the image: left and right edges within 2 px of the hOCR's.
    boxes = run("pdftotext", "-bbox", pdf, "-").stdout
    width = float(re.search(r'<page width="([\d.]+)"', boxes).group(1))
    to_px = record["width"] / width
    # (-bbox gives a right-to-left word's characters in visual order: reversed.)
    found = {html.unescape(t).translate(MARKS)[::-1]: (float(x0), float(x1)) for x0, x1, t in
             re.findall(r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">(.*?)</word>', boxes)}
    for word, (x0, _, x1, _) in words:
        assert word in found, (word, sorted(found))
        a0, a1 = found[word]
        assert abs(a0 * to_px - x0) <= 2 and abs(a1 * to_px - x1) <= 2, (word, (x0, x1), (a0 * to_px, a1 * to_px))
