"""conftest's shared OUT folders under pytest-xdist: each worker is its own session, yet the
`quire process` behind `processed_out` and `viewer_out` must run once per run, not once per
worker, and a worker asking while another makes it must wait and get the finished folder."""
import threading

from conftest import _made_once


class Worker:
    """What `_made_once` uses of a worker's tmp_path_factory: its own base folder, whose parent
    all workers of a run share."""

    def __init__(self, base):
        self.base = base

    def getbasetemp(self):
        return self.base


def test_two_workers_make_a_shared_folder_once(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    made, started, release = [], threading.Event(), threading.Event()

    def make(folder):
        made.append(folder)
        started.set()
        assert release.wait(60)                  # a hang guard: the other worker asks meanwhile
        (folder / "layout.json").write_text("{}")

    got = {}

    def ask(name):
        got[name] = _made_once(Worker(tmp_path / name), "viewer-out", make)
    first = threading.Thread(target=ask, args=("gw0",))
    first.start()
    assert started.wait(60)
    second = threading.Thread(target=ask, args=("gw1",))
    second.start()
    second.join(0.5)
    assert second.is_alive(), "the second worker did not wait for the folder being made"
    release.set()
    first.join(60)
    second.join(60)
    assert len(made) == 1
    assert got["gw0"] == got["gw1"] == tmp_path / "viewer-out"
    assert (got["gw1"] / "layout.json").read_text() == "{}"
    # a later test in either worker gets it without making it again
    assert _made_once(Worker(tmp_path / "gw1"), "viewer-out", make) == got["gw0"] and len(made) == 1


def test_without_workers_each_session_makes_its_own(tmp_path_factory, monkeypatch):
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    made = []
    folder = _made_once(tmp_path_factory, "own", lambda f: made.append(f))
    assert made == [folder] and folder.is_dir()
