"""Fuzzing the content (issue 13): seeded single mutations of a copy of the shipped content
(War; Battle, the game with chance steps; Ultimate, with a score track and a mat), drawn
from the catalogue of the issue: hostile YAML (control characters, bytes that are not UTF-8,
complex keys, nesting, huge or tagged numbers, alias bombs, wrong types in every field),
broken lines (deleted, doubled, moved, re-indented, cut short), pathological Markdown (long
runs of spaces, thousands of '[[', links to javascript: and pictures), and the file system
(FIFOs, links out of the folder, link loops, folders where files belong).

For every mutation: the check returns (no exception: the CLI would print "internal error"
with exit status 2, which counts as a failure here) within a generous guard against hangs;
an input it refuses has at least one error, each located in a real file of the content
folder with a line and column inside it, one of them in the mutated file; an input it
accepts really is harmless: the rulebooks' HTML, the component sheets' layout and the
website render without an error, and no generated href or src carries a scheme other than
http, https or mailto.

The slow run draws 110 mutations (27 s alone; in the suite 300 took eight minutes, 170 took
74 s of the suite, 140 took 65 s); the inner loop runs a fixed sample.
Issue 22's attacker classes (template powers, links in every file kind, broken templates,
template and content-size bombs, serve requests) are drawn from seeds of their own, so the
draws above stay as they were: tests/security/test_fuzz_attacks.py (a file of its own, so
that with ``--dist loadfile`` the two halves run on both workers).
"""

from __future__ import annotations

import os
import random
import re
import shutil
import signal
import tempfile
from pathlib import Path

import pytest
from attack_kit import UNSAFE, lines_of, put, unsafe_links

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


MUTATIONS = [m_value] * 6 + [m_flow_value] * 2 + [m_kit_value] * 3 + [
    m_control, m_bad_byte, m_complex_key, m_alias_bomb, m_delete_line, m_double_line,
    m_swap_lines, m_indent, m_truncate, m_empty, m_markdown, m_markdown, m_fifo,
    m_folder_as_file, m_link_outside, m_link_loop, m_chance, m_index_games]


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


def assert_harmless(report, tmp: Path, mutated: Path | None = None) -> None:
    """An accepted input renders: the rulebooks' HTML, the sheets' layout, the website; and
    no link or source in them leaves for a scheme outside http, https, mailto.

    With ``mutated`` (the mutated file, relative to the content folder) inside a game's
    folder, only that game's rulebook and sheets are rendered (a game's book and sheets are
    made from its own folder alone, and the others are the base content's, which the build
    tests render); the website, which holds every game, always is."""
    from builder.render.book.pdf import BookRenderer
    from builder.render.pnp.document import Renderer
    from builder.render.pnp.kinds import game_sheets
    from builder.render.site.pages import render_site
    from builder.settings import PAPERS, Settings

    settings = Settings(content_root=Path(report.content.root), output=tmp / "out")
    books = BookRenderer(settings)
    games = [gr for gr in report.games
             if mutated is None or not mutated.parts or mutated.parts[0] not in GAMES
             or gr.game.slug == mutated.parts[0]]
    for gr in games:
        # the book's HTML goes only to WeasyPrint: card: and diagram: are its own images
        for m in UNSAFE.finditer(books.book_html(gr)[1]):
            assert m.group(1).lower() in ("http", "https", "mailto", "card", "diagram"), m.group(0)
        game_sheets(Renderer(PAPERS["a4"]), gr.game, PAPERS["a4"])
    site = render_site(report, tmp / "out", settings)
    for page in site.rglob("*.html"):
        bad = unsafe_links(page.read_text(), ("http", "https", "mailto"))
        assert not bad, (page.name, bad[0])


def mutated_content(seed: int, tmp: Path) -> tuple[Path, Path, str]:
    """A fresh copy of the base content in ``tmp`` with mutation ``seed`` applied: (the
    content folder, the mutated path, what was done)."""
    rng = random.Random(seed)
    mutate = rng.choice(MUTATIONS)
    root = base_content(tmp)
    mutated = mutate(rng, root)
    return root, mutated, f"seed {seed}: {mutate.__name__} on {mutated.relative_to(root)}"


def run_mutation(seed: int, seen: dict | None = None) -> tuple[str, bool]:
    """Apply mutation ``seed`` to a fresh copy and check the properties; returns what it did
    (for the failure message) and whether the check accepted it. ``seen``, if given, is
    told as soon as they are known: the mutated file (``"mutated"``, relative to the content
    folder) and whether the check accepted it (``"ok"``), even when a property fails
    after."""
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        root, mutated, what = mutated_content(seed, tmp)
        if seen is not None:
            seen["mutated"] = mutated.relative_to(root)
        old_dir = os.getcwd()
        os.chdir(tmp)
        old = signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(HANG_GUARD_S)
        try:
            report = run_check(Path("content"))
            errors = report.diagnostics.errors
            if seen is not None:
                seen["ok"] = report.ok
            if report.ok:
                assert_harmless(report, tmp, mutated.relative_to(root))
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


#: the slow run's seeds
SLOW_SEEDS = range(1000, 1110)


@pytest.fixture(scope="module")
def slow_run() -> dict[int, dict]:
    """The slow run's 110 mutations, each run once: seed -> what ``run_mutation`` saw (the
    mutated file, whether the check accepted it) and ``"failure"``, the first line of the
    property that failed (None when all held). test_a_hundred_and_ten_mutations judges
    them; test_accepted_mutations_really_build takes the accepted ones from here instead of
    making and checking the same mutations a second time."""
    runs = {}
    for seed in SLOW_SEEDS:
        seen: dict = {"failure": None}
        try:
            run_mutation(seed, seen)
        except AssertionError as e:
            seen["failure"] = str(e).splitlines()[0]
        runs[seed] = seen
    return runs


@pytest.mark.slow
def test_a_hundred_and_ten_mutations(slow_run):
    assert len(slow_run) == len(SLOW_SEEDS) == 110
    failures = [run["failure"] for run in slow_run.values() if run["failure"] is not None]
    assert not failures, f"{len(failures)} of 110 mutations:\n" + "\n".join(failures)


@pytest.mark.slow
@pytest.mark.build
def test_accepted_mutations_really_build(tmp_path: Path, slow_run):
    """The first accepted mutation of a game.yaml (the file the build reads most from) in
    the slow run's seeds goes through a real ``warbook build`` of its game (two did, at
    18 s each, until the suite's time was over 15 minutes): PDFs, sheets, PNGs; exit status 0 and no traceback.
    Which mutations the check accepts is read from the slow run (each mutation was checked
    there)."""
    import subprocess
    import sys

    built = 0
    for seed in SLOW_SEEDS:
        if built == 1:
            break
        run = slow_run[seed]
        # a game.yaml itself (not an example whose name ends in "game.yaml"); whether the
        # mutation is harmless to check is test_a_hundred_and_ten_mutations' to say
        if run["mutated"].name != "game.yaml":
            continue
        assert "ok" in run, f"the check did not return on seed {seed}: {run['failure']}"
        if not run["ok"]:
            continue
        folder = tmp_path / str(seed)
        root, mutated, what = mutated_content(seed, folder)
        assert mutated.relative_to(root) == run["mutated"], what
        slug = mutated.relative_to(root).parts[0]
        proc = subprocess.run([sys.executable, "-m", "builder", "build", "--content", str(root),
                               "--out", str(folder / "out"), "--game", slug],
                              cwd=ROOT, capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, (what, proc.stderr)
        built += 1
    assert built == 1
