"""Fuzzing the content (issue 13): seeded single mutations of a copy of the shipped content
(War; Battle, the game with chance steps; Ultimate, with a score track and a mat), drawn from the catalogue of the issue: hostile
YAML (control characters, bytes that are not UTF-8, complex keys, nesting, huge or tagged
numbers, alias bombs, wrong types in every field), broken lines (deleted, doubled, moved,
re-indented, cut short), pathological Markdown (long runs of spaces, thousands of '[[',
links to javascript: and pictures), and the file system (FIFOs, links out of the folder,
link loops, folders where files belong).

For every mutation: the check returns (no exception: the CLI would print "internal error"
with exit status 2, which counts as a failure here) within a generous guard against hangs;
an input it refuses has at least one error, each located in a real file of the content
folder with a line and column inside it, one of them in the mutated file; an input it
accepts really is harmless: the rulebooks' HTML, the component sheets' layout and the
website render without an error, and no generated href or src carries a scheme other than
http, https or mailto.

The slow run draws 300 mutations (a couple of minutes); the inner loop runs a fixed sample.
Issue 22's attacker classes (template powers, links in every file kind, broken templates,
template and content-size bombs, serve requests) are drawn from seeds of their own, so the
draws above stay as they were: 80 cases in forked children with soft limits, and 200
request paths against one real ``warbook serve`` (see the section at the end).
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

from builder.check import run_check

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("war", "battle", "ultimate")
#: a guard against a hang, never a speed check: the slowest mutation takes well under 5 s
HANG_GUARD_S = 60


# --------------------------------------------------------------------------- the catalogue
HOSTILE_VALUES = [
    "[[x]]", "[[QS]]", "{a: b}", "[]", "{}", "5", "-1", "0", "1e3", "'1e3'", "'4'", ".nan",
    ".inf", "-.inf", "!!int abc", "!!float x", "!!pairs [a: 1]", "!!set {a}", "!!binary aGk=",
    "!!omap [a: 1]", "9" * 5001, "1000000000000", "10000000000000000000000000000000",
    "true", "null", "''", "'   '", "~", "2024-01-01", "!foo bar", "*nowhere", "&a x",
    "'" + "x" * 100_000 + "'", "[" * 1000 + "]" * 1000, "{a: " * 300 + "1" + "}" * 300,
    "'[x](javascript:alert(1))'", "'[x]( JaVaScRiPt:alert(1))'",
    "'[x](java&#x09;script:alert(1))'", "'![x](http://127.0.0.1:9/x.png)'",
    "'<script>alert(1)</script>'", "'[[' + '[[' * 20000 + ']]'",
]
CONTROL = ["\x0b", "\x07", "\ufffe", "\x00", "\x1b", "\x7f"[:0] + "\x08"]
BAD_BYTES = [b"\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xc0\xaf"]
MARKDOWN = [
    "# x" + " " * 120_000 + "y {#zz}",
    "[[" * 20_000,
    "![" * 20_000,
    "- " * 500 + "deep",
    "> " * 500 + "deep",
    "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))",
    "[x](   javascript:alert(1))",
    "[x](java&#x09;script:alert(1))",
    "[x](data:text/html,hi)",
    "[x]: vbscript:msgbox",
    "![x](http://127.0.0.1:9/secret.png)",
    "![x](file:///etc/passwd)",
    "<img src=x onerror=alert(1)>",
    "## A heading [x](javascript:alert(1)) {#js-heading}",
    "`" * 10_000,
    "*a" * 20_000,
    "a  \n" * 2_000,
]
ALIAS_BOMB = ("a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
              "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c]\n"
              "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e]\n")
KEY_VALUE = re.compile(r"^(\s*(?:- )?[\w.-]+:)[ ]+(\S.*)$")


def yaml_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.yaml"))


def text_files(root: Path) -> list[Path]:
    return yaml_files(root) + sorted(root.rglob("rules.md"))


def lines_of(path: Path) -> list[str]:
    return path.read_text().split("\n")


def put(path: Path, lines: list[str]) -> None:
    path.write_text("\n".join(lines))


def m_value(rng, root):
    """A random ``key: value`` line's value replaced by a hostile one."""
    path = rng.choice(yaml_files(root))
    lines = lines_of(path)
    spots = [i for i, ln in enumerate(lines) if KEY_VALUE.match(ln)]
    i = rng.choice(spots)
    value = rng.choice(HOSTILE_VALUES)
    lines[i] = KEY_VALUE.match(lines[i]).group(1) + " " + value
    put(path, lines)
    return path


FLOW_VALUE = re.compile(r"([{,]\s*[\w.-]+:\s*)([^,{}\[\]]+|\[[^\]]*\])(?=\s*[,}])")


def m_flow_value(rng, root):
    """A value inside a flow mapping (``{title: X, rule: war}``) replaced by a hostile one."""
    path = rng.choice([p for p in yaml_files(root) if FLOW_VALUE.search(p.read_text())])
    lines = lines_of(path)
    spots = [(i, m) for i, ln in enumerate(lines) for m in FLOW_VALUE.finditer(ln)]
    i, m = rng.choice(spots)
    value = rng.choice(HOSTILE_VALUES)
    if len(value) > 1000 or value.startswith(("!!", "!", "&", "*")):
        value = rng.choice(["[]", "{}", "-1", "0", ".nan", "1e3", "'x'", "[[x]]", "{a: b}",
                            "null", "true", "99999999999"])
    lines[i] = lines[i][:m.start(2)] + value + lines[i][m.end(2):]
    put(path, lines)
    return path


def m_kit_value(rng, root):
    """A value in a game's kit: (the print-and-play components) replaced by a hostile one."""
    path = rng.choice([root / g / "game.yaml" for g in GAMES])
    lines = lines_of(path)
    start = lines.index("kit:")
    end = next((i for i in range(start + 1, len(lines)) if lines[i] and not lines[i][0].isspace()),
               len(lines))
    spots = [i for i in range(start + 1, end) if KEY_VALUE.match(lines[i])]
    i = rng.choice(spots)
    value = rng.choice(HOSTILE_VALUES[:34])
    lines[i] = KEY_VALUE.match(lines[i]).group(1) + " " + value
    put(path, lines)
    return path


def m_control(rng, root):
    path = rng.choice(text_files(root))
    text = path.read_text()
    at = rng.randrange(len(text))
    path.write_text(text[:at] + rng.choice(CONTROL) + text[at:])
    return path


def m_bad_byte(rng, root):
    path = rng.choice(text_files(root))
    data = path.read_bytes()
    at = rng.randrange(len(data))
    path.write_bytes(data[:at] + rng.choice(BAD_BYTES) + data[at:])
    return path


def m_complex_key(rng, root):
    path = rng.choice(yaml_files(root))
    text = path.read_text()
    if text.lstrip().startswith("-"):
        path.write_text("- ? [a, b]\n  : 1\n" + text)
    else:
        path.write_text("? [a, b]\n: 1\n" + text)
    return path


def m_alias_bomb(rng, root):
    path = rng.choice([p for p in yaml_files(root) if not p.read_text().lstrip().startswith("-")])
    path.write_text(path.read_text() + ALIAS_BOMB)
    return path


def m_delete_line(rng, root):
    path = rng.choice(text_files(root))
    lines = lines_of(path)
    del lines[rng.randrange(len(lines))]
    put(path, lines)
    return path


def m_double_line(rng, root):
    path = rng.choice(text_files(root))
    lines = lines_of(path)
    i = rng.randrange(len(lines))
    lines.insert(i, lines[i])
    put(path, lines)
    return path


def m_swap_lines(rng, root):
    path = rng.choice(text_files(root))
    lines = lines_of(path)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    put(path, lines)
    return path


def m_indent(rng, root):
    path = rng.choice(yaml_files(root))
    lines = lines_of(path)
    i = rng.randrange(len(lines))
    lines[i] = rng.choice(["  ", " ", "\t"]) + lines[i] if rng.random() < 0.6 else lines[i][1:]
    put(path, lines)
    return path


def m_truncate(rng, root):
    path = rng.choice(text_files(root))
    text = path.read_text()
    path.write_text(text[:rng.randrange(len(text))])
    return path


def m_empty(rng, root):
    path = rng.choice(text_files(root))
    path.write_text(rng.choice(["", "   \n", "\n\n", "# only a comment\n"]))
    return path


def m_markdown(rng, root):
    """A pathological or hostile line of Markdown in rules.md or in a YAML text value."""
    line = rng.choice(MARKDOWN)
    if rng.random() < 0.5:
        path = rng.choice(sorted(root.rglob("rules.md")))
        lines = lines_of(path)
        lines.insert(rng.randrange(1, len(lines)), "\n" + line + "\n")
        put(path, lines)
        return path
    path = rng.choice(yaml_files(root))
    lines = lines_of(path)
    spots = [i for i, ln in enumerate(lines)
             if re.match(r"^\s*(?:- )?(?:comment|definition|summary|intro|outro|text):", ln)]
    if not spots:
        return m_value(rng, root)
    i = rng.choice(spots)
    key = lines[i].split(":")[0]
    quoted = line.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    lines[i] = f'{key}: "{quoted}"'
    put(path, lines)
    return path


def m_fifo(rng, root):
    game = root / rng.choice(GAMES)
    path = game / "examples" / "99-fifo.yaml"
    os.mkfifo(path)
    return path


def m_folder_as_file(rng, root):
    game = root / rng.choice(GAMES)
    path = game / "examples" / "99-folder.yaml"
    path.mkdir()
    return path


def m_link_outside(rng, root):
    outside = root.parent / "secret.yaml"
    outside.write_text("id: secret\ntitle: Secret\n")
    game = root / rng.choice(GAMES)
    path = rng.choice([game / "glossary.yaml", game / "rules.md", game / "examples" / "99-x.yaml",
                       game / "game.yaml"])
    if path.exists():
        path.unlink()
    path.symlink_to(outside)
    return path


def m_link_loop(rng, root):
    game = root / rng.choice(GAMES)
    path = rng.choice([game / "glossary.yaml", game / "examples" / "99-loop.yaml"])
    if path.exists():
        path.unlink()
    path.symlink_to(path.name)
    return path


def m_chance(rng, root):
    path = rng.choice(sorted((root / "battle" / "examples").glob("*.yaml")))
    lines = lines_of(path)
    spots = [i for i, ln in enumerate(lines) if "chance:" in ln]
    if not spots:
        return m_value(rng, root)
    i = rng.choice(spots)
    lines[i] = lines[i].split("chance:")[0] + "chance: " + rng.choice(
        ["shuffled", "[ZZ, 7S, 6S]", "[[7S]]", "{a: b}", "5", "[]", "''"])
    put(path, lines)
    return path


def m_index_games(rng, root):
    path = root / "index.yaml"
    lines = lines_of(path)
    i = next(i for i, ln in enumerate(lines) if ln.startswith("games:"))
    lines[i] = "games: " + rng.choice(["war", "{war: 1}", "5", "!!pairs [war: 1]",
                                       "[war, [battle]]", "[war, '../x']", "[war, null]"])
    put(path, lines)
    return path


MUTATIONS = [m_value] * 6 + [m_flow_value] * 2 + [m_kit_value] * 3 + [m_control, m_bad_byte, m_complex_key, m_alias_bomb,
                             m_delete_line, m_double_line, m_swap_lines, m_indent, m_truncate,
                             m_empty, m_markdown, m_markdown, m_fifo, m_folder_as_file,
                             m_link_outside, m_link_loop, m_chance, m_index_games]


# --------------------------------------------------------------------------- the checks
class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang()


def base_content(tmp: Path) -> Path:
    root = tmp / "content"
    root.mkdir(parents=True)
    for slug in GAMES:
        shutil.copytree(ROOT / "content" / slug, root / slug)
    index = (ROOT / "content" / "index.yaml").read_text()
    index = re.sub(r"(?m)^games:.*(\n  - .*)*", "games: [" + ", ".join(GAMES) + "]", index)
    (root / "index.yaml").write_text(index)
    return root


UNSAFE = re.compile(r"""(?:href|src)\s*=\s*["']?\s*([a-zA-Z][a-zA-Z0-9+.\-]*):""")


def assert_harmless(report, tmp: Path) -> None:
    """An accepted input renders: the rulebooks' HTML, the sheets' layout, the website; and
    no link or source in them leaves for a scheme outside http, https, mailto."""
    from builder.render.book.pdf import BookRenderer
    from builder.render.pnp.components import Renderer, game_sheets
    from builder.render.site.pages import render_site

    books = BookRenderer(paper="a4")
    for gr in report.games:
        # the book's HTML goes only to WeasyPrint: card: and diagram: are its own images
        for m in UNSAFE.finditer(books.book_html(gr)[1]):
            assert m.group(1).lower() in ("http", "https", "mailto", "card", "diagram"), m.group(0)
        game_sheets(Renderer(paper="a4"), gr.game, "a4")
    site = render_site(report, tmp / "out")
    for page in site.rglob("*.html"):
        for m in UNSAFE.finditer(page.read_text()):
            assert m.group(1).lower() in ("http", "https", "mailto"), m.group(0)


def mutated_content(seed: int, tmp: Path) -> tuple[Path, Path, str]:
    """A fresh copy of the base content in ``tmp`` with mutation ``seed`` applied: (the
    content folder, the mutated path, what was done)."""
    rng = random.Random(seed)
    mutate = rng.choice(MUTATIONS)
    root = base_content(tmp)
    mutated = mutate(rng, root)
    return root, mutated, f"seed {seed}: {mutate.__name__} on {mutated.relative_to(root)}"


def run_mutation(seed: int) -> str:
    """Apply mutation ``seed`` to a fresh copy and check the properties; returns what it did
    (for the failure message)."""
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        root, mutated, what = mutated_content(seed, tmp)
        old_dir = os.getcwd()
        os.chdir(tmp)
        old = signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(HANG_GUARD_S)
        try:
            report = run_check(Path("content"))
            errors = report.diagnostics.errors
            if report.ok:
                assert_harmless(report, tmp)
        except Hang:
            raise AssertionError(f"{what}: no answer within {HANG_GUARD_S} s") from None
        except Exception as e:  # the CLI's "internal error", exit status 2
            raise AssertionError(f"{what}: {type(e).__name__}: {str(e)[:200]}") from e
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)
            os.chdir(old_dir)
        if not report.ok:
            assert errors, f"{what}: the check failed without an error"
            shown = str(Path("content") / mutated.relative_to(root))
            for d in errors:
                assert (tmp / d.path).exists() or (tmp / d.path).is_symlink(), \
                    f"{what}: error in no file: {d.format()[:200]}"
                assert d.line >= 0 and d.col >= 0, f"{what}: {d.format()[:200]}"
                if (tmp / d.path).is_file() and d.line > 0 and not (tmp / d.path).is_symlink():
                    nlines = (tmp / d.path).read_bytes().count(b"\n") + 1
                    assert d.line <= nlines, f"{what}: line beyond the file: {d.format()[:200]}"
            related = {shown, str(Path(shown).parent)}
            if mutated.name == "rules.md" or mutated.name == "index.yaml":
                related = {str(Path(shown).parent)}  # rule ids and games are used elsewhere
            assert any(d.path in related or d.path.startswith(tuple(r + "/" for r in related))
                       for d in errors), \
                f"{what}: no error in the mutated file: {[d.format()[:120] for d in errors]}"
        return what, report.ok


#: the inner loop's sample: one of each kind the catalogue draws first
QUICK_SEEDS = list(range(6))


@pytest.mark.parametrize("seed", QUICK_SEEDS)
def test_a_mutation_sample(seed: int):
    run_mutation(seed)


@pytest.mark.slow
def test_three_hundred_mutations():
    failures = []
    for seed in range(1000, 1300):
        try:
            run_mutation(seed)
        except AssertionError as e:
            failures.append(str(e).splitlines()[0])
    assert not failures, f"{len(failures)} of 300 mutations:\n" + "\n".join(failures)


@pytest.mark.slow
@pytest.mark.build
def test_accepted_mutations_really_build(tmp_path: Path):
    """The first accepted mutations of a game.yaml (the file the build reads most from) in
    the slow run's seeds go through a real ``warbook build`` of their game: PDFs, sheets,
    PNGs; exit status 0 and no traceback."""
    import subprocess
    import sys

    built = 0
    for seed in range(1000, 1300):
        if built == 2:
            break
        what, accepted = run_mutation(seed)
        if not accepted or "game.yaml" not in what:
            continue
        folder = tmp_path / str(seed)
        root, mutated, _ = mutated_content(seed, folder)
        slug = mutated.relative_to(root).parts[0]
        proc = subprocess.run([sys.executable, "-m", "builder", "build", "--content", str(root),
                               "--out", str(folder / "out"), "--game", slug],
                              cwd=ROOT, capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, (what, proc.stderr)
        built += 1
    assert built == 2


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
                          "step_layout", "comment_below"],
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
        "/usr/share/fonts/opentype/ebgaramond/EBGaramond12-Regular.otf").read_bytes())
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
    from builder.render.pnp.components import Renderer, game_sheets
    from builder.render.site.pages import render_site
    from builder.render.templating import overrides_of

    texts = []
    templates = overrides_of(report.content.root)
    if "book" in kinds:
        books = BookRenderer(paper="a4", templates=templates)
        texts += [("book", books.book_html(gr)[1]) for gr in report.games]
        texts.append(("book", books.front_html([books.view(gr) for gr in report.games],
                                               report.content.intro, report.content.book)))
    if "components" in kinds:
        sheets = Renderer(paper="a4", templates=templates)
        for gr in report.games:
            made = game_sheets(sheets, gr.game, "a4")[0]
            texts.append(("components", sheets.env.get_template(
                "components/sheets.html.j2").render(
                doc={"title": "t", "author": "a", "subject": "s", "keywords": "k",
                     "version": "0", "low": False}, sheets=made)))
    if "site" in kinds:
        site = render_site(report, tmp / "out")
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
        for m in UNSAFE.finditer(text):
            if m.group(1).lower() not in ("http", "https", "mailto") + own:
                return what, f"unsafe link: {m.group(0)}"
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
