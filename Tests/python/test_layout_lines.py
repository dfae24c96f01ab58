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


def test_a_16_mb_line_is_refused_promptly_and_the_next_line_answered(quire_bin):
    """Newlines used to be searched from the start of the buffer on every read (O(n^2)): a 16 MB
    line never got its answer. The timeout is only a hang guard."""
    huge = '{"layout":"strip","viewport":{"width":390,"height":66},"count":3}' + " " * (16 << 20)
    good = '{"id":2,"layout":"strip","viewport":{"width":390,"height":66},"count":3}'
    run = subprocess.run([quire_bin, "layout", "--lines"], input=huge + "\n" + good + "\n",
                         capture_output=True, text=True, timeout=120)
    replies = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(replies) == 2
    assert replies[0]["error"]["field"] == ""
    assert "longer than the limit" in replies[0]["error"]["message"]
    assert replies[1]["id"] == 2 and "error" not in replies[1]


def test_huge_numbers_get_an_error_naming_the_field_never_inf(quire_bin):
    lines = ['{"layout":"pager","viewport":{"width":390,"height":844},"count":3,"offset":{"x":1e308,"y":0}}',
             '{"id":1e308,"layout":"pager","viewport":{"width":390,"height":844},"count":3}']
    run = subprocess.run([quire_bin, "layout", "--lines"], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, timeout=60)

    def refuse(name):
        raise ValueError(name)
    replies = [json.loads(line, parse_constant=refuse) for line in run.stdout.splitlines()]
    assert replies[0]["error"]["field"] == "offset.x"
    assert replies[1]["id"] == 1e308 and "error" not in replies[1]
