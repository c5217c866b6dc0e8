"""Drive the explorer's page in headless Chromium over the DevTools protocol and print what a
test checks, as JSON: console errors, the per-generator numbers (data-algo / data-pass /
data-total), the histograms and gallery drawn, the filter after a scripted brush, the filter
Back restores after another one, the state restored from ?accept=, the gallery's maze
identifiers (three levels per generator and size, in page order), the header, a picked gallery
maze (the first masked one, else the first) as the page drew it and the row panel it opens, the
mask files offered beside the printed commands, the printed commands, a screenshot written to a
file and one at 1280x800 (SCREENSHOT with -1280 before .png) with what its first screen shows.

With a fourth argument `edge:COLUMN` it only brushes COLUMN's histogram from its middle to the
last bar and reports the filter, the numbers, the brush's label and the near misses.

usage: page.py CHROMIUM BASE_URL SCREENSHOT_PNG [edge:COLUMN]
"""
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

import websocket

chromium, base, shot = sys.argv[1], sys.argv[2].rstrip("/"), sys.argv[3]
mode = sys.argv[4] if len(sys.argv) > 4 else ""
profile = tempfile.mkdtemp(prefix="explore-chromium-")
proc = subprocess.Popen(
    [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
     "--no-first-run", "--disable-background-networking", "--disable-component-update",
     "--disable-sync", "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
     "--window-size=1400,1800", f"--user-data-dir={profile}", "about:blank"],
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


class Page:
    def __init__(self, ws_url):
        self.ws = websocket.create_connection(ws_url, timeout=60, suppress_origin=True)
        self.next = 0
        self.errors = []

    def event(self, msg):
        m, p = msg.get("method"), msg.get("params", {})
        if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            self.errors.append(" ".join(str(a.get("value", a.get("description", "")))
                                        for a in p.get("args", [])))
        elif m == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            self.errors.append(d.get("exception", {}).get("description", d.get("text", "")))
        elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            self.errors.append(p["entry"].get("text", "") + " " + p["entry"].get("url", ""))

    def call(self, method, **params):
        self.next += 1
        me = self.next
        self.ws.send(json.dumps({"id": me, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == me:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            self.event(msg)

    def js(self, expr):
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expr}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def wait(self, expr, timeout=30):
        end = time.time() + timeout
        while time.time() < end:
            if self.js(expr):
                return True
            time.sleep(0.1)
        raise RuntimeError(f"timed out waiting for {expr}")

    def settle(self):
        """Wait until the page is ready, every request answered and the gallery drawn."""
        self.wait("!!document.body && document.body.dataset.ready === '1'")
        self.wait("[...document.querySelectorAll('#gallery img')].length > 0 && "
                  "[...document.querySelectorAll('#gallery img, #near img')]"
                  ".every(i => i.complete && i.naturalWidth > 0)")
        time.sleep(0.3)

    def open(self, url):
        self.call("Page.navigate", url=url)
        self.settle()


def drag(page, column, start, end):
    """Drag over COLUMN's histogram from fraction START to fraction END of its width."""
    box = page.js(f"(() => {{ const r = document.querySelector('.hist[data-column={column}] svg')"
                  ".getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()")
    x0, y0 = box[0] + box[2] * start, box[1] + box[3] * 0.5
    x1 = box[0] + box[2] * end
    page.call("Input.dispatchMouseEvent", type="mouseMoved", x=x0, y=y0)
    page.call("Input.dispatchMouseEvent", type="mousePressed", x=x0, y=y0, button="left",
              clickCount=1, buttons=1)
    for k in range(1, 6):
        page.call("Input.dispatchMouseEvent", type="mouseMoved", x=x0 + (x1 - x0) * k / 5, y=y0,
                  button="left", buttons=1)
    page.call("Input.dispatchMouseEvent", type="mouseReleased", x=x1, y=y0, button="left",
              clickCount=1, buttons=0)


PAIRS = ("[...document.querySelectorAll('#gallery figure')].map(f => "
         "[f.dataset.algo, f.dataset.size, Number(f.dataset.index)])")

COUNTS = ("[...document.querySelectorAll('[data-algo][data-pass]')].map(e => "
          "({algo: e.dataset.algo, size: e.dataset.size, pass: Number(e.dataset.pass), "
          "total: Number(e.dataset.total)}))")

try:
    port_file = os.path.join(profile, "DevToolsActivePort")
    end = time.time() + 60
    while not (os.path.exists(port_file) and open(port_file).read().strip()):
        if time.time() > end or proc.poll() is not None:
            raise RuntimeError("chromium did not start its DevTools server")
        time.sleep(0.1)
    port = int(open(port_file).read().split()[0])
    targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
    page = Page(next(t for t in targets if t["type"] == "page")["webSocketDebuggerUrl"])
    for d in ("Runtime.enable", "Log.enable", "Page.enable"):
        page.call(d)
    page.call("Emulation.setDeviceMetricsOverride", width=1400, height=1800,
              deviceScaleFactor=1, mobile=False)
    out = {}
    if mode.startswith("edge:"):
        column = mode.split(":", 1)[1]
        page.open(base + "/")
        drag(page, column, 0.5, 0.999)
        page.wait(f"document.getElementById('accept').value.includes('{column} ')")
        page.settle()
        out["accept"] = page.js("document.getElementById('accept').value")
        out["counts"] = page.js(COUNTS)
        out["label"] = page.js(f"document.querySelector('.hist[data-column={column}] "
                               ".brush-label').textContent")
        out["near_src"] = page.js("[...document.querySelectorAll('#near img')]"
                                  ".map(i => i.getAttribute('src'))")
        out["errors"] = [e for e in page.errors if "400 (Bad Request)" not in e]
        print(json.dumps(out))
        sys.exit(0)
    page.open(base + "/")
    out["load_errors"] = list(page.errors)
    out["initial"] = page.js(COUNTS)
    out["hist_columns"] = page.js("[...document.querySelectorAll('.hist')].map(h => h.dataset.column)")
    out["hist_bars"] = page.js("document.querySelectorAll('.hist rect.all').length")
    out["gallery"] = page.js("document.querySelectorAll('#gallery img').length")

    # A scripted brush: drag over the middle third of the dead_ends histogram.
    drag(page, "dead_ends", 0.35, 0.65)
    page.wait("document.getElementById('accept').value.includes('dead_ends BETWEEN')")
    page.settle()
    out["brushed_accept"] = page.js("document.getElementById('accept').value")
    out["brushed_url"] = page.js("location.search")
    out["brushed"] = page.js(COUNTS)

    # Another filter, then Back: the brushed filter again.
    page.js("document.getElementById('accept').value = 'dead_ends >= 30'")
    page.js("document.getElementById('apply').click()")
    page.wait("new URLSearchParams(location.search).get('accept') === 'dead_ends >= 30'")
    page.settle()
    page.js("history.back()")
    page.wait("document.getElementById('accept').value === "
              + json.dumps(out["brushed_accept"]))
    page.settle()
    out["back_accept"] = page.js("document.getElementById('accept').value")
    out["back_url"] = page.js("location.search")
    out["back"] = page.js(COUNTS)

    # A second filter typed in the box, with an error first.
    page.js("document.getElementById('accept').value = 'dead_ends >'")
    page.js("document.getElementById('apply').click()")
    page.wait("!document.getElementById('error').hidden")
    out["typed_error"] = page.js("document.getElementById('error').textContent")

    # The state restored from the URL.
    restored_url = base + "/?accept=" + urllib.parse.quote(out["brushed_accept"])
    page.open(restored_url)
    out["restored_accept"] = page.js("document.getElementById('accept').value")
    out["restored"] = page.js(COUNTS)
    out["brush_drawn"] = page.js("document.querySelectorAll('.hist rect.brush').length")
    out["gallery_src"] = page.js("[...document.querySelectorAll('#gallery img')].map(i => i.getAttribute('src'))")
    out["gallery_pairs_auto"] = page.js(PAIRS)
    # Three levels per generator and size.
    page.js("(() => { const p = document.getElementById('per'); p.value = '3';"
            " p.dispatchEvent(new Event('change')); })()")
    page.wait("document.getElementById('levels-about').textContent.startsWith('the first 3 ')")
    page.settle()
    out["gallery_pairs"] = page.js(PAIRS)
    out["levels_about"] = page.js("document.getElementById('levels-about').textContent")
    out["near_src"] = page.js("[...document.querySelectorAll('#near img')].map(i => i.getAttribute('src'))")
    # The maze picked: the first gallery maze with a mask if any has one, else the first.
    picked = ("([...document.querySelectorAll('#gallery figure')]"
              ".find(f => f.querySelector('img').getAttribute('src').includes('&mask='))"
              " || document.querySelector('#gallery figure'))")
    page.js(picked + ".click()")
    out["row_text"] = page.js("document.getElementById('row-render').textContent")
    out["row_panel"] = page.js(
        "(() => { const p = document.getElementById('row-panel'); const f = " + picked + ";"
        " const g = f.getBoundingClientRect(), r = p.getBoundingClientRect();"
        " return {hidden: p.hidden, title: document.getElementById('row-title').textContent,"
        " picked: [f.dataset.algo, f.dataset.size, Number(f.dataset.index)],"
        " beside: r.left >= g.right - 1 && r.top < g.bottom,"
        " values: Object.fromEntries([...p.querySelectorAll('#row-values tr')]"
        ".map(t => [t.dataset.column, t.querySelector('td').dataset.value]))}; })()")
    out["about"] = page.js("document.getElementById('about').textContent")
    out["picked_svg"] = page.js(
        "fetch(" + picked + ".querySelector('img').getAttribute('src')).then(r => r.text())")
    # The mask files offered beside the printed commands (null when hidden): download name
    # and the text served.
    for key, link in [("row_mask", "row-mask"), ("command_mask", "command-mask")]:
        out[key] = page.js(
            f"(() => {{ const a = document.getElementById('{link}'); return a.hidden ? null : "
            "fetch(a.href).then(r => r.text()).then(t => ({download: a.download, text: t})); })()")
    out["command"] = page.js("document.getElementById('command').textContent")
    out["levels_command"] = page.js("document.getElementById('levels-command').textContent")
    shot_png = page.call("Page.captureScreenshot", format="png")["data"]
    with open(shot, "wb") as f:
        f.write(base64.b64decode(shot_png))

    # The first screen at 1280x800: the pass table and some mazes.
    page.call("Emulation.setDeviceMetricsOverride", width=1280, height=800,
              deviceScaleFactor=1, mobile=False)
    page.open(restored_url)
    out["first_screen"] = page.js(
        "(() => { const t = document.getElementById('counts').getBoundingClientRect();"
        " const figs = [...document.querySelectorAll('#gallery figure')].filter(f => {"
        " const r = f.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight"
        " && r.right <= innerWidth; });"
        " return {width: innerWidth, height: innerHeight, table_bottom: t.bottom,"
        " table_right: t.right, mazes: figs.length}; })()")
    small = page.call("Page.captureScreenshot", format="png")["data"]
    with open(shot[:-4] + "-1280.png" if shot.endswith(".png") else shot + "-1280", "wb") as f:
        f.write(base64.b64decode(small))
    out["errors"] = [e for e in page.errors if "400 (Bad Request)" not in e]
    print(json.dumps(out))
finally:
    proc.kill()
    proc.wait()
    shutil.rmtree(profile, ignore_errors=True)
