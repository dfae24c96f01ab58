"""The review's save through `quire view OUT --serve` (docs/security.md, the review contract):
`POST /api/corrections` is taken only with the served page's token, a JSON type and a length of
at most 1 MiB, writes OUT/corrections.json and reruns the batch recorded in OUT with it."""
import http.client
import json
import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCANS = REPO / "Tests" / "Fixtures" / "generated"


def _serve(quire_bin, out):
    server = subprocess.Popen([quire_bin, "view", str(out), "--serve"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = ""
    while "serving" not in line:
        line = server.stdout.readline()
        if not line:
            server.wait()
            pytest.fail(f"server exited: {server.stderr.read()}")
    return server, int(line.split(" at ")[1].split(" ")[0].rstrip("/").rsplit(":", 1)[1])


def _request(port, method, target, body=None, headers=None, timeout=300):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.putrequest(method, target, skip_accept_encoding=True)
        for name, value in (headers or {}).items():
            connection.putheader(name, value)
        connection.endheaders(body)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


@pytest.fixture(scope="module")
def batch(quire_bin, tmp_path_factory):
    """Two scans processed from a folder of their own, by relative path (as a user would)."""
    if not SCANS.is_dir():
        pytest.skip("Tests/Fixtures/generated is missing")
    root = tmp_path_factory.mktemp("review")
    (root / "in").mkdir()
    for name in ("scan_004.jpg", "scan_006.jpg"):
        (root / "in" / name).write_bytes((SCANS / name).read_bytes())
    run = subprocess.run([quire_bin, "process", "in", "-o", "out", "--jobs", "1"], cwd=root,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    return root


@pytest.fixture()
def served(quire_bin, batch, tmp_path):
    # Each test gets its own copy of the batch (recorded by relative paths from its folder).
    root = tmp_path / "batch"
    subprocess.run(["cp", "-a", str(batch), str(root)], check=True)
    job = json.loads((root / "out" / ".quire" / "job.json").read_text())
    job["workingDirectory"] = str(root)
    (root / "out" / ".quire" / "job.json").write_text(json.dumps(job))
    server, port = _serve(quire_bin, root / "out")
    status, page = _request(port, "GET", "/")
    assert status == 200
    token = re.search(rb'<meta name="quire-token" content="([0-9a-f]{32})">', page)
    assert token, page[:400]
    yield root / "out", port, token.group(1).decode()
    server.terminate()
    server.wait()


def _post(port, body, token, **headers):
    fields = {"Content-Type": "application/json", "Content-Length": str(len(body))}
    if token is not None:
        fields["X-Quire-Token"] = token
    fields.update(headers)
    return _request(port, "POST", "/api/corrections", body, {k: v for k, v in fields.items() if v is not None})


def test_the_token_is_only_in_the_served_page(served):
    out, port, token = served
    assert token.encode() not in (out / "index.html").read_bytes()


def test_refusals(served):
    out, port, token = served
    body = b'{"scan_004.jpg": {"rotate": 90}}'
    assert _post(port, body, None)[0] == 403
    assert _post(port, body, "0" * 32)[0] == 403
    assert _post(port, body, token, **{"Content-Type": "text/plain"})[0] == 415
    assert _post(port, body, token, **{"Content-Length": None})[0] == 411
    assert _post(port, b"", token, **{"Content-Length": str(1024 * 1024 + 1)})[0] == 413
    assert _request(port, "POST", "/api/other", body, {"X-Quire-Token": token, "Content-Type": "application/json",
                                                       "Content-Length": str(len(body))})[0] == 404
    # Targets that climb out of /api or out of OUT are no endpoint: 404, and nothing is written.
    for target in ["/api/../corrections.json", "/api/corrections/../../../tmp/x", "/%2e%2e/api/corrections",
                   "/api/corrections?path=/tmp/x"]:
        assert _request(port, "POST", target, body, {"X-Quire-Token": token, "Content-Type": "application/json",
                                                     "Content-Length": str(len(body))})[0] == 404, target
    status, reply = _post(port, b'{"scan_004.jpg": {"rotate": 45}}', token)
    assert status == 400
    error = json.loads(reply)["error"]
    assert "scan_004.jpg.rotate" in error and "\n" not in error
    assert _post(port, b"not json", token)[0] == 400
    assert _request(port, "GET", "/api/corrections")[0] == 404
    assert not (out / "corrections.json").exists()


def test_a_good_post_saves_and_reprocesses_the_changed_page(served):
    out, port, token = served
    before = json.loads((out / "layout.json").read_text())["pages"]
    assert [p["correctionKey"] for p in before] == ["scan_004.jpg", "scan_006.jpg"]
    status, reply = _post(port, b'{"scan_006.jpg": {"rotate": 90}, "scan_004.jpg": {}}', token)
    assert status == 200, reply
    reply = json.loads(reply)
    assert reply["redone"] == [1] and reply["excluded"] == 0 and reply["errors"] == []
    assert reply["layout"] == "layout.json"
    saved = (out / "corrections.json").read_text()
    assert saved == '{\n  "scan_004.jpg": {},\n  "scan_006.jpg": {"rotate": 90}\n}\n'
    layout = json.loads((out / "layout.json").read_text())
    after = layout["pages"]
    assert after[1]["corrected"] == {"rotate": 90} and after[1]["rotation"] == 90
    assert (after[1]["width"], after[1]["height"]) == (before[1]["height"], before[1]["width"])
    assert after[0]["width"] == before[0]["width"] and "corrected" not in after[0]
    assert layout["corrections"] == "corrections.json"

    status, reply = _post(port, b'{"scan_004.jpg": {"exclude": true}, "scan_006.jpg": {"rotate": 90}}', token)
    assert status == 200, reply
    assert json.loads(reply)["excluded"] == 1 and json.loads(reply)["redone"] == []
    layout = json.loads((out / "layout.json").read_text())
    assert [p["source"] for p in layout["pages"]] == ["scan_006.jpg"]
    assert layout["excluded"] == [{"source": "scan_004.jpg", "sourcePage": 0, "correctionKey": "scan_004.jpg"}]
