"""Fuzzing as an attacker (issue 22): the attacker's classes, what someone who controls a
content folder can put in it beyond text (template powers, links in every file kind, broken
templates, template and content-size bombs), each case drawn from a seed of its own over one
small game (War), with a folder ``outside`` holding canary files; and request paths drawn
against one real ``warbook serve``. 80 cases in forked children with soft limits, and 200
request paths.

The seeds are apart from the content mutations' (tests/security/test_fuzz.py), so those
draws stay as they were; the oracle extends theirs (see the section comment below).
"""

from __future__ import annotations

import os
import random
import re
import shutil
import signal
import tempfile
import time
from pathlib import Path

import pytest
from attack_kit import HANG_GUARD_S, ROOT, lines_of, put, unsafe_links

from builder.check import run_check

# =========================================================================== issue 22
# The attacker's classes: what someone who controls a content folder can put in it beyond
# text. Each case is drawn from its own seed over one small game (War) with a folder
# ``outside`` beside the content holding canary files (a unique random string); the old
# catalogue's draws above stay as they were.
#
# - template powers: a content template reaching Python objects (live paths, function
#   globals, ``__class__`` through format and attr, includes of files outside);
# - links in every file kind: templates, stylesheets, site assets, the templates folder,
#   fonts, logos, index.yaml, the examples folder, the game folder, out of the content
#   folder or in a loop;
# - broken templates: a shipped template cut, doubled, re-ordered or given a syntax error,
#   an undefined name, a missing include, itself as its parent;
# - resource bombs in templates (loops, huge strings, doubling, range and list bombs,
#   recursion) and in content sizes (examples of thousands of steps, glossaries near the
#   2 MB file limit, hundreds of examples).
#
# The oracle is the one above, extended: the check refuses with located errors (one in the
# mutated file), or the products the mutation touches (the site; the rulebooks' and the
# sheets' HTML) render without an error, or their rendering refuses with an error located
# in the mutated file; and in every case nothing from outside shows in what was rendered,
# nothing outside was written, and the case ends within the guard. Each case runs in a
# forked child with soft limits (4 GiB of address space, 256 MiB per file), so that a bomb
# the code does not stop fails the case, never the test run. Serve requests are drawn
# against one real ``warbook serve``.

ATTACK_SEEDS = range(5000, 5080)
ATTACK_GAME = "war"
CHILD_AS = 4 << 30
CHILD_FSIZE = 256 << 20
LOCATED_ANYWHERE = re.compile(r"(?m)(?P<path>[^\s:'\"]+):(?P<line>\d+):(?P<col>\d+): error: ")

#: Jinja's own globals and the names each product's templates receive
JINJA_GLOBALS = ["range", "lipsum", "cycler", "joiner", "namespace", "dict", "self"]
CONTEXT_NAMES = {"site": ["pdf", "games", "nav", "page_name", "describe", "short_title"],
                 "book": ["book", "games", "example_height", "diagram_id", "page_ref",
                          "step_layout", "comment_below", "example_columns",
                          "column_layout", "setup_in_columns", "opening_beside", "spans_columns", "column_runs"],
                 "components": ["doc", "sheets"]}
POWER_FORMS = [
    "{{ X.__class__ }}", "{{ '{0.__class__}'.format(X) }}", "{{ X | attr('__class__') }}",
    "{{ X.__init__.__globals__ }}", "{{ X.__globals__ }}", "{{ X.__self__ }}",
    "{{ X.__dict__ }}", "{{ X.__reduce_ex__(2) }}", "{{ (X | attr('__class__')).__mro__ }}",
    "{{ '{0.__init__.__globals__}'.format(X) }}", "{{ X.__class__.__base__.__subclasses__() }}",
    "{{ '%s' % X.__class__ }}", "{{ X['__class__'] }}", "{{ X.mro() }}",
]
SITE_PATH_POWERS = [
    "{{ pdf.pdf_dir.joinpath('OUTSIDE/canary.txt').read_text() }}",
    "{{ pdf.pdf_dir.joinpath('OUTSIDE/canary.txt').read_bytes() }}",
    "{{ pdf.pdf_dir.joinpath('OUTSIDE/canary.txt').open().read() }}",
    "{{ pdf.pdf_dir.joinpath('OUTSIDE/written.txt').write_text('pwned') }}",
    "{{ pdf.pdf_dir.joinpath('OUTSIDE/canary.txt').unlink() }}",
    "{{ pdf.pdf_dir.joinpath('OUTSIDE').iterdir() | list }}",
    "{{ pdf.pdf_dir.parent.parent.joinpath('outside', 'canary.txt').read_text() }}",
    "{{ '{0.pdf_dir}'.format(pdf) }}",
    "{% for p in pdf.pdf_dir.joinpath('OUTSIDE').glob('*') %}{{ p.read_text() }}{% endfor %}",
]
INCLUDES = ["{% include 'OUTSIDE/canary.txt' %}", "{% include '../../outside/canary.txt' %}",
            "{% import 'OUTSIDE/canary.txt' as x %}", "{% extends 'OUTSIDE/canary.txt' %}",
            "{% include 'site/../../outside/canary.txt' %}"]
TEMPLATE_BOMBS = [
    "{% set xs = range(99999) | list %}{% for a in xs %}{% for b in xs %}{% endfor %}"
    "{% endfor %}",
    "{{ 'a' * 4000000000 }}",
    "{% set ns = namespace(s='ab') %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}"
    "{% endfor %}{{ ns.s | length }}",
    "{{ range(99999999999) | list | length }}",
    "{{ ((range(99999) | list) * 99999) | length }}",
    "{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}",
    "{{ 'x' | center(3000000000) }}",
    "{{ (('a' * 99999) * 99999) | length }}",
]
BROKEN_LINES = ["{% for x in %}", "{{ no_such_name }}", "{{ games[0].no_such_field }}",
                "{% include 'site/no-such.html.j2' %}", "{% endblock %}", "{% if %}",
                "{{ 1 / 0 }}", "{% block body %}", "{{ }}", "{% raw %}"]
#: where a line may be put in a shipped template so that it renders (inside a block of a
#: template that extends another; anywhere in one that does not)
TEMPLATE_SPOTS = {"site/index.html.j2": 3, "site/game.html.j2": 85, "site/search.html.j2": None,
                  "book/book.html.j2": 1, "book/front.html.j2": None,
                  "components/sheets.html.j2": 1}
LINKABLE = ["site/index.html.j2", "site/game.html.j2", "site/_base.html.j2",
            "site/_table.html.j2", "site/site.css", "site/site.js", "site/search.js",
            "site/theme.js", "site/mark.svg", "site/lunr.min.js", "book/book.html.j2",
            "book/_game.html.j2", "book/book.css", "shared/_diagram.html.j2",
            "components/sheets.html.j2", "components/components.css"]


def kind_of(template: str) -> str:
    kind = template.split("/")[0]
    return {"shared": "site"}.get(kind, kind)


def attack_content(tmp: Path) -> tuple[Path, Path, str]:
    """``tmp/content`` (War alone) and ``tmp/outside`` with its canaries; returns (the
    content folder, the outside folder, the canary string)."""
    root = tmp / "content"
    root.mkdir(parents=True)
    shutil.copytree(ROOT / "content" / ATTACK_GAME, root / ATTACK_GAME)
    (root / "index.yaml").write_text(f"games: [{ATTACK_GAME}]\n")
    outside = tmp / "outside"
    canary = f"warbook-canary-{random.Random(str(tmp)).getrandbits(64):016x}"
    (outside / "tpl" / "site").mkdir(parents=True)
    (outside / "tpl" / "book").mkdir(parents=True)
    (outside / "tpl" / "components").mkdir(parents=True)
    (outside / "tpl" / "shared").mkdir(parents=True)
    (outside / "canary.txt").write_text(canary + "\n")
    for name in LINKABLE:
        (outside / "tpl" / name).write_text(f"<p>{canary}</p>\n" if name.endswith(".j2") else
                                            f"/* {canary} */\n")
    (outside / "secret.yaml").write_text(f"id: {canary}\ntitle: {canary}\n")
    (outside / "logo.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="9" '
                                      f'height="9"><title>{canary}</title></svg>\n')
    (outside / "font.otf").write_bytes(Path(
        "/usr/share/fonts/opentype/cabin/Cabin-Regular.otf").read_bytes())
    return root, outside, canary


def shipped_template(root: Path, name: str) -> Path:
    """A copy of the shipped template ``name`` as the content's override."""
    path = root / "templates" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        shutil.copyfile(ROOT / "templates" / name, path)
    return path


def put_line(root: Path, name: str, line: str, rng) -> Path:
    path = shipped_template(root, name)
    lines = lines_of(path)
    spot = TEMPLATE_SPOTS.get(name)
    at = spot if spot is not None else rng.randrange(1, len(lines))
    lines.insert(at, line)
    put(path, lines)
    return path


def a_template_power(rng, root, outside):
    name = rng.choice(sorted(TEMPLATE_SPOTS))
    kind = kind_of(name)
    pick = rng.random()
    if kind == "site" and pick < 0.35:
        line = rng.choice(SITE_PATH_POWERS)
    elif pick < 0.5:
        line = rng.choice(INCLUDES)
    else:
        line = rng.choice(POWER_FORMS).replace(
            "X", rng.choice(CONTEXT_NAMES[kind] + JINJA_GLOBALS + ["''", "()", "[]"]))
    return put_line(root, name, line.replace("OUTSIDE", str(outside)), rng)


def a_template_bomb(rng, root, outside):
    name = rng.choice(["site/index.html.j2", "book/book.html.j2", "components/sheets.html.j2"])
    return put_line(root, name, rng.choice(TEMPLATE_BOMBS), rng)


def a_broken_template(rng, root, outside):
    name = rng.choice(sorted(TEMPLATE_SPOTS) + ["site/_base.html.j2", "book/_game.html.j2"])
    path = shipped_template(root, name)
    lines = lines_of(path)
    how = rng.randrange(5)
    i = rng.randrange(len(lines))
    if how == 0:
        lines.insert(i, rng.choice(BROKEN_LINES))
    elif how == 1:
        del lines[i]
    elif how == 2:
        lines.insert(i, lines[i])
    elif how == 3:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    else:
        lines = [f'{{% extends "{name}" %}}'] + lines
    put(path, lines)
    return path


def a_link(rng, root, outside):
    """A link out of the content folder (or a loop) in one file kind."""
    game = root / ATTACK_GAME
    what = rng.randrange(9)
    if what <= 2:  # a template or a static file of the templates
        name = rng.choice(LINKABLE)
        path = root / "templates" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        target = rng.choice([outside / "tpl" / name, outside / "canary.txt", Path(path.name)])
        path.symlink_to(target)
        return path
    if what == 3:  # a whole templates folder, or one kind of it
        sub = rng.choice(["", "site", "book", "components"])
        path = root / "templates" / sub if sub else root / "templates"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.symlink_to(outside / "tpl" / sub if sub else outside / "tpl")
        return path
    if what == 4:  # a font
        (root / "fonts").mkdir()
        path = root / "fonts" / "text.otf"
        path.symlink_to(outside / "font.otf")
        (root / "index.yaml").write_text(f"games: [{ATTACK_GAME}]\nbook:\n  title: T\n"
                                         "  fonts:\n    text: {regular: fonts/text.otf}\n")
        return path
    if what == 5:  # a logo
        path = root / "logo.svg"
        path.symlink_to(outside / "logo.svg")
        (root / "index.yaml").write_text(f"games: [{ATTACK_GAME}]\nbook:\n  title: T\n"
                                         "  logo: logo.svg\n")
        return path
    if what == 6:  # index.yaml itself
        path = root / "index.yaml"
        (outside / "index.yaml").write_text(f"games: [{ATTACK_GAME}]\nbook:\n"
                                            f"  title: {outside.name}\n")
        path.unlink()
        path.symlink_to(outside / "index.yaml")
        return path
    if what == 7:  # the examples folder
        path = game / "examples"
        shutil.copytree(path, outside / "examples")
        shutil.rmtree(path)
        path.symlink_to(outside / "examples")
        return path
    path = game / rng.choice(["rules.md", "glossary.yaml", "game.yaml",
                              "examples/01-a-plain-trick.yaml"])
    path.unlink()
    path.symlink_to(rng.choice([outside / "secret.yaml", outside / "canary.txt",
                                Path(path.name)]))
    return path


def long_war_example(steps: int) -> str:
    """A valid War example of ``steps`` tricks: a deal that cycles for ever (checked on the
    engine), stopped by the trick cap on its last step."""
    return (f"id: war-long\ntitle: A very long game\nrules: [trick-cap]\noptions:\n"
            f"  max_tricks: {steps}\nsetup:\n  piles:\n    p1.deck: [8H, 7D, 3D]\n"
            f"    p2.deck: [9S, 6C, 2C, 4H]\nsteps:\n" + "  - {}\n" * (steps - 1)
            + "  - expect:\n      result: draw\n")


def a_content_size(rng, root, outside):
    """Valid content past the limits the issue asks for (1,000 steps, a 1.99 MB glossary,
    examples per game): the check must refuse it, whatever the limits' exact values."""
    game = root / ATTACK_GAME
    what = rng.randrange(3)
    if what == 0:
        path = game / "examples" / "09-long.yaml"
        path.write_text(long_war_example(rng.choice([1000, 5000, 100_000])))
        return path
    if what == 1:
        path = game / "glossary.yaml"
        size = 1_990_000
        parts, n = [path.read_text()], 0
        while sum(map(len, parts)) < size - 200:
            parts.append(f"- term: Word {n:05d}\n  definition: The {n}th word, long on "
                         "purpose; a plain sentence with nothing to link.\n  see: [war]\n")
            n += 1
        path.write_text("".join(parts))
        return path
    source = (game / "examples" / "01-a-plain-trick.yaml").read_text()
    for i in range(3000):  # well past any limit on examples per game
        (game / "examples" / f"9{i:04d}-copy.yaml").write_text(
            source.replace("id: war-plain-trick", f"id: war-copy-{i}"))
    return game / "examples"


ATTACKS = [a_template_power] * 5 + [a_link] * 4 + [a_broken_template] * 3 \
    + [a_template_bomb, a_content_size]


def render_touched(report, tmp: Path, kinds: set[str]) -> list[tuple[str, str]]:
    """Render what the mutation can touch, with the content's templates: ``book`` (the
    rulebooks' and the front matter's HTML), ``components`` (the sheets' HTML), ``site``
    (the whole website); returns (kind, text) of everything rendered."""
    from builder.render.book.pdf import BookRenderer
    from builder.render.pnp.document import Renderer
    from builder.render.pnp.kinds import game_sheets
    from builder.render.site.pages import render_site
    from builder.render.templating import overrides_of
    from builder.settings import PAPERS, Settings

    texts = []
    templates = overrides_of(report.content.root)
    settings = Settings(content_root=Path(report.content.root), output=tmp / "out")
    if "book" in kinds:
        books = BookRenderer(settings, templates=templates)
        texts += [("book", books.book_html(gr)[1]) for gr in report.games]
        texts.append(("book", books.front_html([books.view(gr) for gr in report.games],
                                               report.content.intro, report.content.book)))
    if "components" in kinds:
        sheets = Renderer(PAPERS["a4"], templates=templates)
        for gr in report.games:
            made = game_sheets(sheets, gr.game, PAPERS["a4"])[0]
            texts.append(("components", sheets.env.get_template(
                "components/sheets.html.j2").render(
                doc={"title": "t", "author": "a", "subject": "s", "keywords": "k",
                     "version": "0", "low": False}, sheets=made)))
    if "site" in kinds:
        site = render_site(report, tmp / "out", settings)
        for p in site.rglob("*"):
            if p.is_file() and p.suffix in (".html", ".css", ".js", ".svg", ".xml", ".txt"):
                texts.append(("site", p.read_text(errors="replace")))
    return texts


def kinds_touched(rel: str) -> set[str]:
    """The products a mutated path can change (``content/templates/site/...``: the site)."""
    parts = Path(rel).parts
    if len(parts) > 2 and parts[1] == "templates":
        return {"shared": {"site", "book"}}.get(parts[2], {parts[2]} if parts[2] in
                                                ("site", "book", "components") else set())
    if len(parts) == 2 and parts[1] == "templates":
        return {"site", "book", "components"}
    return {"site", "book"}


def located_in(e: BaseException, related: set[str]) -> bool:
    """An error raised while rendering counts as a refusal when it is located in the
    mutated file: a Diagnostic (or anything with ``path`` and ``line``), a list of them
    (``diagnostics``), or text holding ``path:line:col: error:``."""
    found = []
    for d in [e] + list(getattr(e, "diagnostics", None) or []):
        if getattr(d, "path", None) is not None and getattr(d, "line", None) is not None:
            found.append(str(d.path))
    found += [m["path"] for m in LOCATED_ANYWHERE.finditer(str(e))]
    found = [os.path.relpath(p) if os.path.isabs(p) else os.path.normpath(p) for p in found]
    return any(p in related or p.startswith(tuple(r + "/" for r in related)) for p in found)


def outside_listing(outside: Path) -> dict[str, tuple]:
    return {str(p.relative_to(outside)): (p.lstat().st_size, p.lstat().st_mtime_ns)
            for p in sorted(outside.rglob("*"))}


def attack_case(seed: int, tmp: Path) -> tuple[str, str | None]:
    """Run one attack case in this process; returns (what it did, the failure or None)."""
    rng = random.Random(seed)
    mutate = rng.choice(ATTACKS)
    root, outside, canary = attack_content(tmp)
    mutated = mutate(rng, root, outside)
    before = outside_listing(outside)
    rel = str(Path("content") / mutated.relative_to(root))
    what = f"seed {seed}: {mutate.__name__} on {mutated.relative_to(root)}"
    related = {rel, str(Path(rel).parent)} - {"content"}  # never "anywhere in the folder"
    if mutated.name == "index.yaml" or mutated.parent.name == "fonts" or \
            mutated.name.startswith("logo"):
        related.add("content/index.yaml")  # where the font or logo is named
    if rel.startswith("content/templates"):  # a template's error may show where it is used
        related.add("content/templates")
    os.chdir(tmp)
    report = run_check(Path("content"))
    texts = []
    if report.ok and mutate is a_content_size:
        return what, "the check accepted content past the limits (it must name one)"
    if not report.ok:
        errors = report.diagnostics.errors
        if not errors:
            return what, "the check failed without an error"
        for d in errors:
            if not ((tmp / d.path).exists() or (tmp / d.path).is_symlink()):
                return what, f"error in no file: {d.format()[:200]}"
        if not any(d.path in related or d.path.startswith(tuple(r + "/" for r in related))
                   for d in errors):
            return what, f"no error in the mutated file: {[d.format()[:120] for d in errors]}"
    else:
        try:
            texts = render_touched(report, tmp, kinds_touched(rel))
        except Exception as e:  # noqa: BLE001 - judged: located in the mutated file, or not
            if not located_in(e, related):
                return what, f"rendering raised {type(e).__name__}: {str(e)[:200]}"
    for kind, text in texts:
        if canary in text:
            return what, f"the canary from outside the content folder was rendered ({kind})"
        # the books' HTML goes only to WeasyPrint: card:, diagram: and warbook-dest: are its own
        own = () if kind == "site" else ("card", "diagram", "warbook-dest")
        bad = unsafe_links(text, ("http", "https", "mailto") + own)
        if bad:
            return what, f"unsafe link: {bad[0]}"
    if outside_listing(outside) != before:
        return what, "a file outside the content folder was written or removed"
    return what, None


def run_attack_case(seed: int) -> tuple[str, str | None]:
    """One case in a forked child with soft limits and the hang guard."""
    import json
    import resource
    import select

    with tempfile.TemporaryDirectory() as tmp_name:
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: never returns into pytest
            status = 0
            try:
                os.close(read_end)
                for which, soft in ((resource.RLIMIT_AS, CHILD_AS),
                                    (resource.RLIMIT_FSIZE, CHILD_FSIZE)):
                    hard = resource.getrlimit(which)[1]
                    if hard == resource.RLIM_INFINITY or hard > soft:
                        resource.setrlimit(which, (soft, hard))
                try:
                    result = attack_case(seed, Path(tmp_name))
                except BaseException as e:  # noqa: BLE001 - reported to the parent
                    result = (f"seed {seed}", f"{type(e).__name__}: {str(e)[:200]}")
                os.write(write_end, json.dumps(result).encode())
            except BaseException:  # noqa: BLE001
                status = 1
            finally:
                os._exit(status)
        os.close(write_end)
        data, end = b"", time.monotonic() + HANG_GUARD_S
        try:
            while time.monotonic() < end:
                ready, _, _ = select.select([read_end], [], [], max(0.0, end - time.monotonic()))
                if not ready:
                    break
                chunk = os.read(read_end, 65536)
                if not chunk:
                    break
                data += chunk
        finally:
            os.close(read_end)
            done, _ = os.waitpid(pid, os.WNOHANG)
            if not done:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
        if not data:
            return f"seed {seed}", f"no answer within {HANG_GUARD_S} s (or the case died)"
        what, failure = json.loads(data)
        return what, failure



def warm_up() -> None:
    """Render the unmutated content once in this process, so that every forked case
    starts with the card art, fonts and modules loaded (copy-on-write)."""
    old = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        attack_content(tmp)
        os.chdir(tmp)
        try:
            report = run_check(Path("content"))
            assert report.ok, [d.format() for d in report.diagnostics.errors]
            render_touched(report, tmp, {"site", "book", "components"})
        finally:
            os.chdir(old)


@pytest.mark.slow
def test_attack_mutations():
    """80 seeded attacks of the new classes, each judged by the oracle above."""
    warm_up()
    failures = []
    for seed in ATTACK_SEEDS:
        what, failure = run_attack_case(seed)
        if failure:
            failures.append(f"{what}: {failure}")
    assert not failures, f"{len(failures)} of {len(ATTACK_SEEDS)} attacks:\n" + "\n".join(failures)


# --------------------------------------------------------------------------- serve requests
REQUEST_PIECES = ["site", "pdf", "..", ".", "", ".warbook-build.json", "%2e%2e", "%2E",
                  "%2f", "%5c", "\\", "%00", "\x00", "%", "%E0%A4%A", "%ZZ", "%FF%FE", "%C0%AF",
                  "index.html", ".hidden", "a" * 300, "~", "%20", "?x=%00", "#f", "%0d%0a",
                  "search.html", "assets", "..%2f", "%252e%252e"]


def fuzz_request(rng) -> bytes:
    parts = [rng.choice(REQUEST_PIECES) for _ in range(rng.randrange(1, 8))]
    path = "/" + "/".join(parts)
    if rng.random() < 0.05:
        path += "x" * rng.choice([5000, 20_000])
    return path.encode("utf-8", errors="surrogateescape")


@pytest.mark.slow
def test_serve_requests(tmp_path: Path):
    """200 seeded request paths against one real ``warbook serve`` (its content fails the
    check at once, so it serves the folder as it is): each answered 200 only for a file
    of the output that is not a dot-file, else 3xx, 400, 404 or 414; never the manifest or
    a dot-file; no traceback in its terminal; still serving at the end."""
    import socket
    import subprocess
    import sys
    import threading

    content = tmp_path / "content"
    (content / ATTACK_GAME).mkdir(parents=True)
    (content / ATTACK_GAME / "game.yaml").write_text("slug: [broken\n")
    (content / "index.yaml").write_text(f"games: [{ATTACK_GAME}]\n")
    out = tmp_path / "output"
    (out / "site").mkdir(parents=True)
    (out / "pdf").mkdir()
    (out / "site" / "index.html").write_text("<html><body>index</body></html>")
    (out / "site" / ".hidden").write_text("hidden")
    (out / ".warbook-build.json").write_text('{"secret": true}')
    (out / "pdf" / "x.pdf").write_bytes(b"%PDF-1.4")
    proc = subprocess.Popen([sys.executable, "-m", "builder", "serve", "--content", "content",
                             "--out", "output", "--port", "0"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            errors="replace", start_new_session=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    lines: list[str] = []
    found: list[int] = []

    def pump():
        for line in proc.stdout:
            lines.append(line)
            m = re.search(r"at http://127\.0\.0\.1:(\d+)/", line)
            if m:
                found.append(int(m.group(1)))
    threading.Thread(target=pump, daemon=True).start()
    wrong = []
    try:
        end = time.monotonic() + HANG_GUARD_S
        while not found:
            assert proc.poll() is None and time.monotonic() < end, "".join(lines)
            time.sleep(0.1)
        port = found[0]
        rng = random.Random(22)
        for _ in range(200):
            target = fuzz_request(rng)
            with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
                s.sendall(b"GET " + target + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                data = b""
                while True:
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    data += chunk
            m = re.match(rb"HTTP/1\.[01] (\d{3})", data)
            status = int(m.group(1)) if m else None
            body = data.split(b"\r\n\r\n", 1)[-1]
            if status == 200 and (b"secret" in body or b"hidden" in body):
                wrong.append((target[:80], "served the manifest or a dot-file"))
            elif status not in (200, 301, 302, 304, 400, 404, 414):
                wrong.append((target[:80], status))
        with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
            s.sendall(b"GET /site/index.html HTTP/1.0\r\n\r\n")
            still = s.recv(100)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        finally:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    terminal = "".join(lines)
    assert not wrong, f"{len(wrong)} of 200 requests: {wrong[:20]}"
    assert still.startswith(b"HTTP/1.0 200"), still
    assert "Traceback" not in terminal, terminal[-3000:]
