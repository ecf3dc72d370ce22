"""The attack suite of issue 22: each attack of its "Why" list, made as someone who controls
a content folder would, through the real command line (a subprocess, cwd outside the
repository) against one small game (War) copied outside the repository.

Every attack must end with exit status 1 and a first error located in the content folder
(``content/<the file that holds the attack>:<line>:<col>: error: ...``), no traceback and
no "internal error", within a guard against hangs; nothing outside the content folder may
be read (the canary files live on a tmpfs mounted with ``strictatime``, so a read moves
their access time, and their random string must show in no new output file nor in what
was printed) or written (the outside folder and the arena are listed before and after);
and a previous good build in the output folder stays byte for byte (every file hashed
before and after). The machine's failures (a full disk, a read-only output, a corrupt
font) end with a plain message naming the path and the cause. ``serve`` answers bad
request paths with 400 or 404 and dies with its parent; two builds into one output never
publish at once.

The exact words of the fixes are not known here: the tests hold the shape (the place, the
exit status, the path or the limit named), the kit (tests/security/attack_kit.py) the verdicts.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import socket
import threading
import time
from pathlib import Path

import pytest
from attack_kit import (
    CANARY_FONT,
    HANG_GUARD_S,
    LOCATED,
    ROOT,
    Arena,
    assert_clean_failure,
    first_error,
    kill_group,
    remount_read_only,
    small_content,
    snapshot,
    start,
)

pytestmark = pytest.mark.slow

GAME = "war"
SITE_INDEX = (ROOT / "templates" / "site" / "index.html.j2").read_text().split("\n")
BOOK = (ROOT / "templates" / "book" / "book.html.j2").read_text().split("\n")


# --------------------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def good(war_alone):
    """One small content folder (War alone, as ``small_content`` makes it) and a good build
    of it: the previous output every attack starts from (copied into each arena). The
    session's shared build of that content (conftest.py), which test_pdf.py starts from
    too: one build fewer."""
    content, output = war_alone
    assert GAME == "war" and (output / "pdf" / "war-rules.pdf").is_file()
    assert sorted(p.name for p in content.iterdir()) == ["index.yaml", "war"]
    return content, output


@pytest.fixture
def arena(tmp_path, good):
    """The content and the previous output, copied; the canaries outside."""
    a = Arena(tmp_path, content=good[0], output=good[1])
    yield a
    a.close()


@pytest.fixture
def bare(tmp_path):
    """The content alone (for attacks the check must refuse: no output needed)."""
    a = Arena(tmp_path, content=small_content(tmp_path / "src", GAME))
    shutil.rmtree(tmp_path / "src")
    a.before_beside = sorted(p.name for p in tmp_path.iterdir())
    yield a
    a.close()


def override(arena: Arena, name: str, attack: str) -> tuple[str, int]:
    """``content/templates/<name>``: the shipped template with ``attack`` on a line of its
    own (inside a block that renders); returns (the path in the content folder, the line)."""
    rel = f"templates/{name}"
    path = arena.content / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    attack = attack.replace("OUTSIDE", str(arena.outside))
    if name == "site/index.html.j2":
        lines, at = list(SITE_INDEX), 3  # after {% block body %}: line 4
    elif name == "book/book.html.j2":
        lines, at = list(BOOK), 1  # after the macro import: line 2
    else:
        raise ValueError(name)
    lines.insert(at, attack)
    path.write_text("\n".join(lines))
    return rel, at + 1


# --------------------------------------------------------------------------- the kit itself
def test_the_kit_sees_a_read_a_write_and_a_leak(tmp_path):
    """The verdicts can fail: a canary read by hand moves its access time, a file made
    outside is seen, the canary written into the output is found (in a PDF's text too),
    and an unlocated error or exit status 2 is refused."""
    from attack_kit import Result, assert_located

    a = Arena(tmp_path, content=small_content(tmp_path / "src", GAME))
    try:
        shutil.rmtree(tmp_path / "src")
        a.before_beside = sorted(p.name for p in tmp_path.iterdir())
        assert a.read_outside() == []
        (a.outside / "canary.txt").read_text()
        (a.outside / "made.txt").write_text("x")
        assert a.read_outside() == ["canary.txt", "made.txt (new)"]
        a.output.mkdir()
        (a.output / "page.html").write_text(f"<p>{a.canary}</p>")
        from weasyprint import HTML

        HTML(string=f"<p>{a.canary}</p>").write_pdf(a.output / "book.pdf")
        assert sorted(a.leaked_into("", a.canary)) == ["output/book.pdf", "output/page.html",
                                                        "printed (1)"]
        for code, err in ((2, "internal error: SecurityError: no\n"),
                          (1, "error: something, somewhere\n"),
                          (1, "content/other.yaml:1:1: error: elsewhere\n")):
            with pytest.raises(AssertionError):
                assert_located(Result(("check",), code, "", err, 0.1), a.dir, ["index.yaml"])
        assert_located(Result(("check",), 1, "", "content/index.yaml:3:7: error: no\n", 0.1),
                       a.dir, ["index.yaml"], line=3)
    finally:
        a.close()


# --------------------------------------------------------------------------- template powers
#: what a content template could reach: the site's ``pdf`` global holds a live Path
#: (``PdfLinks.pdf_dir``, builder/render/site/pages.py); the book's globals are functions and
#: a bound method of the fetcher (builder/render/book/pdf.py); Jinja adds lipsum, cycler,
#: joiner, namespace, range, dict and ``self``.
SITE_POWERS = {
    "path-read": "{{ pdf.pdf_dir.joinpath('OUTSIDE/canary.txt').read_text() }}",
    "path-read-bytes": "{{ pdf.pdf_dir.joinpath('OUTSIDE/canary.txt').read_bytes() }}",
    "path-write": "{{ pdf.pdf_dir.joinpath('OUTSIDE/written.txt').write_text('pwned') }}",
    "path-open": "{{ pdf.pdf_dir.joinpath('OUTSIDE/canary.txt').open().read() }}",
    "path-unlink": "{{ pdf.pdf_dir.joinpath('OUTSIDE/secret.yaml').unlink() }}",
    "path-listing": "{{ pdf.pdf_dir.joinpath('OUTSIDE').iterdir() | list }}",
    "path-mkdir": "{{ pdf.pdf_dir.joinpath('OUTSIDE/made').mkdir() }}",
    "format-attribute": "{{ '{0.pdf_dir}'.format(pdf) }}",
    "class": "{{ pdf.__class__ }}",
    "format-class": "{{ '{0.__class__}'.format(pdf) }}",
    "attr-filter": "{{ pdf | attr('__class__') }}",
    "lipsum-globals": "{{ lipsum.__globals__ }}",
    "cycler-globals": "{{ cycler.__init__.__globals__ }}",
    "self-dict": "{{ self.__dict__ }}",
    "range-self": "{{ range.__self__ }}",
    "mro": "{{ ''.__class__.__mro__ }}",
    "describe-globals": "{{ describe.__globals__ }}",
    "include-absolute": "{% include 'OUTSIDE/canary.txt' %}",
    "include-parent": "{% include '../../outside/canary.txt' %}",
}
BOOK_POWERS = {
    "format-class": "{{ '{0.__class__}'.format(book) }}",
    "attr-filter": "{{ book | attr('__class__') }}",
    "bound-method-self": "{{ diagram_id.__self__ }}",
    "function-globals": "{{ page_ref.__globals__ }}",
    "function-code": "{{ step_layout.__code__ }}",
    "include-absolute": "{% include 'OUTSIDE/canary.txt' %}",
}


@pytest.mark.build
@pytest.mark.parametrize("name", sorted(SITE_POWERS))
def test_a_site_template_has_no_powers(arena, name):
    rel, line = override(arena, "site/index.html.j2", SITE_POWERS[name])
    res = arena.build()
    arena.assert_refused(res, [rel], line=line)


@pytest.mark.build
@pytest.mark.parametrize("name", sorted(BOOK_POWERS))
def test_a_book_template_has_no_powers(arena, name):
    rel, line = override(arena, "book/book.html.j2", BOOK_POWERS[name])
    res = arena.build()
    arena.assert_refused(res, [rel], line=line)


# --------------------------------------------------------------------------- links
def link(arena: Arena, rel: str, target: str) -> None:
    path = arena.content / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_symlink() or path.exists():
        path.unlink()
    path.symlink_to(target.replace("OUTSIDE", str(arena.outside)))


def add_book(arena: Arena, lines: str) -> None:
    index = arena.content / "index.yaml"
    index.write_text(index.read_text() + "book:\n  title: The Book\n" + lines)


LINKS = {
    # (what to link, where to: OUTSIDE/... or a relative name), the paths the error may name
    "site-template": ([("templates/site/index.html.j2", "OUTSIDE/tpl/site/index.html.j2")],
                      ["templates/site/index.html.j2"]),
    "site-template-to-a-text": ([("templates/site/index.html.j2", "OUTSIDE/canary.txt")],
                                ["templates/site/index.html.j2"]),
    "site-partial": ([("templates/site/_table.html.j2", "OUTSIDE/canary.txt")],
                     ["templates/site/_table.html.j2"]),
    "site-stylesheet": ([("templates/site/site.css", "OUTSIDE/tpl/site/site.css")],
                        ["templates/site/site.css"]),
    "site-script": ([("templates/site/site.js", "OUTSIDE/canary.txt")],
                    ["templates/site/site.js"]),
    "site-mark": ([("templates/site/mark.svg", "OUTSIDE/logo.svg")],
                  ["templates/site/mark.svg"]),
    "book-stylesheet": ([("templates/book/book.css", "OUTSIDE/tpl/book/book.css")],
                        ["templates/book/book.css"]),
    "templates-folder": ([("templates", "OUTSIDE/tpl")], ["templates", "templates/"]),
    "site-folder": ([("templates/site", "OUTSIDE/tpl/site")],
                    ["templates/site", "templates/site/"]),
    "template-loop": ([("templates/site/index.html.j2", "index.html.j2")],
                      ["templates/site/index.html.j2"]),
    "template-loop-pair": ([("templates/site/index.html.j2", "game.html.j2"),
                            ("templates/site/game.html.j2", "index.html.j2")],
                           ["templates/site/index.html.j2", "templates/site/game.html.j2"]),
    "font": ([("fonts/text.otf", "OUTSIDE/font.otf")], ["index.yaml", "fonts/text.otf"]),
    "logo-svg": ([("logo.svg", "OUTSIDE/logo.svg")], ["index.yaml", "logo.svg"]),
    "logo-png": ([("logo.png", "OUTSIDE/art.png")], ["index.yaml", "logo.png"]),
}


@pytest.mark.build
@pytest.mark.parametrize("name", sorted(LINKS))
def test_no_link_leaves_the_content_folder(arena, name):
    made, paths = LINKS[name]
    for rel, target in made:
        link(arena, rel, target)
    if name == "font":
        add_book(arena, "  fonts:\n    text: {regular: fonts/text.otf}\n")
    elif name.startswith("logo-"):
        add_book(arena, f"  logo: {made[0][0]}\n")
    arena.before_beside = sorted(p.name for p in arena.dir.iterdir())
    res = arena.build()
    arena.assert_refused(res, paths)


# --------------------------------------------------------------------------- bounds
BOMBS = {
    "nested-loops": "{% set xs = range(99999) | list %}{% for a in xs %}{% for b in xs %}"
                    "{% for c in xs %}{% endfor %}{% endfor %}{% endfor %}",
    "huge-string": "{{ 'a' * 4000000000 }}",
    "doubling": "{% set ns = namespace(s='ab') %}{% for i in range(64) %}"
                "{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s | length }}",
    "range-bomb": "{{ range(99999999999) | list | length }}",
    "list-bomb": "{{ ((range(99999) | list) * 99999) | length }}",
    "recursion": "{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}",
}


@pytest.mark.build
@pytest.mark.parametrize("name", sorted(BOMBS))
def test_a_template_bomb_is_stopped(arena, name):
    """Stopped by the template limits within the hang guard (a guard, not a speed test),
    as a located error naming the template."""
    rel, _ = override(arena, "site/index.html.j2", BOMBS[name])
    res = arena.build()
    arena.assert_refused(res, [rel])
    assert res.seconds < HANG_GUARD_S


BROKEN = {
    # the line (of the override) where the problem is
    "syntax": (["{% for x in %}"], 4),
    "undefined": (["{{ no_such_name }}"], 4),
    "undefined-attribute": (["{{ games[0].no_such_field }}"], 4),
    "extends-itself": (None, 2),
}


def broken_template(arena: Arena, name: str) -> tuple[str, int]:
    attack, line = BROKEN[name]
    if attack is None:
        rel = "templates/site/index.html.j2"
        (arena.content / rel).parent.mkdir(parents=True, exist_ok=True)
        (arena.content / rel).write_text(
            "{# a template that extends itself #}\n{% extends \"site/index.html.j2\" %}\n"
            "{% block body %}x{% endblock %}\n")
        return rel, line
    rel, at = override(arena, "site/index.html.j2", attack[0])
    assert at == line
    return rel, line


@pytest.mark.build
@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_broken_template_is_located_by_build(arena, name):
    rel, line = broken_template(arena, name)
    res = arena.build()
    arena.assert_refused(res, [rel], line=line)


@pytest.mark.parametrize("name", sorted(set(BROKEN) - {"undefined-attribute"}))
def test_a_broken_template_is_located_by_check(bare, name):
    """The issue asks ``check`` for syntax errors, undefined names and self-extension (an
    attribute missing from a value is the build's to find: it needs the real values)."""
    rel, line = broken_template(bare, name)
    res = bare.check()
    bare.assert_refused(res, [rel], line=line)


# --------------------------------------------------------------------------- unbounded content
def long_example(steps: int) -> str:
    """A valid War example of ``steps`` tricks: a deal that cycles for ever (found by
    playing it on the engine; each trick returns the cards to a position already seen),
    stopped by the trick cap, set to ``steps``, on the last step."""
    return (f"id: war-long\ntitle: A very long game\nrules: [trick-cap]\noptions:\n"
            f"  max_tricks: {steps}\nsetup:\n  piles:\n    p1.deck: [8H, 7D, 3D]\n"
            f"    p2.deck: [9S, 6C, 2C, 4H]\nsteps:\n" + "  - {}\n" * (steps - 1)
            + "  - expect:\n      result: draw\n")


def big_glossary(size: int) -> str:
    """A valid glossary just under ``size`` bytes: distinct terms, plain definitions."""
    head = (ROOT / "content" / GAME / "glossary.yaml").read_text()
    parts, total, n = [head], len(head), 0
    while True:
        entry = (f"- term: Word {n:05d}\n  definition: The {n}th word of a glossary made "
                 "long on purpose; each entry is a plain sentence with nothing to link.\n"
                 "  see: [war]\n")
        if total + len(entry) > size:
            return "".join(parts)
        parts.append(entry)
        total += len(entry)
        n += 1


def test_the_long_example_is_valid_content(bare):
    """The generator's example is valid: 20 steps pass the check (so that the refusals
    below are about size alone)."""
    (bare.content / GAME / "examples" / "09-long.yaml").write_text(long_example(20))
    (bare.content / GAME / "glossary.yaml").write_text(big_glossary(20_000))
    res = bare.check()
    assert res.returncode == 0, res.summary()


UNBOUNDED = {
    "100000-steps": (lambda a: (a.content / GAME / "examples" / "09-long.yaml").write_text(
        long_example(100_000)), f"{GAME}/examples/09-long.yaml"),
    "1000-steps": (lambda a: (a.content / GAME / "examples" / "09-long.yaml").write_text(
        long_example(1_000)), f"{GAME}/examples/09-long.yaml"),
    "glossary-1.99-MB": (lambda a: (a.content / GAME / "glossary.yaml").write_text(
        big_glossary(1_990_000)), f"{GAME}/glossary.yaml"),
}


@pytest.mark.parametrize("name", sorted(UNBOUNDED))
def test_unbounded_valid_content_is_refused_by_check(bare, name):
    """``check`` refuses, quickly, with a located error naming the limit (a number)."""
    make, rel = UNBOUNDED[name]
    make(bare)
    res = bare.check()
    bare.assert_refused(res, [rel])
    m = LOCATED.match(first_error(res.stderr))
    assert re.search(r"\d", m["msg"]), f"the error names no limit: {m.group(0)!r}"


# --------------------------------------------------------------------------- silent loss
def test_a_file_where_the_examples_folder_belongs(bare):
    examples = bare.content / GAME / "examples"
    shutil.rmtree(examples)
    examples.write_text((ROOT / "content" / GAME / "examples" / "01-a-plain-trick.yaml")
                        .read_text())
    res = bare.check()
    bare.assert_refused(res, [f"{GAME}/examples"])


def test_a_folder_where_the_glossary_belongs(bare):
    glossary = bare.content / GAME / "glossary.yaml"
    glossary.unlink()
    glossary.mkdir()
    res = bare.check()
    bare.assert_refused(res, [f"{GAME}/glossary.yaml"])


@pytest.mark.parametrize("term", ["\u200b", "\u2060\u200c", "\u00ad", "\u200e"],
                         ids=["zero-width-space", "word-joiner-and-zwnj", "soft-hyphen",
                              "left-to-right-mark"])
def test_an_invisible_glossary_term(bare, term):
    glossary = bare.content / GAME / "glossary.yaml"
    text = glossary.read_text()
    line = text.count("\n") + 1
    glossary.write_text(text + f'- term: "{term}"\n  definition: Nothing to see.\n')
    res = bare.check()
    bare.assert_refused(res, [f"{GAME}/glossary.yaml"], line=line)


# --------------------------------------------------------------------------- the machine
def output_on(arena: Arena, spare: int) -> Path:
    """The previous output moved onto a tmpfs with ``spare`` bytes free beyond it (tmpfs
    counts whole pages: the size is rounded up)."""
    used = sum(p.stat().st_size + 4096 for p in arena.output.rglob("*"))
    disk = arena.mount("disk", str(used + spare))
    shutil.copytree(arena.output, disk / "output", symlinks=True)
    shutil.rmtree(arena.output)
    arena.output = disk / "output"
    arena.before_output = snapshot(arena.output)
    arena.before_beside = sorted(p.name for p in arena.dir.iterdir())
    return disk


@pytest.mark.build
def test_a_full_disk(arena):
    disk = output_on(arena, 2 << 20)
    res = arena.run("build", "--content", "content", "--out", "disk/output", "--clean")
    assert_clean_failure(res)
    assert re.search(r"no space left", res.stderr, re.I), res.summary()
    assert "disk" in res.stderr, f"the message names no path on the full disk\n{res.summary()}"
    arena.assert_nothing_leaked(res)
    arena.assert_output_unchanged()
    assert [p.name for p in disk.iterdir() if "lock" not in p.name] == ["output"]


@pytest.mark.build
def test_a_read_only_output(arena):
    disk = output_on(arena, 8 << 20)
    remount_read_only(disk)
    res = arena.run("build", "--content", "content", "--out", "disk/output", "--clean")
    assert_clean_failure(res)
    assert re.search(r"read-only", res.stderr, re.I), res.summary()
    assert "disk" in res.stderr, f"the message names no path\n{res.summary()}"
    arena.assert_nothing_leaked(res)
    arena.assert_output_unchanged()


def corrupt_font(dest: Path) -> None:
    """Cabin with its glyph table (CFF) garbled past its first third: the header
    and names still read, the charstrings do not."""
    from fontTools.ttLib import TTFont

    data = bytearray(CANARY_FONT.read_bytes())
    table = TTFont(str(CANARY_FONT)).reader.tables["CFF "]
    for i in range(table.offset + table.length // 3, table.offset + table.length - 16, 7):
        data[i] ^= 0xFF
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_bytes(bytes(data))


def test_a_corrupt_font_is_refused_by_check(bare):
    corrupt_font(bare.content / "fonts" / "text.otf")
    add_book(bare, "  fonts:\n    text: {regular: fonts/text.otf}\n")
    res = bare.check()
    bare.assert_refused(res, ["index.yaml", "fonts/text.otf"])


@pytest.mark.build
def test_a_corrupt_font_fails_the_build_cleanly(arena):
    corrupt_font(arena.content / "fonts" / "text.otf")
    add_book(arena, "  fonts:\n    text: {regular: fonts/text.otf}\n")
    res = arena.build()
    arena.assert_refused(res, ["index.yaml", "fonts/text.otf"])


# --------------------------------------------------------------------------- serve
class Serving:
    """A real ``warbook serve`` of an arena on 127.0.0.1; its terminal read by a thread."""

    def __init__(self, arena: Arena, port: int = 0):
        self.proc = start(("serve", "--content", "content", "--out", "output", "--port",
                           str(port)), arena.dir)
        self.lines: list[str] = []
        self.url = None
        for stream in (self.proc.stdout, self.proc.stderr):
            threading.Thread(target=self.pump, args=(stream,), daemon=True).start()

    def pump(self, stream) -> None:
        for line in stream:
            self.lines.append(line)
            m = re.search(r"at (http://127\.0\.0\.1:(\d+)/)", line)
            if m:
                self.url, self.port = m.group(1), int(m.group(2))

    def wait_ready(self, guard: float = HANG_GUARD_S) -> None:
        end = time.monotonic() + guard
        while self.url is None:
            assert self.proc.poll() is None, "serve ended: " + "".join(self.lines)
            assert time.monotonic() < end, "serve never served: " + "".join(self.lines)
            time.sleep(0.1)

    def children(self) -> list[int]:
        pids = []
        for task in Path(f"/proc/{self.proc.pid}/task").glob("*"):
            try:
                pids += [int(p) for p in (task / "children").read_text().split()]
            except OSError:
                pass
        return pids

    def terminal(self) -> str:
        return "".join(self.lines)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except Exception:  # noqa: BLE001 - then by force
                pass
        kill_group(self.proc)
        self.proc.wait()


def raw_status(port: int, target: bytes) -> int | None:
    """The status of ``GET <target>`` sent byte for byte (http.client would refuse the
    bad ones); None when the server closed without answering."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(b"GET " + target + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        data = b""
        while b"\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    m = re.match(rb"HTTP/1\.[01] (\d{3})", data)
    return int(m.group(1)) if m else None


BAD_PATHS = {
    "nul": b"/site/index\x00.html",
    "percent-nul": b"/site/index%00.html",
    "percent-nul-alone": b"/%00",
    "overlong-name": b"/site/" + b"a" * 8000 + b".html",
    "overlong-path": b"/site/" + b"ab/" * 2500 + b"x.html",
    "bad-percent": b"/site/%E0%A4%A.html",
    "bad-percent-2": b"/site/%ZZindex.html",
    "bad-utf8": b"/site/%FF%FE.html",
    "manifest": b"/.warbook-build.json",
    "manifest-encoded": b"/%2Ewarbook-build.json",
    "manifest-through-site": b"/site/../.warbook-build.json",
    "dot-file": b"/site/.hidden",
    "dot-folder": b"/.git/config",
}


@pytest.mark.build
def test_serve_answers_bad_requests_without_a_traceback(arena):
    (arena.output / "site" / ".hidden").write_text(arena.canary)
    arena.before_output = snapshot(arena.output)
    server = Serving(arena)
    try:
        server.wait_ready()
        got = {name: raw_status(server.port, target) for name, target in BAD_PATHS.items()}
        ok = raw_status(server.port, b"/site/index.html")
    finally:
        server.stop()
    wrong = {n: s for n, s in got.items() if s not in (400, 404)}
    assert not wrong, f"not 400 or 404: {wrong}\n{server.terminal()[-3000:]}"
    assert ok == 200, "serve stopped serving after the bad requests"
    assert "Traceback" not in server.terminal(), server.terminal()[-3000:]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[-1][0] != "Z"
    except OSError:
        return False


@pytest.mark.build
def test_serve_killed_with_sigkill_frees_its_port(arena):
    port = free_port()
    first = Serving(arena, port)
    children: list[int] = []
    second = None
    try:
        first.wait_ready()
        children = first.children()
        assert children, "serve has no server process"
        os.kill(first.proc.pid, signal.SIGKILL)
        first.proc.wait()
        end = time.monotonic() + 5
        while any(alive(p) for p in children) and time.monotonic() < end:
            time.sleep(0.1)
        orphans = [p for p in children if alive(p)]
        second = Serving(arena, port)
        end, answered = time.monotonic() + 10, None
        while time.monotonic() < end and second.proc.poll() is None:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("GET", "/site/index.html")
                answered = conn.getresponse().status  # any answer: it listens
                break
            except OSError:
                time.sleep(0.2)
        time.sleep(0.5)
        refused = second.proc.poll() is not None
        assert not orphans, f"serve's server process outlived kill -9 of serve: {orphans}"
        assert not refused and answered is not None, \
            f"a new serve on port {port} did not serve within 10 s: {second.terminal()}"
    finally:
        for pid in children:  # the orphans of the serve this test started
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        if second is not None:
            second.stop()
        first.stop()


# --------------------------------------------------------------------------- two builds
@pytest.mark.build
def test_two_builds_into_one_output(arena, good):
    """Started together into one output: one stops with a clear message, or waits and
    says so; never two silent publishers. The final output is whole: the good build's
    files, each of the size its manifest records, nothing staged left behind."""
    args = ("build", "--content", "content", "--out", "output", "--clean")
    procs = [start(args, arena.dir) for _ in range(2)]
    outs = []
    for p in procs:
        try:
            out, err = p.communicate(timeout=300)
        finally:
            kill_group(p)
        outs.append((p.returncode, out, err))
    for code, out, err in outs:
        assert "Traceback" not in err and "internal error" not in err, err
        assert code in (0, 1), err
    said = [bool(re.search(r"lock|another build|busy|in use|wait|already", out + err, re.I))
            for code, out, err in outs]
    assert any(code == 0 for code, _, _ in outs), outs
    assert any(said), "two builds into one output both ran without a word: " \
                      + " | ".join(out[-300:] + err[-300:] for _, out, err in outs)
    for (code, out, err), spoke in zip(outs, said):
        if code == 1:
            assert spoke, f"the build that stopped did not say why: {err}"
    manifest = json.loads((arena.output / ".warbook-build.json").read_text())
    listed = {name: size for unit in manifest["units"].values()
              for name, (size, _) in unit["files"].items()}
    files = {str(p.relative_to(arena.output)) for p in arena.output.rglob("*") if p.is_file()}
    wanted = {str(p.relative_to(good[1])) for p in good[1].rglob("*") if p.is_file()}
    assert {f for f in files if "lock" not in f} == wanted
    for name, size in listed.items():
        assert (arena.output / name).stat().st_size == size, name
    assert not [p.name for p in arena.dir.iterdir() if "staging" in p.name]
