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

ROOT = Path(__file__).resolve().parents[2]

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


# ------------------------------------------------------------ the balance figures (issue 26)
def waited(lines: list[str], text: str, after: int = 0, timeout: float = 180) -> int:
    """Wait until the server has printed ``text`` in a line after the first ``after``
    lines; returns the number of lines printed then."""
    end = time.time() + timeout
    while time.time() < end:
        seen = lines[after:]
        if any(text in ln for ln in seen):
            return after + next(i for i, ln in enumerate(seen, 1) if text in ln)
        time.sleep(0.05)
    raise AssertionError(f"serve never printed {text!r}:\n{''.join(lines)}")


@pytest.mark.slow
@pytest.mark.build
def test_serve_shows_an_engine_edit_at_once_then_its_measured_figures(tmp_path):
    """An engine edit reloads the page within 10 s, its figures those of the previous
    version (marked); the lab measures the new ones in the background and the page reloads
    with them. A second edit while the lab measures stops it: no figures of the version in
    between are kept, and the last version's are."""
    from builder.check import run_check
    from builder.lab import figures as fig

    content = tmp_path / "content"
    shutil.copytree(ROOT / "tests" / "fixtures" / "high-five", content / "high-five")
    (content / "index.yaml").write_text("games: [high-five]\n")
    cache = tmp_path / "cache"
    env = dict(os.environ, PYTHONUNBUFFERED="1", WARBOOK_CACHE=str(cache),
               WARBOOK_LAB_GAMES="600")
    proc = subprocess.Popen([sys.executable, "-m", "builder", "serve", "--content", str(content),
                             "--out", str(tmp_path / "output"), "--port", "0"], cwd=tmp_path,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    threading.Thread(target=lambda: [lines.append(ln) for ln in proc.stdout], daemon=True).start()
    engine = content / "high-five" / "engine.py"
    first = engine.read_text()
    try:
        # no figures yet: the first build measures them in the background, then rebuilds
        n = waited(lines, "serving ")
        port = int(re.search(r"127\.0\.0\.1:(\d+)/", lines[n - 1]).group(1))
        n = waited(lines, "measured the balance figures of high-five")
        n = waited(lines, "built in", n)
        events = Events(port)
        time.sleep(1)
        events.drain()

        save(engine, first + "\n# the first edit\n")
        t0 = time.perf_counter()
        assert events.next(60) == "reload"
        edit_to_reload = time.perf_counter() - t0
        at_reload = sorted(p.name for p in cache.glob("high-five-*.json"))
        # the page did not wait for the lab (the target is 10 s on a quiet machine;
        # the bound here leaves room for a loaded one, the order is what is pinned)
        assert not any("measured the balance" in ln for ln in lines[n:]), "".join(lines[n:])
        assert edit_to_reload < 30, f"{edit_to_reload:.1f} s: {''.join(lines[n:])}"
        waited(lines, "reloading the page", n)   # the edit's own reload, not an earlier one
        page = urlopen(f"http://127.0.0.1:{port}/site/high-five.html").read().decode()
        assert "By the numbers" in page and 'class="numbers-stale"' in page  # marked
        n = waited(lines, "measuring the balance figures of high-five", n)
        save(engine, first + "\n# the second edit\n")  # while the lab measures the first
        n = waited(lines, "the measurement under way is of an earlier version: stopped", n)
        n = waited(lines, "measured the balance figures of high-five", n)
        n = waited(lines, "built in", n)
        page = urlopen(f"http://127.0.0.1:{port}/site/high-five.html").read().decode()
        assert "By the numbers" in page and "warbook-serve-error" not in page
        assert 'class="numbers-stale"' not in page   # measured: the mark is gone
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            code = proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
    said = "".join(lines)
    assert code == 0 and "Traceback" not in said, said
    print(f"serve: engine edit to reloaded page in {edit_to_reload:.2f} s")

    def key_of(text: str) -> str:
        engine.write_text(text)
        report = run_check(content)
        assert report.ok
        return fig.key(report.games[0].game)

    last = engine.read_text()
    between = key_of(first + "\n# the first edit\n")
    now = key_of(last)
    kept = sorted(p.name for p in cache.glob("high-five-*.json"))
    assert f"high-five-{now}.json" in kept, kept
    assert f"high-five-{between}.json" not in kept + at_reload, (kept, at_reload)
    assert not (content / "high-five" / fig.FILE).exists()   # the cache, not the content


# ------------------------------------------------------------ bad requests, and serve's death
# (issue 22, item 8)

@pytest.mark.parametrize("target,status", [
    ("/site/index.html", None), ("/site/war.html?q=1#x", None), ("/site/caf%C3%A9.html", None),
    ("/", None),
    ("/site/\x00.html", 400), ("/site/%00.html", 400), ("/site/%0a.html", 400),
    ("/site/\x1b[31m", 400), ("/site/%7f", 400),
    ("/" + "a" * 8192, 400),
    ("/site/%zz", 400), ("/site/%", 400), ("/site/%4", 400),
    ("/site/%e2%28%a1", 400), ("/site/\xff.html", 400), ("/site/%ff", 400),
    ("/../etc/passwd", 400), ("/site/%2e%2e/%2e%2e/etc/passwd", 400), ("/site/./x", 400),
    ("site/index.html", 400),
    ("/.warbook-build.json", 404), ("/%2ewarbook-build.json", 404), ("/site/.secret", 404),
    ("/.hidden/page.html", 404), ("/site/.x/", 404),
])
def test_request_path(target, status):
    """Which request targets are answered 400 or 404 before any look-up (the target as
    http.server holds it: the request line's bytes read as latin-1)."""
    from builder.serve import Refused, request_path

    if status is None:
        assert request_path(target) == target.split("?")[0].replace("%C3%A9", "é")
    else:
        with pytest.raises(Refused) as e:
            request_path(target)
        assert e.value.status == status
    assert request_path("/" + "a" * 8190) == "/" + "a" * 8190  # just under the limit


def broken_content(tmp: Path) -> Path:
    """A content folder whose check fails at once: serve shows the error and serves the
    output as it is (no build needed to test the server)."""
    content = tmp / "content"
    content.mkdir()
    (content / "index.yaml").write_text("games: [nowhere]\n")
    return content


class Serving:
    """``warbook serve`` in a real process: its terminal lines, its address."""

    def __init__(self, content: Path, out: Path, port: int = 0):
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen([sys.executable, "-m", "builder", "serve", "--content",
                                      str(content), "--out", str(out), "--port", str(port)],
                                     cwd=content.parent, env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        self.started: queue.Queue = queue.Queue()
        threading.Thread(target=self.pump, daemon=True).start()
        self.port = self.started.get(timeout=60)

    def pump(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line)
            m = re.search(r"at http://127\.0\.0\.1:(\d+)/", line)
            if m:
                self.started.put(int(m.group(1)))
        self.started.put(None)

    def server_pid(self) -> int:
        """The forked server process (serve's only child)."""
        kids = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text().split()
        assert len(kids) == 1, kids
        return int(kids[0])

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                return self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        return self.proc.wait(timeout=10)


def ask(port: int, target: bytes, method: bytes = b"GET") -> tuple[int, bytes]:
    """One raw request (http.client refuses to send most of these targets)."""
    import socket

    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(method + b" " + target + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  b"Connection: close\r\n\r\n")
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    return int(data.split(b" ", 2)[1]), data


def running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False


def test_serve_answers_bad_requests_400_or_404_without_a_traceback(tmp_path):
    out = tmp_path / "output"
    (out / "site").mkdir(parents=True)
    (out / "site" / "index.html").write_text("<html><body><p>the site</p></body></html>")
    (out / ".warbook-build.json").write_text('{"secret": "the manifest"}')
    (out / ".hidden").mkdir()
    (out / ".hidden" / "page.html").write_text("<p>hidden</p>")
    (out / "site" / ".secret").write_text("secret")
    (tmp_path / "passwd").write_text("outside")
    server = Serving(broken_content(tmp_path), out)
    try:
        assert server.port is not None, "".join(server.lines)
        status, page = ask(server.port, b"/site/index.html")
        assert status == 200 and b"the site" in page
        for target, expected in [
            (b"/site/\x00.html", 400), (b"/site/%00.html", 400), (b"/%00", 400),
            (b"/" + b"a" * 9000, 400), (b"/site/%zz", 400), (b"/site/%", 400),
            (b"/site/%e2%28%a1.html", 400), (b"/site/\xff\xfe.html", 400),
            (b"/../passwd", 400), (b"/site/%2e%2e/%2e%2e/passwd", 400),
            (b"/site/..%2f..%2fpasswd", 400), (b"/site/\x1b[2J", 400),
            (b"/site/" + b"a" * 300 + b".html", 404), (b"/site/" + b"a" * 300 + b"/", 404),
            (b"/.warbook-build.json", 404), (b"/%2Ewarbook-build.json", 404),
            (b"/.hidden/page.html", 404), (b"/.hidden/", 404), (b"/site/.secret", 404),
        ]:
            for method in (b"GET", b"HEAD"):
                status, answer = ask(server.port, target, method)
                assert status == expected, (method, target, answer[:300])
                assert b"the manifest" not in answer and b"hidden</p>" not in answer
                assert b"outside" not in answer
        # a request line over http.server's own 64 KB limit
        status, _ = ask(server.port, b"/" + b"a" * 70000)
        assert status == 400
        status, page = ask(server.port, b"/site/index.html")  # still serving
        assert status == 200
    finally:
        code = server.stop()
    terminal = "".join(server.lines)
    assert code == 0, terminal
    assert "Traceback" not in terminal and "internal error" not in terminal, terminal


def test_serve_killed_frees_its_port_for_the_next_serve(tmp_path):
    """``kill -9`` of serve: its server process ends with it (a parent-death signal), the
    port and the output's lock are free, and a new serve on the same port starts."""
    content, out = broken_content(tmp_path), tmp_path / "output"
    first = Serving(content, out)
    assert first.port is not None, "".join(first.lines)
    child = first.server_pid()
    assert ask(first.port, PREFIX.encode() + b"status")[0] == 200
    t0 = time.monotonic()
    first.proc.send_signal(signal.SIGKILL)
    first.proc.wait(timeout=10)
    while running(child) and time.monotonic() - t0 < 5:
        time.sleep(0.05)
    if running(child):
        os.kill(child, signal.SIGKILL)  # leave no orphan behind, then fail
        raise AssertionError("the server process outlived serve")
    second = Serving(content, out, port=first.port)
    try:
        assert second.port == first.port, "".join(second.lines)
        assert time.monotonic() - t0 < 10
        for _ in range(100):  # the server hears of the first (failed) check a moment later
            status, body = ask(second.port, PREFIX.encode() + b"status")
            if not body.endswith(b"generation 0\nok\n"):
                break
            time.sleep(0.05)
        assert status == 200
        assert body.endswith(b"index.yaml:1:9: error: no game folder 'nowhere' with a "
                             b"game.yaml\n"), body
    finally:
        assert second.stop() == 0, "".join(second.lines)


def test_request_path_on_seeded_random_targets():
    """Whatever the bytes of a target, ``request_path`` returns a clean path or refuses it
    with 400 or 404: never another exception, never a dot-name, '..' or control character
    let through (2,000 seeded targets built from the characters that matter)."""
    import random

    from builder.serve import Refused, request_path

    rng = random.Random(22)
    pieces = ["/", ".", "..", "%", "%2e", "%2E", "%2f", "%00", "%0a", "%ff", "%c3", "%a9",
              "%zz", "a", "site", "é", "\x00", "\x7f", "\xff", "?", "#", "\\", " ", "~"]
    for _ in range(2000):
        target = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        try:
            path = request_path(target)
        except Refused as e:
            assert e.status in (400, 404), target
            continue
        names = path.split("/")
        assert path.startswith("/"), target
        assert not any(n.startswith(".") for n in names), target
        assert not any(ord(c) < 32 or ord(c) == 127 for c in path), target
