"""Layout checks for the browser tests: no sideways scrolling, no controls on top of each
other or cut off at the viewport's edge, nothing covering a control; and screenshots.

Viewports are emulated through the DevTools protocol, so the page sees exactly the
CSS size asked for (a phone: touch, coarse pointer, mobile viewport)."""

from __future__ import annotations

import base64
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.web.harness import Browser

SCREENSHOTS_ENV = "GRIDHALL_SCREENSHOTS"
"""Set to a folder (``docs/screenshots``) to keep the screenshots; else they go to tmp."""


@dataclass(frozen=True)
class Viewport:
    name: str
    width: int
    height: int
    mobile: bool


PHONE = Viewport("phone", 360, 740, True)
DESKTOP = Viewport("desktop", 1280, 800, False)
VIEWPORTS = (PHONE, DESKTOP)


def emulate(browser: Browser, viewport: Viewport) -> None:
    """Make ``browser``'s page ``viewport`` (a touch phone when ``mobile``)."""
    driver = browser.driver
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {
            "width": viewport.width,
            "height": viewport.height,
            "deviceScaleFactor": 2 if viewport.mobile else 1,
            "mobile": viewport.mobile,
        },
    )
    driver.execute_cdp_cmd(
        "Emulation.setTouchEmulationEnabled",
        {"enabled": viewport.mobile, "maxTouchPoints": 5 if viewport.mobile else 1},
    )
    # (not setEmitTouchEventsForMouse: WebDriver's clicks then never return)


LAYOUT = """
const vw = document.documentElement.clientWidth;
const shown = (e) => {
  const r = e.getBoundingClientRect();
  if (r.width < 1 || r.height < 1 || e.type === 'hidden') return null;
  const style = getComputedStyle(e);
  return style.visibility === 'hidden' || style.display === 'none' ? null : r;
};
const name = (e) => e.id || e.getAttribute('name') || e.dataset.action || e.dataset.zoom
  || e.dataset.confirm || (e.getAttribute('aria-label') || e.textContent || '').trim().slice(0, 24)
  || e.tagName;
const controls = [...document.querySelectorAll('button, input, select, textarea, a[href]')]
  .map((e) => [e, shown(e)]).filter(([, r]) => r);
const cross = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1
  && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
const overlaps = [];
for (let i = 0; i < controls.length; i += 1) {
  for (let j = i + 1; j < controls.length; j += 1) {
    const [a, ra] = controls[i];
    const [b, rb] = controls[j];
    if (a.contains(b) || b.contains(a)) continue;
    if (cross(ra, rb)) overlaps.push([name(a), name(b)]);
  }
}
const outside = controls.filter(([, r]) => r.left < -0.5 || r.right > vw + 0.5)
  .map(([e, r]) => [name(e), Math.round(r.left), Math.round(r.right)]);
const covered = [];
for (const box of document.querySelectorAll('[data-notice]')) {
  const r = shown(box);
  if (!r) continue;
  for (const [e, rc] of controls) if (!box.contains(e) && cross(r, rc)) covered.push(name(e));
}
return {viewport: vw, scrollWidth: document.documentElement.scrollWidth,
        pageX: window.scrollX, overlaps, outside, covered, controls: controls.length};
"""


def check_layout(browser: Browser, viewport: Viewport, screen: str) -> dict[str, Any]:
    """Assert the page as shown now fits ``viewport``; returns the measurements."""
    got: dict[str, Any] = browser.js(LAYOUT)
    where = f"{viewport.name} {screen}"
    assert got["viewport"] == viewport.width, f"{where}: the viewport is {got['viewport']} px"
    assert got["scrollWidth"] == viewport.width, (
        f"{where}: the page scrolls sideways ({got['scrollWidth']} px wide)"
    )
    assert got["pageX"] == 0, f"{where}: the page is scrolled sideways"
    assert not got["overlaps"], f"{where}: controls overlap: {got['overlaps']}"
    assert not got["outside"], f"{where}: controls cut off at the edge: {got['outside']}"
    assert not got["covered"], f"{where}: the notice covers {got['covered']}"
    assert got["controls"] > 0, f"{where}: no control on the screen"
    return got


def screenshot_dir(tmp: Path) -> Path:
    target = os.environ.get(SCREENSHOTS_ENV)
    return Path(target) if target else tmp


def full_screenshot(browser: Browser, path: Path) -> None:
    """The whole page, below the fold too (a phone's room screen is long)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    shot = browser.driver.execute_cdp_cmd(
        "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True}
    )
    path.write_bytes(base64.b64decode(shot["data"]))
