"""`quire layout --lines` as a client keeps it open: every reply, error replies included, echoes
the request's id and validates against the response schema (a complete JSON Schema validator)."""
import json
import subprocess
from pathlib import Path

import pytest

SCHEMAS = Path(__file__).resolve().parents[2] / "Schemas"


def test_lines_replies_echo_ids_and_follow_the_schema(quire_bin):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((SCHEMAS / "quire.layout-response-1.schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    requests = [
        {"id": 1, "layout": "strip", "viewport": {"width": 390, "height": 66}, "count": 10, "offset": {"x": 40, "y": 0}},
        {"id": "bad-layout", "layout": "nope", "viewport": {"width": 390, "height": 66}, "count": 3},
        {"id": [3], "layout": "pager", "viewport": {"width": 0, "height": 844}, "count": 3},
        {"id": 4, "layout": "pager", "viewport": {"width": 390, "height": 844}, "count": 10, "offset": {"x": 195, "y": 0}},
    ]
    text = "\n".join(json.dumps(r) for r in requests) + "\n{not json\n"
    run = subprocess.run([quire_bin, "layout", "--lines"], input=text, capture_output=True, text=True, timeout=60)
    replies = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(replies) == 5
    assert [r.get("id") for r in replies] == [1, "bad-layout", [3], 4, None]
    assert ["error" in r for r in replies] == [False, True, True, False, True]
    for reply in replies:
        validator.validate(reply)
    with pytest.raises(jsonschema.ValidationError):   # the validator is not a rubber stamp
        validator.validate({"error": {"field": "x", "message": "y"}, "unexpected": 1})
