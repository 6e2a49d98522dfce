#!/usr/bin/env python3
"""Opens locwire's HTML outputs in headless Chromium and checks them as a person would see them.

Drives Chromium over the DevTools protocol (a small client on websocket-client) so that it sees what the page
does, not only what it looks like:
  - every JavaScript exception, console.error/console.assert and browser log error fails the page;
  - any request that leaves the page (not file:, data: or about:) fails it: the pages must be self-contained;
  - the screenshot must not be blank (enough pixels and colours other than the background);
  - at the pixels where fixes are drawn (read from the DOM, and for `locwire render` also from its
    --debug-projection file, which must agree with the DOM) the screenshot must show the track's colour;
  - the page's script must work: a wheel event zooms the map, and hovering a fix shows its details.

  browser-check.py page FILE.html [--projection FILE.json] [--screenshot OUT.png] [--min-maps N]
  browser-check.py self-check GOOD.html PROJECTION.json   (broken variants of a good page must each fail)

Exit status 0 when every check passes, 1 when one fails, 2 on usage or when Chromium cannot start.
"""

import argparse
import base64
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

import websocket
from PIL import Image

BACKGROUND = (0xFB, 0xFB, 0xF8)
# A fix dot is 6 px across and opaque; its centre pixel is its colour exactly, give or take antialiasing at
# subpixel positions, so look in a 3x3 neighbourhood with a small tolerance.
COLOR_TOLERANCE = 10
MIN_FIXES_MATCHED = 0.97
# Event markers and region labels lie on top of some fixes (a vector's picture draws each event twice, expected and
# actual); those are not looked at, but most must be visible.
MAX_FIXES_COVERED = 0.4


class PageFailure(Exception):
    pass


class Browser:
    """One headless Chromium with a DevTools websocket to its first tab."""

    def __init__(self, chromium, width, height):
        self.profile = tempfile.mkdtemp(prefix="locwire-chromium-")
        self.process = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--force-device-scale-factor=1", "--remote-debugging-port=0", "--no-first-run",
             "--disable-extensions", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--user-data-dir=" + self.profile, f"--window-size={width},{height}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.time() + 30
        while not (os.path.exists(port_file) and open(port_file).read().strip()):
            if self.process.poll() is not None or time.time() > deadline:
                self.close()
                raise SystemExit(f"browser-check: {chromium} did not start (no DevToolsActivePort)")
            time.sleep(0.1)
        port = int(open(port_file).read().split()[0])
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10))
        page = next(t for t in targets if t.get("type") == "page")
        # No Origin header: Chromium refuses DevTools websockets from origins it was not told to allow.
        self.socket = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=30, suppress_origin=True)
        self.next_id = 0
        self.events = []

    def call(self, method, **params):
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise PageFailure(f"{method}: {message['error']}")
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)

    def wait_for(self, method, seconds):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if any(e["method"] == method for e in self.events):
                return True
            self.socket.settimeout(max(deadline - time.time(), 0.05))
            try:
                message = json.loads(self.socket.recv())
            except websocket.WebSocketTimeoutException:
                break
            finally:
                self.socket.settimeout(30)
            if "method" in message:
                self.events.append(message)
        return any(e["method"] == method for e in self.events)

    def drain(self, seconds):
        """Collects events for a while: errors a page raises just after load."""
        self.wait_for("never.happens", seconds)

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise PageFailure(f"evaluating {expression[:60]}...: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def close(self):
        try:
            self.socket.close()
        except Exception:
            pass
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def page_problems(events):
    """Console errors, exceptions and outside requests among the DevTools events."""
    problems = []
    for event in events:
        method, params = event["method"], event.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            problems.append(f"JavaScript exception: {text}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
            problems.append(f"console.{params['type']}: {text}")
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            problems.append(f"browser log error: {params['entry'].get('text')} {params['entry'].get('url', '')}")
        elif method == "Network.requestWillBeSent":
            url = params["request"]["url"]
            if not url.startswith(("file:", "data:", "about:")):
                problems.append(f"request outside the page: {url}")
    return problems


# Each fix's centre on the page, its colour, and the colour the page should show there: the fix's own, or that
# of a neighbouring fix or track line drawn over it; null when something else (an event marker, a label) covers it.
FIXES_JS = """
Array.from(document.querySelectorAll('circle.fix')).map(function (dot) {
  var box = dot.getBoundingClientRect();
  var x = box.left + box.width / 2, y = box.top + box.height / 2;
  var top = document.elementFromPoint(x, y);
  var shown = null;
  if (top && top.matches('circle.fix')) { shown = top.getAttribute('fill'); }
  else if (top && top.matches('g.track polyline')) { shown = top.getAttribute('stroke'); }
  return {x: x + window.scrollX, y: y + window.scrollY, color: dot.getAttribute('fill'), shown: shown,
          index: Number(dot.getAttribute('data-index'))};
})
"""


def hex_color(text):
    text = text.lstrip("#")
    return tuple(int(text[i:i + 2], 16) for i in (0, 2, 4))


def near(pixel, color):
    return max(abs(pixel[i] - color[i]) for i in range(3)) <= COLOR_TOLERANCE


def check_pixels(image, fixes):
    """The share of fixes covered by something other than the track, and the share of the others whose colour
    (as the DOM says it is shown there) is at, or one pixel next to, where they were drawn."""
    pixels = image.load()
    visible = [fix for fix in fixes if fix["shown"]]
    matched = 0
    for fix in visible:
        color = hex_color(fix["shown"])
        x, y = round(fix["x"]), round(fix["y"])
        if any(0 <= x + dx < image.width and 0 <= y + dy < image.height and near(pixels[x + dx, y + dy], color)
               for dx in (-1, 0, 1) for dy in (-1, 0, 1)):
            matched += 1
    covered = 1 - len(visible) / len(fixes) if fixes else 1.0
    return covered, (matched / len(visible) if visible else 0.0)


def check_not_blank(image):
    small = image.convert("RGB")
    colors = small.getcolors(maxcolors=1 << 20) or []
    other = sum(count for count, color in colors if max(abs(color[i] - BACKGROUND[i]) for i in range(3)) > 8)
    share = other / (image.width * image.height)
    if len(colors) < 8 or share < 0.01:
        raise PageFailure(f"the screenshot is blank: {len(colors)} colours, {share:.2%} of pixels not background")
    return len(colors), share


def check_page(chromium, path, projection=None, screenshot=None, min_maps=1, width=1000, height=700,
               max_covered=MAX_FIXES_COVERED):
    """Opens one page and runs every check; raises PageFailure with the first reason, returns a summary."""
    browser = Browser(chromium, width, height)
    try:
        for domain in ("Runtime", "Log", "Page", "Network"):
            browser.call(domain + ".enable")
        browser.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1,
                     mobile=False)
        browser.call("Page.navigate", url="file://" + os.path.abspath(path))
        if not browser.wait_for("Page.loadEventFired", 30):
            raise PageFailure("the page did not finish loading in 30 s")
        browser.drain(0.5)
        # The whole page in one screenshot: a viewport as tall as the document.
        full_height = min(int(browser.evaluate("document.documentElement.scrollHeight")), 30000)
        if full_height > height:
            browser.call("Emulation.setDeviceMetricsOverride", width=width, height=full_height,
                         deviceScaleFactor=1, mobile=False)
            browser.drain(0.3)
        maps = browser.evaluate("document.querySelectorAll('svg.locwire-map').length")
        if maps < min_maps:
            raise PageFailure(f"{maps} maps on the page, expected at least {min_maps}")
        fixes = browser.evaluate(FIXES_JS)
        if not fixes:
            raise PageFailure("no fixes (circle.fix) on the page")
        # A page taller than the screenshot's limit is checked down to that limit.
        fixes = [fix for fix in fixes if fix["y"] < full_height - 2]
        if not fixes:
            raise PageFailure(f"no fixes in the first {full_height} pixels of the page")
        if projection:
            claimed = json.load(open(projection))["fixes"]
            if len(claimed) != len(fixes):
                raise PageFailure(f"--debug-projection lists {len(claimed)} fixes, the page draws {len(fixes)}")
            worst = max(abs(a["x"] - b["x"]) + abs(a["y"] - b["y"]) for a, b in zip(claimed, fixes))
            if worst > 1.0:
                raise PageFailure(f"the debug projection and the page disagree by up to {worst:.1f} px")
            for fix, place in zip(fixes, claimed):
                if fix["color"] != place["color"]:
                    raise PageFailure(f"fix {place['index']}: the debug projection says {place['color']}, "
                                      f"the page draws {fix['color']}")
        shot = browser.call("Page.captureScreenshot", format="png")
        image = Image.open(io.BytesIO(base64.b64decode(shot["data"]))).convert("RGB")
        if screenshot:
            image.save(screenshot)
        colors, share = check_not_blank(image)
        covered, matched = check_pixels(image, fixes)
        if covered > max_covered or matched < MIN_FIXES_MATCHED:
            raise PageFailure(
                f"the track's colour is missing: {covered:.0%} of the {len(fixes)} fixes are not visible (covered or "
                f"not drawn; at most {max_covered:.0%} may be), and the colour is at {matched:.0%} of the "
                f"visible ones' pixels (at least {MIN_FIXES_MATCHED:.0%} expected)")
        # The script works: a wheel over the first map zooms it, hovering a fix shows its details.
        first = fixes[0]
        browser.call("Input.dispatchMouseEvent", type="mouseWheel", x=first["x"], y=first["y"], deltaX=0,
                     deltaY=-120)
        browser.drain(0.3)
        transform = browser.evaluate(
            "(document.querySelector('svg.locwire-map g.viewport').getAttribute('transform') || '')")
        if "scale(1.25)" not in transform:
            raise PageFailure(f"a wheel event did not zoom the map (viewport transform '{transform}')")
        browser.evaluate("document.querySelector('button[data-zoom=reset]').click()")
        # Hover a fix that nothing (an event marker) lies on top of.
        visible = browser.evaluate(
            "(function(){var dots=document.querySelectorAll('circle.fix');for(var i=0;i<dots.length;i++){"
            "var b=dots[i].getBoundingClientRect(),x=b.left+b.width/2,y=b.top+b.height/2;"
            "if(document.elementFromPoint(x,y)===dots[i]){return {x:x,y:y};}}return null;})()")
        if not visible:
            raise PageFailure("every fix is covered by something else")
        browser.call("Input.dispatchMouseEvent", type="mouseMoved", x=visible["x"], y=visible["y"])
        browser.drain(0.3)
        tip = browser.evaluate(
            "(function(){var t=document.getElementById('locwire-tip');"
            "return t.style.display === 'block' ? t.textContent : '';})()")
        if "fix " not in (tip or ""):
            raise PageFailure(f"hovering a fix shows no details (tooltip '{tip}')")
        problems = page_problems(browser.events)
        if problems:
            raise PageFailure("; ".join(problems[:5]))
        return (f"{maps} map(s), {len(fixes)} fixes ({covered:.0%} under markers), track colour at {matched:.0%} "
                f"of the others, "
                f"{colors} colours, {share:.0%} drawn, no console errors, no outside requests")
    finally:
        browser.close()


def self_check(chromium, good, projection):
    """Each broken variant of a good page must fail for its own reason, and the good page must pass: a checker
    that passes everything proves nothing."""
    text = open(good, encoding="utf-8").read()
    variants = {
        "a JavaScript error": (text.replace("</body>", "<script>notDefinedAnywhere();</script></body>"),
                               "JavaScript exception"),
        "console.error": (text.replace("</body>", "<script>console.error('broken');</script></body>"),
                          "console.error"),
        "a resource from the network": (
            text.replace("</body>", "<img src=\"http://127.0.0.1:9/tile.png\" alt=\"\"></body>"),
            "request outside the page"),
        "a track that is not drawn": (text.replace("</style>", ".track,.fixes{visibility:hidden}</style>"),
                                      "track's colour"),
        "the track in the wrong colour": (
            text.replace("</style>", ".fixes circle{fill:#ff00ff !important}</style>"), "track's colour"),
        "the track in the wrong place": (
            text.replace("</style>", "g.viewport{transform:translate(40px,0)}</style>"), "disagree"),
        "a blank page": ("<!DOCTYPE html><html><body style=\"background:#fbfbf8;margin:0\"><svg class=\"locwire-map\">"
                         "<g class=\"viewport\"><circle class=\"fix\" cx=\"5\" cy=\"5\" r=\"0\" fill=\"#2c7bb6\"/>"
                         "</g></svg></body></html>", "blank"),
    }
    failures = 0
    directory = tempfile.mkdtemp(prefix="locwire-browser-self-check-")
    try:
        try:
            summary = check_page(chromium, good, projection=projection)
        except PageFailure as failure:
            print(f"self-check FAILED: the good page fails: {failure}")
            return False
        print(f"self-check: the good page passes ({summary})")
        for name, (html, reason) in variants.items():
            path = os.path.join(directory, name.replace(" ", "-") + ".html")
            open(path, "w", encoding="utf-8").write(html)
            try:
                check_page(chromium, path, projection=None if name == "a blank page" else projection)
                print(f"self-check FAILED: a page with {name} passed")
                failures += 1
            except PageFailure as failure:
                if reason not in str(failure):
                    print(f"self-check FAILED: a page with {name} failed for another reason: {failure}")
                    failures += 1
                else:
                    print(f"self-check: a page with {name} fails: {failure}")
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    return failures == 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chromium", default=os.environ.get("CHROMIUM", "chromium"))
    commands = parser.add_subparsers(dest="command", required=True)
    page = commands.add_parser("page")
    page.add_argument("html")
    page.add_argument("--projection")
    page.add_argument("--screenshot")
    page.add_argument("--min-maps", type=int, default=1)
    page.add_argument("--max-covered", type=float, default=MAX_FIXES_COVERED,
                      help="the share of fixes that markers may cover (default %(default)s)")
    page.add_argument("--width", type=int, default=1000)
    page.add_argument("--height", type=int, default=700)
    check = commands.add_parser("self-check")
    check.add_argument("good")
    check.add_argument("projection")
    arguments = parser.parse_args()
    if shutil.which(arguments.chromium) is None:
        print(f"browser-check: {arguments.chromium} not found (apt-get install chromium)", file=sys.stderr)
        return 2
    if arguments.command == "self-check":
        return 0 if self_check(arguments.chromium, arguments.good, arguments.projection) else 1
    try:
        summary = check_page(arguments.chromium, arguments.html, arguments.projection, arguments.screenshot,
                             arguments.min_maps, arguments.width, arguments.height, arguments.max_covered)
    except PageFailure as failure:
        print(f"FAIL {arguments.html}: {failure}")
        return 1
    print(f"ok {arguments.html}: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
