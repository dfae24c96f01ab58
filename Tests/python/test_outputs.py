"""The files layout.json lists exist and have the pixel sizes it states (read back by Pillow,
an independent decoder)."""
import json

import pytest


def test_every_listed_page_exists_with_its_stated_size(processed_out):
    Image = pytest.importorskip("PIL.Image")
    report = json.loads((processed_out / "layout.json").read_text())
    pages = report["pages"]
    assert len(pages) >= 5
    for page in pages:
        with Image.open(processed_out / page["files"]["page"]) as im:
            assert (im.width, im.height) == (page["width"], page["height"]), page["source"]
        for kind in ("preview", "thumbnail"):
            with Image.open(processed_out / page["files"][kind]) as im:
                assert max(im.width, im.height) <= max(page["width"], page["height"])
