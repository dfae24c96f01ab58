"""`quire view --serve` as a user's machine meets it: huge files, a busy port, a folder that
cannot be written. The request-level abuse (idle clients, symlinks, Host, Range, floods) is in
Tests/QuireKitTests/Viewer/StaticServerTests.swift."""
import os
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest


def _serve(quire_bin, out, *extra):
    server = subprocess.Popen([quire_bin, "view", str(out), "--serve", *extra],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = ""
    while "serving" not in line:
        line = server.stdout.readline()
        if not line:
            server.wait()
            pytest.fail(f"server exited: {server.stderr.read()}")
    return server, line.split(" at ")[1].split(" ")[0]


def _peak_rss_mb(pid):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM")


def _copy_out(processed_out, tmp_path):
    out = tmp_path / "out"
    subprocess.run(["cp", "-r", str(processed_out), str(out)], check=True)
    return out


def test_a_huge_file_is_streamed_in_flat_memory(quire_bin, processed_out, tmp_path):
    """A 1.5 GB file (sparse, so the test costs no disk) is served whole and by range while the
    server's peak memory stays far below the file's size; HEAD reads none of it."""
    out = _copy_out(processed_out, tmp_path)
    size = 1536 * 1024 * 1024
    with open(out / "pages" / "huge.jpg", "wb") as f:
        f.truncate(size)
    server, url = _serve(quire_bin, out)
    try:
        head = urllib.request.urlopen(urllib.request.Request(url + "pages/huge.jpg", method="HEAD"), timeout=30)
        assert head.status == 200 and int(head.headers["Content-Length"]) == size
        assert _peak_rss_mb(server.pid) < 100
        received = 0
        with urllib.request.urlopen(url + "pages/huge.jpg", timeout=120) as r:
            while chunk := r.read(1 << 20):
                received += len(chunk)
        assert received == size
        part = urllib.request.urlopen(urllib.request.Request(
            url + "pages/huge.jpg", headers={"Range": f"bytes={size - 10}-"}), timeout=30)
        assert part.status == 206 and len(part.read()) == 10
        assert _peak_rss_mb(server.pid) < 100, "the server buffered the file"
    finally:
        server.terminate()
        server.wait()


def test_an_idle_connection_does_not_freeze_the_server(quire_bin, processed_out, tmp_path):
    """The issue's reproduction: a connection that says nothing, then a normal request."""
    out = _copy_out(processed_out, tmp_path)
    server, url = _serve(quire_bin, out)
    port = int(url.rstrip("/").rsplit(":", 1)[1])
    idle = socket.create_connection(("127.0.0.1", port))
    try:
        with urllib.request.urlopen(url + "layout.json", timeout=15) as r:
            assert r.status == 200
    finally:
        idle.close()
        server.terminate()
        server.wait()


def test_a_busy_port_fails_before_rewriting_the_viewer(quire_bin, processed_out, tmp_path):
    out = _copy_out(processed_out, tmp_path)
    (out / "index.html").write_text("mine")
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    try:
        run = subprocess.run([quire_bin, "view", str(out), "--serve", str(busy.getsockname()[1])],
                             capture_output=True, text=True, timeout=30)
    finally:
        busy.close()
    assert run.returncode == 1
    assert "cannot listen" in run.stderr and len(run.stderr.strip().splitlines()) == 1, run.stderr
    assert (out / "index.html").read_text() == "mine"


def test_a_folder_that_cannot_be_written_is_one_plain_line(quire_bin, processed_out, tmp_path):
    """No Foundation error dump: one line naming the file and the reason."""
    out = _copy_out(processed_out, tmp_path)
    # A file where the viewer's folder must go fails for root too (chmod does not stop root).
    subprocess.run(["rm", "-rf", str(out / "quire-viewer")], check=True)
    (out / "quire-viewer").write_text("in the way")
    run = subprocess.run([quire_bin, "view", str(out)], capture_output=True, text=True, timeout=30)
    assert run.returncode == 1
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "quire-viewer" in lines[0] and "cannot be written" in lines[0], run.stderr
    assert "NSCocoaErrorDomain" not in run.stderr and "Code=" not in run.stderr
    if os.geteuid() != 0:
        subprocess.run(["rm", "-f", str(out / "quire-viewer")], check=True)
        os.chmod(out, 0o555)
        try:
            run = subprocess.run([quire_bin, "view", str(out)], capture_output=True, text=True, timeout=30)
        finally:
            os.chmod(out, 0o755)
        assert run.returncode == 1 and "Permission denied" in run.stderr and "Code=" not in run.stderr, run.stderr
