"""A real headless Chromium for the browser tests: Debian's ``chromium`` driven by Selenium through Debian's
``chromium-driver`` (``tools/dev.py test`` installs both when missing), with nothing downloaded.

``Browser`` wraps one session: opening pages, waiting, clicking and typing as a person would, screenshots
(``out/screenshots/``), axe-core's accessibility check (``axe.min.js`` of the npm package pinned in
``tests/web/axe/``, which ``tools/dev.py`` installs with ``npm ci``), the two sizes the layout is checked at (a
phone by Chromium's mobile emulation, and a wide window; the one session switches between them) and the frames
the page received (``window.knockFrames``), validated against the protocol's schema.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

os.environ["SE_OFFLINE"] = "1"  # Selenium Manager must never try to fetch a driver or a browser

from jsonschema import Draft202012Validator
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webelement import WebElement

from knock.web.protocol import schema

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = (
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic", "--window-size=1280,1100",
)  # fmt: skip
SCREENSHOTS = Path(__file__).resolve().parents[2] / "out" / "screenshots"
AXE = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
#: The sizes the layout is checked at: (name, width, height, mobile emulation).
PHONE = ("phone", 390, 844, True)
SMALL_PHONE = ("small-phone", 360, 640, True)
WIDE = ("wide", 1366, 768, False)  #: the commonest laptop screen
_SCHEMA = schema()
SERVER_MESSAGE = Draft202012Validator(
    {**{k: v for k, v in _SCHEMA.items() if k != "anyOf"}, "$ref": "#/$defs/server_message"}
)
#: axe-core impacts that fail a page.
BLOCKING = ("serious", "critical")

T = TypeVar("T")


class Browser:
    """One Chromium session (see the module's docstring)."""

    def __init__(self) -> None:
        for path in (CHROMIUM, CHROMEDRIVER):
            assert Path(path).exists(), f"{path} is missing: python3 tools/dev.py test installs chromium"
        self.profile = tempfile.mkdtemp(prefix="knock-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in (*FLAGS, f"--user-data-dir={self.profile}"):
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        self.driver.set_script_timeout(30)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.size: tuple[str, int, int, bool] | None = None  # set by ``resize``; None: the window as launched

    def quit(self) -> None:
        self.driver.quit()
        shutil.rmtree(self.profile, ignore_errors=True)

    # --- pages -------------------------------------------------------------------------------------

    def open(self, url: str) -> None:
        self.driver.get(url)

    def wait(self, what: Callable[[], T], timeout: float = 15.0, message: str = "") -> T:
        """Poll ``what`` until it returns something true; fails the test after ``timeout`` seconds."""
        end = time.monotonic() + timeout
        while True:
            got: T | None
            try:
                got = what()
            except (StaleElementReferenceException, WebDriverException):
                got = None
            if got:
                return got
            if time.monotonic() > end:
                self.shot("timeout")
                raise AssertionError(f"timed out waiting for {message or what}")
            time.sleep(0.03)

    def click(self, css: str, timeout: float = 15.0, message: str = "") -> None:
        """Click the first element ``css`` finds, found again should the page redraw it between the finding and
        the click (a stale element: the page re-renders on its own timers)."""

        def clicked() -> bool:
            found = self.find(css)
            if found:
                found[0].click()
            return bool(found)

        self.wait(clicked, timeout, message or css)

    def find(self, css: str) -> list[WebElement]:
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def one(self, css: str, timeout: float = 15.0) -> WebElement:
        found: list[WebElement] = self.wait(lambda: self.find(css), timeout, css)
        return found[0]

    def text(self, css: str) -> str:
        return " ".join(e.text for e in self.find(css))

    def js(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(script, *args)

    def resize(self, size: tuple[str, int, int, bool]) -> None:
        """Show pages at ``size`` (``PHONE`` or ``WIDE``) in this same session: a phone by Chromium's mobile
        emulation (its width, height, a device pixel ratio of 2 and touch), a wide screen as a window that size."""
        _, width, height, mobile = size
        if mobile:
            self._metrics(width, height)
        else:
            self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
            self.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
            outer = (width, height)
            for _ in range(5):  # the viewport, not the window's frame, is to be that size
                self.driver.set_window_size(*outer)
                inner: list[int] = self.wait(self._settled, message="the window's new size")
                if inner == [width, height]:
                    break
                outer = (outer[0] + width - inner[0], outer[1] + height - inner[1])
        self.size = size

    def _settled(self) -> list[int]:
        """The viewport's size once two looks a frame apart agree (a resize is applied asynchronously), else []."""
        inner: list[int] = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1]; const a = [innerWidth, innerHeight];"
            "const same = () => a[0] === innerWidth && a[1] === innerHeight;"
            "requestAnimationFrame(() => requestAnimationFrame(() => done(same() ? a : [])));"
        )
        return inner

    def _metrics(self, width: int, height: int) -> None:
        metrics = {"width": width, "height": height, "deviceScaleFactor": 2, "mobile": True}
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
        self.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})

    def shot(self, name: str) -> Path:
        """A screenshot of the whole page (the window, or the emulated screen, grown to the page's height)."""
        path = SCREENSHOTS / f"{name}.png"
        if self.size is not None and self.size[3]:
            _, width, height, _ = self.size
            tall = self.js("return document.documentElement.scrollHeight")
            self._metrics(width, min(max(int(tall), height), 4000))
            self.driver.save_screenshot(str(path))
            self._metrics(width, height)
            return path
        size = self.driver.get_window_size()
        height = self.js("return document.documentElement.scrollHeight")
        self.driver.set_window_size(size["width"], min(max(int(height) + 140, size["height"]), 4000))
        self.driver.save_screenshot(str(path))
        self.driver.set_window_size(size["width"], size["height"])
        return path

    def screen(self, name: str) -> Path:
        """A screenshot of what the screen shows now (the viewport, where the page is scrolled to)."""
        path = SCREENSHOTS / f"{name}.png"
        self.driver.save_screenshot(str(path))
        return path

    def errors(self) -> list[str]:
        """The page's console errors since the last call."""
        entries: list[dict[str, Any]] = self.driver.get_log("browser")  # type: ignore[no-untyped-call]
        return [e["message"] for e in entries if e["level"] == "SEVERE"]

    # --- a person at the keyboard --------------------------------------------------------------------

    def focused(self) -> WebElement:
        return self.driver.switch_to.active_element

    def tab_to(self, wanted: Callable[[WebElement], bool], limit: int = 80) -> WebElement:
        """Press Tab until the focused element is ``wanted`` (a keyboard user looking for a control)."""
        for _ in range(limit):
            self.focused().send_keys(Keys.TAB)
            el = self.focused()
            if wanted(el):
                return el
        raise AssertionError("no such control reachable with Tab")

    def press(self, key: str) -> None:
        self.focused().send_keys(key)

    # --- checks ----------------------------------------------------------------------------------------

    def axe(self, page: str) -> dict[str, Any]:
        """axe-core over the page: no serious or critical violation."""
        assert AXE.exists(), f"{AXE} is missing: python3 tools/dev.py setup installs it (npm ci)"
        if not self.js("return typeof window.axe === 'object'"):
            self.js(AXE.read_text(encoding="utf-8"))
        results: dict[str, Any] = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document, {resultTypes: ['violations']})"
            ".then(done, (e) => done({violations: [], error: String(e)}));"
        )
        assert "error" not in results, f"{page}: axe-core failed: {results.get('error')}"
        bad = [v for v in results["violations"] if v.get("impact") in BLOCKING]
        report = "; ".join(f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
                           for v in bad)  # fmt: skip
        assert not bad, f"{page}: axe-core finds {report}"
        return results

    def frames(self) -> list[dict[str, Any]]:
        """Every frame the page received, each checked against the protocol's schema (PROTO-1)."""
        frames: list[dict[str, Any]] = self.js("return window.knockFrames || []")
        for f in frames:
            errors = sorted(SERVER_MESSAGE.iter_errors(f), key=str)
            assert not errors, f"a {f.get('type')} frame is not valid: {errors[0].message} at {list(errors[0].path)}"
        return frames
