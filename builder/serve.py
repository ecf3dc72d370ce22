"""``warbook serve``: build, serve the output on 127.0.0.1, rebuild on every save, reload
the browser.

Two processes. The *server* (forked once, at the start, before anything else runs) serves
the output folder over HTTP and tells the open pages when to reload, by server-sent events
(``/__warbook/events``). The *builder* (this process) watches the content folder and the
templates with ``watchfiles`` (inotify on Linux, so an idle watch costs nothing), and on a
change runs the check and the incremental build (only what the change touches is
rendered again), then tells the server the outcome through a pipe.

The reload script (``/__warbook/reload.js``) and, after a failed check or build, the error
box are put into each HTML page as the server sends it: the built files never contain
them. A failed check or build leaves the output as it was, so the last good site stays
served, with the error (``path:line:col: error: ...``) shown on top of every page until a
save fixes it.

``serve`` holds the output's lock (:mod:`.lock`) for its whole life, so no build or second
serve publishes into the folder it serves. The server ends with the builder, however the
builder ends (``kill -9`` included: a parent-death signal, and the pipe closing), so the
port is free again at once. Every request path is checked before it reaches the file
system (:func:`request_path`): a NUL or control character, malformed percent-encoding,
invalid UTF-8, a ``.`` or ``..`` segment or a path over 8 KB is answered 400, any name
starting with a dot (the build manifest, hidden files) 404; never a traceback.
"""

from __future__ import annotations

import contextlib
import html
import http.server
import logging
import os
import re
import signal
import socketserver
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterator
from urllib.parse import unquote_to_bytes, urlsplit

from .errors import WarbookError

log = logging.getLogger("warbook.serve")

PREFIX = "/__warbook/"
#: the longest request path served (bytes of the request target, before decoding)
MAX_PATH = 8192
_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")

RELOAD_JS = """// warbook serve: reload this page when the build changes (not part of the built site)
(function () {
  var source = new EventSource("/__warbook/events");
  source.addEventListener("reload", function () { location.reload(); });
})();
"""

ERROR_STYLE = ("position:fixed;z-index:99999;left:0;right:0;top:0;max-height:60vh;overflow:auto;"
               "margin:0;padding:1rem 1.25rem;background:#fff4f2;color:#5c0a00;"
               "border-bottom:3px solid #b3261e;font:14px/1.45 ui-monospace,monospace;"
               "white-space:pre-wrap")


def inject(page: bytes, error: str | None) -> bytes:
    """The page as served: the reload script before ``</body>``; after a failed build, the
    error box right after ``<body ...>``."""
    text = page.decode("utf-8", errors="replace")
    script = f'<script src="{PREFIX}reload.js"></script>'
    low = text.lower()
    at = low.rfind("</body>")
    text = text[:at] + script + text[at:] if at >= 0 else text + script
    if error:
        box = (f'<pre id="warbook-serve-error" role="alert" style="{ERROR_STYLE}">'
               f"<strong>The last change did not build; showing the last good output.</strong>\n\n"
               f"{html.escape(error)}</pre>")
        low = text.lower()
        start = low.find("<body")
        end = low.find(">", start) if start >= 0 else -1
        text = text[:end + 1] + box + text[end + 1:] if end >= 0 else box + text
    return text.encode("utf-8")


def error_page(error: str | None) -> bytes:
    body = "<p>Building…</p>" if not error else ""
    return inject((f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
                   f"<title>warbook serve</title></head><body>{body}</body></html>").encode(),
                  error)


# --------------------------------------------------------------------------- server process
class Refused(Exception):
    """A request path the server will not look up: ``status`` (400 or 404) and why."""

    def __init__(self, status: int, why: str):
        super().__init__(why)
        self.status = status


def request_path(target: str) -> str:
    """The decoded path of a request's target (``/site/war.html?x`` -> ``/site/war.html``),
    or :class:`Refused`: 400 for a target over :data:`MAX_PATH`, malformed
    percent-encoding, bytes that are not UTF-8, a NUL or other control character, a ``.``
    or ``..`` segment or a path not starting with ``/``; 404 for any name starting with a
    dot (the build manifest ``.warbook-build.json``, hidden files and folders)."""
    if len(target) > MAX_PATH:
        raise Refused(400, f"request path over {MAX_PATH} bytes")
    try:
        raw = urlsplit(target).path.encode("latin-1")  # http.server read it as latin-1
    except (ValueError, UnicodeEncodeError):
        raise Refused(400, "malformed request target") from None
    if _BAD_ESCAPE.search(raw.decode("latin-1")):
        raise Refused(400, "malformed percent-encoding in the path")
    try:
        path = unquote_to_bytes(raw).decode("utf-8")
    except UnicodeDecodeError:
        raise Refused(400, "the path is not UTF-8") from None
    if any(ord(c) < 32 or ord(c) == 127 for c in path):
        raise Refused(400, "a control character in the path")
    if not path.startswith("/"):
        raise Refused(400, "the path must start with /")
    names = path.split("/")
    if any(n in (".", "..") for n in names):
        raise Refused(400, "'.' or '..' in the path")
    if any(n.startswith(".") for n in names):
        raise Refused(404, "not found")
    return path


class State:
    """What the server knows of the builds: a generation number (bumped on each finished
    build, good or bad) and the last failure's message, if the last build failed."""

    def __init__(self) -> None:
        self.generation = 0
        self.error: str | None = None
        self.changed = threading.Condition()

    def update(self, error: str | None) -> None:
        with self.changed:
            self.generation += 1
            self.error = error
            self.changed.notify_all()


def make_handler(root: Path, state: State, stopping: threading.Event):
    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a, **kw):
            super().__init__(*a, directory=str(root), **kw)

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def checked(self) -> str | None:
            """The request's path, or None after answering 400 or 404 (see request_path)."""
            try:
                return request_path(self.path)
            except Refused as e:
                self.send_error(e.status, str(e))
                return None

        def send_error(self, code: int, message: str | None = None,
                       explain: str | None = None) -> None:
            if code == 414:  # a request line over 64 KB, refused by http.server itself
                code, message = 400, f"request path over {MAX_PATH} bytes"
            super().send_error(code, message, explain)

        def do_HEAD(self) -> None:
            if self.checked() is not None:
                super().do_HEAD()

        def do_GET(self) -> None:
            path = self.checked()
            if path is None:
                return
            if path == "/":
                self.send_response(302)
                self.send_header("Location", "/site/index.html")
                self.end_headers()
                return
            if path == PREFIX + "reload.js":
                return self.send_bytes(RELOAD_JS.encode(), "text/javascript")
            if path == PREFIX + "events":
                return self.events()
            if path == PREFIX + "status":
                body = f"generation {state.generation}\n{state.error or 'ok'}\n"
                return self.send_bytes(body.encode(), "text/plain; charset=utf-8")
            file = Path(self.translate_path(self.path))
            if os.path.isdir(file):  # False for a name too long for the system, too
                file = file / "index.html"
            if file.suffix == ".html":
                try:
                    page = file.read_bytes()
                except OSError:
                    if path in ("/site/", "/site/index.html"):
                        return self.send_bytes(error_page(state.error), "text/html; charset=utf-8")
                    self.send_error(404)
                    return
                return self.send_bytes(inject(page, state.error), "text/html; charset=utf-8")
            super().do_GET()

        def send_bytes(self, body: bytes, ctype: str) -> None:
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def end_headers(self) -> None:
            self.send_header("Cache-Control", "no-store")
            super().end_headers()

        def events(self) -> None:
            """Server-sent events: ``reload`` after each finished build; a comment every
            15 s keeps the connection (and notices a closed page)."""
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            seen = state.generation
            try:
                self.wfile.write(f"event: hello\ndata: {seen}\n\n".encode())
                self.wfile.flush()
                while not stopping.is_set():
                    with state.changed:
                        state.changed.wait_for(lambda: state.generation != seen
                                               or stopping.is_set(), timeout=15)
                        now = state.generation
                    if now != seen:
                        seen = now
                        self.wfile.write(f"event: reload\ndata: {now}\n\n".encode())
                    else:
                        self.wfile.write(b": ping\n\n")
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                pass

    return Handler


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address) -> None:
        """A request that fails inside the handler: one line in the terminal, never a
        traceback (WARBOOK_DEBUG=1 shows it); a page that went away: nothing."""
        e = sys.exc_info()[1]
        if isinstance(e, (ConnectionError, TimeoutError)):
            return
        log.error(f"warbook serve: internal error answering a request: {type(e).__name__}: "
                  f"{e} (a bug in warbook; WARBOOK_DEBUG=1 shows the traceback)")
        if os.environ.get("WARBOOK_DEBUG"):
            super().handle_error(request, client_address)


def run_server(server: Server, state: State, stopping: threading.Event, inbox,
               outbox=None, parent: int | None = None) -> None:
    """The server process: serve until the builder closes the pipe (or sends "stop"), or
    ends in any way (even killed: the parent-death signal, and the pipe's end of file)."""
    from . import children, lock

    if parent is not None:
        children.die_with_parent(parent)
    if outbox is not None:
        outbox.close()  # the builder's end: only the builder may keep the pipe open
    lock.close_inherited()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the builder stops us, after Ctrl-C

    def listen() -> None:
        while True:
            try:
                kind, error = inbox.recv()
            except (EOFError, OSError):
                break
            if kind == "stop":
                break
            state.update(error)
        stopping.set()
        with state.changed:
            state.changed.notify_all()
        server.shutdown()

    threading.Thread(target=listen, daemon=True).start()
    server.serve_forever(poll_interval=0.5)
    server.server_close()


# --------------------------------------------------------------------------- builder
def watched(content: Path) -> list[Path]:
    from .render.templating import TEMPLATES

    return [content, TEMPLATES]


def ignore(change: Any, path: str) -> bool:
    """Changes that cannot matter: hidden files (editors' swap files), backups, caches, and
    the balance figures' files (``serve`` writes them itself, and rebuilds after)."""
    name = os.path.basename(path)
    return (name.startswith(".") or name.endswith("~") or "__pycache__" in path
            or name == "figures.json")


#: how often (ms) the watch pauses to see whether the background measurement is done
POLL_MS = 300


def remember_yaml() -> None:
    """In this long-running process, parse each content file again only when its bytes
    change (a copy of the remembered parse is handed out, so nothing can alter it): a save
    then costs the parse of one file instead of every file of every game."""
    import copy
    import hashlib

    from .content import base as loader

    if getattr(loader.load_yaml, "remembers", False):
        return
    parse = loader.load_yaml
    memo: dict[tuple, tuple[bytes, Any]] = {}

    def load_yaml(path: Path, display: str | None = None, root: Path | None = None) -> Any:
        import stat

        try:  # only a plain regular file is remembered; anything else goes to the loader,
            st = os.lstat(path)  # which refuses it with its own located error
            if not stat.S_ISREG(st.st_mode):
                return parse(path, display, root)
            digest = hashlib.sha1(Path(path).read_bytes()).digest()
        except OSError:
            return parse(path, display, root)
        key = (str(path), display, str(root))
        hit = memo.get(key)
        if hit is None or hit[0] != digest:
            hit = (digest, parse(path, display, root))  # a syntax error raises, and is not kept
            memo[key] = hit
        return copy.deepcopy(hit[1])

    load_yaml.remembers = True  # type: ignore[attr-defined]
    loader.load_yaml = load_yaml


#: the loggers of the build's stages, and the least level of their messages ``serve`` shows
#: while it builds the website alone (none: the page reloads) and then the rest (the
#: build's summary, see :class:`BuildSummary`, not each file written)
SITE_PASS = {"warbook.build": logging.WARNING, "warbook.render": logging.WARNING,
             "warbook.lab": logging.WARNING}
REST_PASS = {"warbook.render": logging.WARNING, "warbook.lab": logging.WARNING}


class BuildSummary(logging.Filter):
    """Of the build's progress, only its summary ("reused ...", "built ..."), indented under
    ``serve``'s own lines; every warning and error, and every other module's line, as is."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.WARNING or not record.name.startswith("warbook.build"):
            return True
        text = record.getMessage()
        if not text.startswith(("built", "reused")):
            return False
        record.msg, record.args = "  " + text, ()
        return True


@contextlib.contextmanager
def quieter(levels: dict[str, int], only: logging.Filter | None = None) -> Iterator[None]:
    """For the ``with`` block, raise each named logger's level to at least the given one
    (never lower it: ``--quiet`` stays quiet) and pass what is shown through ``only``;
    nothing changes when ``--verbose`` asked to see everything."""
    if log.isEnabledFor(logging.DEBUG):
        yield
        return
    saved = {name: logging.getLogger(name).level for name in levels}
    handlers = logging.getLogger("warbook").handlers if only else []
    try:
        for name, level in levels.items():
            logger = logging.getLogger(name)
            if logger.getEffectiveLevel() < level:
                logger.setLevel(level)
        for handler in handlers:
            handler.addFilter(only)
        yield
    finally:
        for name, level in saved.items():
            logging.getLogger(name).setLevel(level)
        for handler in handlers:
            handler.removeFilter(only)


def settings_now(settings, report, paper_from_book: bool):
    """The settings of this rebuild: ``book.paper`` of the content as it is now, when no
    ``--paper`` was given (an edited ``index.yaml`` is followed)."""
    import dataclasses

    from .settings import PAPERS

    named = report.content.book.paper  # a paper's name ("a4"), or the Paper itself
    paper = PAPERS.get(str(getattr(named, "name", named))) if paper_from_book else None
    if paper is None or paper == settings.paper:
        return settings
    return dataclasses.replace(settings, paper=paper)


def rebuild(settings, shown: Callable[[str | None], None],
            paper_from_book: bool = True,
            site_built: Callable[[Any], None] | None = None) -> str | None:
    """Check, then build the website alone and call ``shown`` (the page can reload), then
    build the rest (the PDFs and sheets the change touches). Both are quick builds: a game
    whose balance figures are out of date prints its previous ones, marked (``serve``
    measures them in the background: :class:`Measuring`). Returns None, or what went
    wrong, as the terminal shows it (``shown`` is called with it too). ``site_built`` is
    called with the check's report once the website is built (``serve`` starts measuring
    the figures then, beside the rest of the build)."""
    from .build import build
    from .check import run_check
    from .incremental import Manifest

    t0 = time.perf_counter()
    first_key = None
    report = run_check(settings.content_root)
    from .render.faces import check_faces

    check_faces(report)  # the games' own cards' faces (see cli.check_faces)
    if not report.ok:
        text = "\n".join(d.format() for d in report.diagnostics.errors)
        shown(text)
        return text
    settings = settings_now(settings, report, paper_from_book)
    out = settings.output
    for site_only, levels, only in ((True, SITE_PASS, None), (False, REST_PASS, BuildSummary())):
        try:
            with quieter(levels, only):
                build(report, settings, site_only=site_only, quick=True)
        except WarbookError as e:
            from .diagnostics import Diagnostic

            text = str(e) if isinstance(e, Diagnostic) or getattr(e, "located", False) \
                else f"error: {e}"
            shown(text)
            return text
        site_key = Manifest.read(out).units.get("site", {}).get("key")
        if site_only:
            log.info(f"  site rebuilt in {time.perf_counter() - t0:.2f} s; reloading the page")
            shown(None)
            first_key = site_key
            if site_built is not None:
                site_built(report)
        elif site_key != first_key:  # the pages now link PDFs that were not there before
            shown(None)
    log.info(f"built in {time.perf_counter() - t0:.1f} s")
    return None


#: the content files a game's figures depend on (see ``builder.lab.figures.key``): a save
#: of one of them stops a measurement under way (it is started again on the new version)
def touches_figures(rel: str) -> bool:
    """Whether a change to ``rel`` (a path inside the content folder) can change a game's
    figures: its game.yaml, engine.py or card files; not its rules, glossary, examples,
    pictures or templates, nor a figures file."""
    parts = Path(rel).parts
    name = parts[-1] if parts else ""
    if name in ("figures.json", "glossary.yaml", "index.yaml") or "examples" in parts \
            or (parts and parts[0] == "templates"):
        return False
    return name == "game.yaml" or Path(name).suffix in (".py", ".csv", ".yaml", ".yml")


class Measuring:
    """The balance figures a quick rebuild found out of date, measured in a forked child
    process (its own process group: the lab's workers go with it) while ``serve`` goes on
    watching. When the child is done, its figures are kept (:func:`~.lab.figures.place`)
    and :meth:`poll` says so: the caller rebuilds, and the page reloads with them.

    A save that touches a game's figures (:func:`touches_figures`) stops the child at once
    (:meth:`cancel`; nothing it measured is kept); the rebuild that follows measures the
    new version. Figures are kept under the key computed when measuring started, so a
    measurement of an earlier version could never pass for a current one anyway."""

    def __init__(self, out: Path):
        self.out = out
        self.child: Any = None
        self.conn: Any = None
        self.plan: tuple = ()
        self.games: dict[str, Any] = {}
        #: a plan the lab failed on: not tried again until something changes
        self.failed: tuple = ()
        self.started = 0.0

    @property
    def busy(self) -> bool:
        return self.child is not None

    def follow(self, report) -> None:
        """Measure whatever ``report``'s games lack (nothing if all is current, or if that
        very plan is being measured or failed)."""
        from .lab import figures

        todo = figures.due([gr.game for gr in report.games], self.out)
        plan = tuple((g.slug, k) for g, k in todo)
        if self.child is not None and plan == self.plan:
            return
        self.cancel()
        if not plan or plan == self.failed:
            return
        import multiprocessing

        ctx = multiprocessing.get_context("fork")
        receive, send = ctx.Pipe(duplex=False)
        self.child = ctx.Process(target=_measure_child, args=(todo, send, os.getpid()),
                                 name="warbook serve: figures")
        self.child.start()
        send.close()
        self.conn, self.plan, self.started = receive, plan, time.perf_counter()
        self.games = {g.slug: g for g, _ in todo}
        log.info(f"  measuring the balance figures of {', '.join(s for s, _ in plan)} in the "
                 f"background (the page shows the previous ones, marked, until then)")

    def poll(self) -> str | None:
        """``"done"`` when the child has measured everything and its figures are kept,
        ``"failed: <message>"`` when the lab could not play a game, else None."""
        from .lab import figures

        if self.child is None:
            return None
        outcome = None
        try:
            while outcome is None and self.conn.poll():
                message = self.conn.recv()
                if message[0] == "measured":
                    figures.place(self.games[message[1]], message[2])
                elif message[0] == "done":
                    outcome = "done"
                elif message[0] == "failed":
                    outcome = f"failed: {message[1]}"
        except (EOFError, OSError):
            outcome = "failed: error: the balance lab's process ended without its figures"
        if outcome is None:
            return None
        if outcome != "done":
            self.failed = self.plan
        else:
            log.info(f"  measured the balance figures of {', '.join(s for s, _ in self.plan)} "
                     f"in {time.perf_counter() - self.started:.1f} s; rebuilding")
        self.cancel()
        return outcome

    def cancel(self) -> None:
        """Stop the child and its workers (nothing it has not sent is kept)."""
        child, self.child, self.plan = self.child, None, ()
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        if child is None:
            return
        if child.is_alive():
            with contextlib.suppress(OSError):
                os.kill(child.pid, signal.SIGTERM)  # the lab stops its workers
            child.join(timeout=3)
        with contextlib.suppress(OSError):
            os.killpg(child.pid, signal.SIGKILL)  # whatever is left of its process group
        child.join(timeout=3)


def _measure_child(todo, send, parent: int) -> None:
    """The measuring child: its own process group (a SIGTERM from ``serve`` stops the lab,
    which stops its workers), each game's figures sent as they are measured, then
    ``("done",)``; ``("failed", message)`` when the lab cannot play a game."""
    try:  # a SIGTERM (serve's handler, inherited, or ours) at any moment: exit quietly
        from . import children, lock
        from .lab import figures

        children.die_with_parent(parent)
        lock.close_inherited()
        os.setpgid(0, 0)
        signal.signal(signal.SIGINT, signal.SIG_IGN)

        def stop(signum, frame):
            raise KeyboardInterrupt

        signal.signal(signal.SIGTERM, stop)
        logging.getLogger("warbook.lab").setLevel(logging.WARNING)
        for game, k in todo:
            send.send(("measured", game.slug, figures.measure(game, k=k)))
        send.send(("done",))
    except KeyboardInterrupt:
        os._exit(130)
    except WarbookError as e:
        text = str(e) if getattr(e, "located", False) else f"error: {e}"
        with contextlib.suppress(OSError):
            send.send(("failed", text))
        os._exit(1)
    except Exception as e:  # noqa: BLE001 - said on the page and in the terminal, never a traceback
        with contextlib.suppress(OSError):
            send.send(("failed", f"error: the balance lab failed: {type(e).__name__}: {e} "
                                 f"(a bug in warbook; WARBOOK_DEBUG=1 shows the traceback)"))
        os._exit(1)
    os._exit(0)


def serve(settings, port: int = 8000, paper_from_book: bool = True,
          ready: Callable[[str], None] | None = None) -> int:
    """Serve ``settings.output``, built from ``settings.content_root``, until interrupted
    (Ctrl-C); returns 0. ``paper_from_book``: follow ``book.paper`` in ``index.yaml`` as
    it is edited (no ``--paper`` was given). Holds the output's lock all along:
    :class:`~.lock.Busy` if another process is building or serving into it."""
    from . import lock

    with lock.hold(settings.output, "warbook serve"):
        return serve_locked(settings, port=port, paper_from_book=paper_from_book, ready=ready)


def serve_locked(settings, port: int = 8000, paper_from_book: bool = True,
                 ready: Callable[[str], None] | None = None) -> int:
    import dataclasses
    import multiprocessing

    import watchfiles

    content = Path(settings.content_root).resolve()
    out = Path(settings.output).resolve()
    if not content.is_dir():
        raise ServeError(f"no content folder {content} (give one with --content DIR)")
    settings = dataclasses.replace(settings, content_root=content, output=out)
    out.mkdir(parents=True, exist_ok=True)
    remember_yaml()
    state, stopping = State(), threading.Event()
    try:
        server = Server(("127.0.0.1", port), make_handler(out, state, stopping))
    except OSError as e:
        raise ServeError(f"cannot listen on 127.0.0.1:{port} ({e.strerror}); "
                         f"choose another port with --port") from None
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    ctx = multiprocessing.get_context("fork")
    inbox, outbox = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=run_server, args=(server, state, stopping, inbox, outbox,
                                                os.getpid()),
                       name="warbook serve", daemon=True)
    proc.start()
    server.server_close()  # the server process has the socket now
    inbox.close()
    stop = threading.Event()

    def interrupt(signum, frame):
        """Ctrl-C or a SIGTERM: stop, and remember it. The KeyboardInterrupt alone can be
        lost: raised inside a ``__del__`` that the garbage collector runs mid-build (say,
        WeasyPrint's font configuration's), it is printed as "ignored" and the build goes
        on. The watcher sees ``stop`` set at its next step and ends the loop anyway."""
        stop.set()
        raise KeyboardInterrupt

    def shown(error: str | None) -> None:
        outbox.send(("built", error))

    measuring = Measuring(out)

    def build_and_measure() -> None:
        report_outcome(rebuild(settings, shown, paper_from_book, measuring.follow))

    previous = signal.signal(signal.SIGTERM, interrupt)
    previous_int = signal.signal(signal.SIGINT, interrupt)
    try:
        log.info(f"building {content} into {out}")
        build_and_measure()
        log.info(f"serving {out} at {url}  (Ctrl-C stops)")
        if ready is not None:
            ready(url)
        for changes in watchfiles.watch(*watched(content),
                                        watch_filter=lambda c, p: not ignore(c, p),
                                        stop_event=stop, debounce=400, step=50,
                                        raise_interrupt=True, rust_timeout=POLL_MS,
                                        yield_on_timeout=True):
            if not changes:  # a pause in the saves: has the lab finished?
                outcome = measuring.poll()
                if outcome == "done":
                    build_and_measure()
                elif outcome is not None:
                    text = outcome.removeprefix("failed: ")
                    shown(text)
                    log.error(text)
                    log.info("the balance lab could not measure the figures: the pages "
                             "keep the previous ones, marked, until a save fixes it")
                continue
            names = sorted({os.path.relpath(p, content) if p.startswith(str(content)) else
                            os.path.basename(p) for _, p in changes})
            if measuring.busy and any(touches_figures(n) for n in names):
                log.info("  the measurement under way is of an earlier version: stopped")
                measuring.cancel()
            log.info(f"changed: {', '.join(names[:5])}{' ...' if len(names) > 5 else ''}")
            build_and_measure()
        raise KeyboardInterrupt  # the watcher ends only once ``stop`` is set: interrupted
    except KeyboardInterrupt:
        log.info("stopping")
    finally:
        measuring.cancel()
        signal.signal(signal.SIGTERM, previous)
        signal.signal(signal.SIGINT, previous_int)
        stop.set()
        try:
            outbox.send(("stop", None))
        except OSError:
            pass
        outbox.close()
        proc.join(timeout=5)
        if proc.is_alive():
            proc.kill()
            proc.join()
    return 0


def report_outcome(error: str | None) -> None:
    if error:
        log.error(error)
        log.info("the check or build failed: the last good output stays served, with the "
                 "error on every page, until a save fixes it")


class ServeError(WarbookError):
    """Serving could not start (the port is taken); the message says what to do."""
