"""Shared fixtures for the end-to-end tests that need tools outside Swift: a real browser, PDF
checkers, JSON Schema and IIIF validators. `make test` runs them after `swift test` with
QUIRE_BIN pointing at the built `quire`.

One copy of each set-up lives here (the test files had their own): running quire (`run`),
headless Chromium (`chromium`), and the processed folders several files read (`processed_out`,
`viewer_out`), made once per session rather than once per file."""
import fcntl
import json
import os
import resource
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "Tests" / "Fixtures" / "generated"

# The shared folders are processed with `--page-timeout 0`: quire's 60 s per page is a wall-clock
# limit that a debug build on a loaded machine exceeds (every page of viewer_out did, on this
# 2-core machine shared with builds), and those folders are inputs, not tests of the timeout.

# A hang guard for one command, not a measurement: the slowest `quire process` here (OCR of
# the samples in a debug build on a loaded machine) stays well under it.
HANG_GUARD_SECONDS = 1800

# The environment added for the `tesseract` command when a test reads a page with it as the
# oracle: one OpenMP thread, as `quire` runs Tesseract (TextEngine.oneOpenMPThreadHere). The
# same hOCR; its default threads spin on the cores the other tests need (docs/benchmarks.md,
# "Test suite time", seventh look).
TESSERACT_ENV = {"OMP_THREAD_LIMIT": "1"}


# The files that take longest, longest first (CPU s in docs/benchmarks.md, "Test suite time"):
# collected first, so that under `make test`'s two xdist workers (one file each, in collection
# order) they start at once on the two workers instead of ending the run alone. The other files
# keep their order after them.
LONGEST_FILES_FIRST = ("test_install.py", "test_detect_process_agree.py", "test_ocr.py",
                       "test_viewer_search.py", "test_viewer.py", "test_viewer_reading.py")


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "install: runs `make install`, a second whole build of the package (a static "
        "debug one, nothing shared with the debug build the other tests use); `-m 'not install'` leaves it out")
    # xdist's loadfile hands files out with the most tests first unless told not to, which put the
    # two longest files (one test each) last: it keeps the collection order below instead.
    if getattr(config.option, "dist", "no") in ("loadfile", "loadscope"):
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(config, items):
    """Puts LONGEST_FILES_FIRST's tests first, in that order; the rest keep theirs (a stable sort)."""
    rank = {name: i for i, name in enumerate(LONGEST_FILES_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


def _cpu_seconds():
    """User + system CPU of this process and of the children it reaped (quire, the checkers)."""
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def _descendants_cpu_seconds():
    """User + system CPU of the processes below this one that are still running (the pooled
    Chromiums and their drivers, which no test reaps), from /proc; 0 where there is no /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    parent, cpu = {}, {}
    for pid in filter(str.isdigit, os.listdir("/proc") if os.path.isdir("/proc") else []):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent[int(pid)] = int(fields[1])
        cpu[int(pid)] = sum(int(x) for x in fields[11:15]) / tick  # utime stime cutime cstime

    def below_me(pid):
        while pid > 1:
            pid = parent.get(pid, 0)
            if pid == os.getpid():
                return True
        return False
    return sum(c for pid, c in cpu.items() if below_me(pid))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """With QUIRE_TEST_CPU=FILE, appends one line per test to FILE: test id, CPU seconds (this
    process and its reaped children: Chromium only partly) and wall seconds, set-up (shared
    folders included, on the first test that asks) to teardown. For `make test`'s timing on a
    machine shared with other builds, where wall time alone says little (docs/benchmarks.md)."""
    log = os.environ.get("QUIRE_TEST_CPU")
    if not log:
        yield
        return
    import time
    cpu, wall = _cpu_seconds(), time.monotonic()
    yield
    with open(log, "a") as f:
        f.write(f"{item.nodeid}\t{_cpu_seconds() - cpu:.2f}\t{time.monotonic() - wall:.2f}\n")


def run(*args, timeout=HANG_GUARD_SECONDS, env=None, **kw):
    """Runs a command (quire or a checker) to its end with its output captured as text.
    Arguments may be given one by one or as one list; each is turned into a string; `env`
    adds to the environment."""
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = tuple(args[0])
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **env} if env else None, **kw)


# Chromium takes 1.8 s of CPU to start (7 s of wall time on a loaded 2-core machine) and the
# browser tests ask for one 59 times, so each pytest process keeps the ones it started and
# hands them out again, reset (see `_reset`), instead of starting a new one per test.
_IDLE_BROWSERS = []
_ALL_BROWSERS = []
# WebDriver's own default script timeout; a test may raise it (axe-core) and the reset puts it back.
_SCRIPT_TIMEOUT_SECONDS = 30


def _start_chromium(width, height):
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if not browser or not driver_path:
        pytest.skip("chromium/chromedriver not installed (Debian packages chromium, chromium-driver; `make deps`)")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={width},{height}",
              "--hide-scrollbars", "--force-device-scale-factor=1", "--disable-dev-shm-usage"]:
        options.add_argument(a)
    try:
        d = webdriver.Chrome(service=Service(driver_path), options=options)
    except Exception as error:  # the browser exists but cannot start here
        pytest.skip(f"headless chromium cannot start: {error}")
    real_get, real_quit = d.get, d.quit
    d._quire_origins = set()

    def get(url):
        """Navigates, remembering the origin so that the reset can clear what it stored."""
        if url.startswith(("http://", "https://")):
            d._quire_origins.add("/".join(url.split("/", 3)[:3]))
        return real_get(url)

    def give_back():
        """What a test calls `quit`: the browser goes back to the pool (it is reset when taken)."""
        if d not in _IDLE_BROWSERS:
            _IDLE_BROWSERS.append(d)
    d.get, d.quit, d._quire_really_quit = get, give_back, real_quit
    _ALL_BROWSERS.append(d)
    return d


def _reset(d, width, height):
    """Makes a used browser as a new one is for what the tests can see: a blank page in one
    window of `width` x `height`, no device, touch or media emulation, no stored data
    (localStorage of file:// pages and of the served origins it visited), default downloads
    and script timeout."""
    for handle in d.window_handles[1:]:
        d.switch_to.window(handle)
        d.close()
    d.switch_to.window(d.window_handles[0])
    d.get("about:blank")
    for origin in ["file://", *sorted(d._quire_origins)]:
        d.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
    d._quire_origins.clear()
    d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    d.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
    d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": []})
    d.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "default"})
    d.execute_cdp_cmd("Network.clearBrowserCache", {})
    d.set_script_timeout(_SCRIPT_TIMEOUT_SECONDS)
    d.set_window_size(width, height)
    size = d.execute_script("return [outerWidth, outerHeight]")
    assert size == [width, height], size


def chromium(width=800, height=900):
    """Headless Chromium under Selenium, `width` x `height` CSS pixels at scale 1, as new (a
    pooled one, reset), or a clear skip naming what is missing. The caller quits it, which gives
    it back to the pool."""
    while _IDLE_BROWSERS:
        d = _IDLE_BROWSERS.pop()
        try:
            _reset(d, width, height)
            return d
        except Exception:  # a browser the last test broke: start another
            _quit_browser(d)
    return _start_chromium(width, height)


def _quit_browser(d):
    _ALL_BROWSERS.remove(d)
    try:
        d._quire_really_quit()
    except Exception:
        pass


@pytest.fixture(scope="session", autouse=True)
def _browsers_quit_at_the_end():
    """Quits the pooled browsers when the session (or an xdist worker) ends."""
    yield
    log = os.environ.get("QUIRE_TEST_CPU")
    if log:
        with open(log, "a") as f:
            f.write(f"(browsers still running at the end)\t{_descendants_cpu_seconds():.2f}\t0\n")
    _IDLE_BROWSERS.clear()
    for d in list(_ALL_BROWSERS):
        _quit_browser(d)


@pytest.fixture(scope="session")
def quire_bin() -> str:
    """Path of the `quire` binary under test (QUIRE_BIN, or the debug build)."""
    path = os.environ.get("QUIRE_BIN")
    if not path:
        out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=REPO,
                             capture_output=True, text=True, check=True).stdout.strip()
        path = os.path.join(out, "quire")
    if not os.access(path, os.X_OK):
        pytest.fail(f"quire binary not found at {path}: run `swift build --product quire`")
    return path


def _made_once(tmp_path_factory, name, make) -> Path:
    """A folder `make(folder)` fills, made once per run. Under pytest-xdist each worker is a
    session of its own: the first worker to ask makes it under the run's common temporary folder
    (holding a lock), the others wait for it and share it, so two workers do not pay twice for
    the same `quire process`. Tests only read it; one that changes it works on a copy."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        folder = tmp_path_factory.mktemp(name)
        make(folder)
        return folder
    root = tmp_path_factory.getbasetemp().parent
    folder, done = root / name, root / f"{name}.done"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            make(folder)
            done.touch()
    return folder


@pytest.fixture(scope="session")
def processed_out(quire_bin, tmp_path_factory) -> Path:
    """A finished OUT folder: `quire process` over the generated test pages (Tests/Fixtures/generated)."""
    def make(out):
        inputs = sorted(str(p) for p in SAMPLES.glob("*.jpg"))
        done = subprocess.run([quire_bin, "process", *inputs, "-o", str(out), "--page-timeout", "0"],
                              capture_output=True, text=True)
        assert done.returncode in (0, 1), done.stderr
        assert (out / "layout.json").exists()
    return _made_once(tmp_path_factory, "samples-out", make)


def which_or_skip(tool: str, package: str) -> str:
    """The path of a command-line tool, or a clear skip naming the Debian package."""
    path = shutil.which(tool)
    if not path:
        pytest.skip(f"{tool} not installed (Debian package {package}; `make deps` installs it)")
    return path


@pytest.fixture(scope="session")
def viewer_out(quire_bin, tmp_path_factory) -> Path:
    """21 pages: the samples' top-level JPEGs copied three times, processed with the viewer
    (test_viewer and test_viewer_reading read it; each made its own before). Read only: a test
    that rewrites or serves it takes `viewer_copy`."""
    def make(out):
        inputs = out.parent / f"{out.name}-in"
        shutil.rmtree(inputs, ignore_errors=True)
        inputs.mkdir()
        n = 0
        for copy in range(3):
            for src in sorted(SAMPLES.glob("*.jpg")):
                n += 1
                shutil.copy(src, inputs / f"{n:03d}_{src.name}")
        done = run(quire_bin, "process", inputs, "-o", out, "-q", "--page-timeout", 0)
        assert done.returncode == 0, done.stderr
        for name in ["index.html", "layout.js", "quire-viewer/viewer.js", "quire-viewer/layouts/strip.js"]:
            assert (out / name).exists(), name
    return _made_once(tmp_path_factory, "viewer-out", make)


@pytest.fixture()
def viewer_copy(viewer_out, tmp_path) -> Path:
    """A copy of `viewer_out` (same folder name) for a test that rewrites its viewer (`quire
    view`, `--serve`) or moves its files: the shared one stays as made for the others."""
    out = tmp_path / "copy" / viewer_out.name
    shutil.copytree(viewer_out, out, symlinks=True)
    return out


class Engine:
    """`quire layout --lines`, kept open (the cached service an app would use)."""

    def __init__(self, quire_bin):
        self.p = subprocess.Popen([quire_bin, "layout", "--lines"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, request):
        self.p.stdin.write(json.dumps(request) + "\n")
        self.p.stdin.flush()
        answer = json.loads(self.p.stdout.readline())
        assert "error" not in answer, answer
        return answer

    def close(self):
        self.p.stdin.close()
        self.p.wait()


@pytest.fixture(scope="session")
def engine(quire_bin):
    """One `quire layout --lines` for the session's geometry questions."""
    e = Engine(quire_bin)
    yield e
    e.close()
