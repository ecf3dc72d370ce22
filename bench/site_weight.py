"""What each page of the website weighs, as a reader's browser loads it from a static host.

    python3 bench/site_weight.py [SITE ...]          # default: output/site

Each SITE folder is served as the web root on 127.0.0.1 by a small server that compresses
text with gzip when the browser asks (as GitHub Pages and other static hosts do), and every
page is loaded in Debian's Chromium (Playwright, `/usr/bin/chromium`) with a cold cache.
Per page: the requests, the bytes on the wire (gzip'd text, fonts and images as they are)
and the same without images (cards, icons; the issue's target is under 300 KB a game page
before images), and the time to the load event on Chromium's simulated "Fast 3G" link
(562.5 ms latency, 1.44 Mbit/s down), the median of three. Give two folders (say main's
output/site and this one's) to compare them side by side.
"""

from __future__ import annotations

import functools
import gzip
import http.server
import statistics
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
TEXT = (".html", ".css", ".js", ".svg", ".xml", ".txt", ".json")
FAST_3G = {"offline": False, "latency": 562.5, "downloadThroughput": 1.44e6 / 8 * 0.9,
           "uploadThroughput": 675e3 / 8 * 0.9}


class Host(http.server.SimpleHTTPRequestHandler):
    """A static host: files as they are, text gzip'd for browsers that accept it."""

    def log_message(self, *args):
        pass

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_file() and path.suffix in TEXT and "gzip" in self.headers.get("Accept-Encoding", ""):
            body = gzip.compress(path.read_bytes(), 9)
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(str(path)))
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return None
        return super().send_head()


def serve(folder: Path):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(Host, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def measure(browser, base: str, page: str, throttle: bool) -> dict:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = ctx.new_page()
    cdp = ctx.new_cdp_session(pg)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    if throttle:
        cdp.send("Network.emulateNetworkConditions", FAST_3G)
    sizes: dict[str, float] = {}
    kinds: dict[str, str] = {}
    cdp.on("Network.responseReceived", lambda e: kinds.__setitem__(e["requestId"], e["type"]))
    cdp.on("Network.loadingFinished",
           lambda e: sizes.__setitem__(e["requestId"], e["encodedDataLength"]))
    pg.goto(base + page, wait_until="load")
    ms = pg.evaluate("performance.getEntriesByType('navigation')[0].loadEventStart")
    pg.wait_for_load_state("networkidle")
    ctx.close()
    images = sum(v for k, v in sizes.items() if kinds.get(k) == "Image")
    return {"requests": len(sizes), "bytes": sum(sizes.values()), "no_images": sum(sizes.values()) - images,
            "requests_no_images": sum(1 for k in sizes if kinds.get(k) != "Image"), "ms": ms}


def main(folders: list[Path]) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for folder in folders:
            server, base = serve(folder)
            pages = sorted(p.name for p in folder.glob("*.html") if p.name != "404.html")
            print(f"\n{folder}")
            print(f"{'page':26} {'requests':>8} {'KB':>7} {'KB before images':>17} "
                  f"{'(requests)':>10} {'Fast 3G load':>13}")
            for page in pages:
                m = measure(browser, base, page, throttle=False)
                times = [measure(browser, base, page, throttle=True)["ms"] for _ in range(3)]
                print(f"{page:26} {m['requests']:8d} {m['bytes'] / 1024:7.0f} {m['no_images'] / 1024:17.0f} "
                      f"{m['requests_no_images']:10d} {statistics.median(times) / 1000:12.1f}s")
            server.shutdown()
        browser.close()


if __name__ == "__main__":
    main([Path(a) for a in sys.argv[1:]] or [ROOT / "output" / "site"])
