"""A real headless Chromium for the browser tests: Debian's ``chromium`` driven by Selenium through Debian's
``chromium-driver`` (``tools/dev.py test`` installs both when missing), with nothing downloaded.

``Browser`` wraps one session: opening pages, waiting, clicking and typing as a person would, screenshots
(``out/screenshots/``), axe-core's accessibility check (the script ``axe-selenium-python`` ships) and the frames
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

from axe_selenium_python import Axe
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

    def find(self, css: str) -> list[WebElement]:
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def one(self, css: str, timeout: float = 15.0) -> WebElement:
        found: list[WebElement] = self.wait(lambda: self.find(css), timeout, css)
        return found[0]

    def text(self, css: str) -> str:
        return " ".join(e.text for e in self.find(css))

    def js(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(script, *args)

    def shot(self, name: str) -> Path:
        """A screenshot of the whole page (the window grown to the page's height for it)."""
        path = SCREENSHOTS / f"{name}.png"
        size = self.driver.get_window_size()
        height = self.js("return document.documentElement.scrollHeight")
        self.driver.set_window_size(size["width"], min(max(int(height) + 140, size["height"]), 4000))
        self.driver.save_screenshot(str(path))
        self.driver.set_window_size(size["width"], size["height"])
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
        axe = Axe(self.driver)
        axe.inject()
        results: dict[str, Any] = axe.run()
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
