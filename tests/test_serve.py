"""``warbook serve``, driven as a designer uses it: in a temporary folder, through HTTP.

The slow test starts the real command on a free port, listens to its server-sent events
like a browser page does, and edits, breaks and repairs a worked example; after each save
it waits for the reload event and fetches the page. The quick tests pin what is put into
a served page (and that nothing of it reaches the built files)."""

from __future__ import annotations

import http.client
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.request import urlopen

import pytest

from builder.serve import PREFIX, inject

ROOT = Path(__file__).resolve().parent.parent

PAGE = b'<!doctype html><html><head></head><body class="x"><p>hi</p></body></html>'


def test_inject_puts_the_reload_script_before_the_end_of_the_body():
    out = inject(PAGE, None).decode()
    assert out.endswith(f'<p>hi</p><script src="{PREFIX}reload.js"></script></body></html>')
    assert "warbook-serve-error" not in out


def test_inject_shows_the_error_escaped_at_the_top_of_the_body():
    err = "content/war/examples/02-one-war.yaml:18:20: error: <b>trick.cards</b>: expected 11"
    out = inject(PAGE, err).decode()
    box = out.index('<pre id="warbook-serve-error"')
    assert out.index('<body class="x">') < box < out.index("<p>hi</p>")
    assert "02-one-war.yaml:18:20: error: &lt;b&gt;trick.cards&lt;/b&gt;" in out
    assert "<b>trick.cards</b>" not in out
    assert "showing the last good output" in out


def save(path: Path, text: str) -> None:
    """Save as editors do: a hidden file beside it, renamed over it (so the watcher never
    sees a half-written file)."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def small_content(tmp: Path) -> Path:
    """War and Peace only: the smallest games, so each build takes seconds."""
    content = tmp / "content"
    content.mkdir()
    for slug in ("war", "peace"):
        shutil.copytree(ROOT / "content" / slug, content / slug)
    index = (ROOT / "content" / "index.yaml").read_text()
    index = re.sub(r"(?m)^games:.*$", "games: [war, peace]", index)
    (content / "index.yaml").write_text(index)
    return content


class Events:
    """The page's side of the server-sent events: every event name, in a queue."""

    def __init__(self, port: int):
        self.q: queue.Queue = queue.Queue()
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.conn.request("GET", PREFIX + "events")
        self.resp = self.conn.getresponse()
        assert self.resp.getheader("Content-Type") == "text/event-stream"
        threading.Thread(target=self.read, daemon=True).start()
        assert self.next(10) == "hello"

    def read(self) -> None:
        try:
            for raw in self.resp:
                line = raw.decode().strip()
                if line.startswith("event: "):
                    self.q.put(line[len("event: "):])
        except Exception:  # noqa: BLE001 - the server went away
            self.q.put("closed")

    def drain(self) -> None:
        while not self.q.empty():
            self.q.get()

    def next(self, timeout: float = 120) -> str:
        return self.q.get(timeout=timeout)


def reload_until(events: Events, url: str, ready, tries: int = 3) -> str:
    """The page after the next reload event that shows it ``ready`` (a save may take more
    than one rebuild: the website first, then the PDFs)."""
    for _ in range(tries):
        assert events.next() == "reload"
        page = urlopen(url).read().decode()
        if ready(page):
            return page
    raise AssertionError(f"no reload brought the expected page; last: {page[:2000]}")


def printed(lines: list[str], text: str, tries: int = 100) -> bool:
    """Whether the server has printed ``text``, waiting up to about 10 s for the thread
    that reads its output to catch up (the page can show an error before that thread has
    read the same error from the pipe)."""
    for _ in range(tries):
        if text in "".join(lines):
            return True
        time.sleep(0.1)
    return False


@pytest.mark.slow
@pytest.mark.build
def test_serve_rebuilds_reloads_shows_errors_and_stops(tmp_path):
    content = small_content(tmp_path)
    out = tmp_path / "output"
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "builder", "serve", "--content", str(content),
                             "--out", str(out), "--port", "0"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    url_q: queue.Queue = queue.Queue()

    def pump() -> None:
        for line in proc.stdout:
            lines.append(line)
            m = re.search(r"at (http://127\.0\.0\.1:(\d+)/)", line)
            if m:
                url_q.put((m.group(1), int(m.group(2))))

    threading.Thread(target=pump, daemon=True).start()
    try:
        url, port = url_q.get(timeout=300)
        page_url = url + "site/war.html"
        events = Events(port)
        time.sleep(1)  # a reload for the first build may still be on its way: not ours
        events.drain()
        first = urlopen(page_url).read().decode()
        assert f'src="{PREFIX}reload.js"' in first
        assert "warbook-serve-error" not in first
        on_disk = (out / "site" / "war.html").read_text()
        assert "__warbook" not in on_disk  # never in a built file

        example = content / "war" / "examples" / "02-one-war.yaml"
        good = example.read_text()
        edited = good.replace("soldiers are never compared.",
                              "soldiers are never compared, not even by a lighthouse keeper.")
        assert edited != good
        example.write_text(edited)  # written in place: a half-written file may be seen first
        page = reload_until(events, page_url, lambda p: "not even by a lighthouse keeper" in p)
        assert "warbook-serve-error" not in page

        # break the expectation: the error, located, on the page; the last good page stays
        broken = edited.replace("trick.cards: 10", "trick.cards: 11")
        save(example, broken)
        row = next(i for i, ln in enumerate(broken.splitlines(), 1) if "trick.cards: 11" in ln)
        col = broken.splitlines()[row - 1].index("11") + 1
        page = reload_until(events, page_url, lambda p: "warbook-serve-error" in p)
        assert f"02-one-war.yaml:{row}:{col}: error:" in page
        assert "expected 11, got 10" in page
        assert "not even by a lighthouse keeper" in page  # the last good output
        # and the terminal (read by the pump thread, which may still be a line behind)
        assert printed(lines, f"02-one-war.yaml:{row}:{col}: error:"), "".join(lines)

        save(example, edited)  # repaired
        page = reload_until(events, page_url, lambda p: "warbook-serve-error" not in p)
        assert "not even by a lighthouse keeper" in page
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            code = proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
    assert code == 0, "".join(lines)
    time.sleep(0.2)
    assert "stopping" in "".join(lines)
    assert not list(tmp_path.glob(".output.staging-*"))  # nothing left behind
    with pytest.raises(OSError):
        urlopen(url, timeout=5)
