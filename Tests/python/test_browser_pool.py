"""conftest's `chromium()` hands out a browser an earlier test used (starting one costs seconds
of CPU): what that test changed must be gone, so the next test sees a new browser's state."""
from conftest import chromium


def test_a_pooled_browser_is_as_a_new_one(tmp_path):
    page = tmp_path / "page.html"
    page.write_text("<!doctype html><title>pool</title><p>pool</p>")
    d = chromium()
    try:
        d.get(page.as_uri())
        fresh = d.execute_script("return [innerWidth, innerHeight]")
        d.execute_script("localStorage.setItem('quire-pool', 'kept'); sessionStorage.setItem('quire-pool', 'kept')")
        d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
        d.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
        d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
        d.set_script_timeout(60)
        d.set_window_size(640, 700)
        d.switch_to.new_window("tab")
        d.get(page.as_uri())
    finally:
        d.quit()
    again = chromium()
    try:
        assert again is d, "the browser was not reused"
        assert again.current_url == "about:blank" and len(again.window_handles) == 1
        again.get(page.as_uri())
        assert again.execute_script("return [innerWidth, innerHeight]") == fresh
        assert again.execute_script("return [devicePixelRatio, navigator.maxTouchPoints,"
                                    " matchMedia('(prefers-reduced-motion: reduce)').matches]") == [1, 0, False]
        assert again.execute_script("return [localStorage.getItem('quire-pool'), sessionStorage.getItem('quire-pool')]") == [None, None]
        assert again.timeouts.script == 30
    finally:
        again.quit()
    wide = chromium(1280, 800)
    try:
        wide.get(page.as_uri())
        assert wide.execute_script("return [outerWidth, outerHeight, innerWidth]") == [1280, 800, 1280]
    finally:
        wide.quit()
