"""Shared fixtures: one real `warbook build` per test session (A4), reused by the PDF,
component and website tests, so the suite pays for the build once; the marks the slow
fixtures give their tests; and the order the files run in on two workers (longest first).
Shared helpers that are not fixtures live in tests/helpers.py."""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import tempfile
from pathlib import Path

import pytest
from helpers import ROOT, run_warbook

# Under mutation testing (scripts/mutation.py, mutmut), while mutmut records which tests
# reach which function it names the "stats" mutant in the environment, and a warbook run in
# a subprocess would inherit it and try to record too: such a subprocess runs the code as
# it is. (While a real mutant is tested, subprocesses inherit its name and run it.)
if os.environ.get("MUTANT_UNDER_TEST") == "stats":
    del os.environ["MUTANT_UNDER_TEST"]

# The balance lab's figures in every build the tests make: few games (capped figures never
# stand in for a real build's full ones), written to a folder of the session's own instead
# of the content folders, so no test writes into content/ (builder/lab/figures.py). The
# shipped games' committed full figures are read first, and stand in for capped ones.
os.environ.setdefault("WARBOOK_LAB_GAMES", "150")
if not os.environ.get("WARBOOK_CACHE"):  # made once, by the run's first process (the
    # workers inherit it), and removed when that process ends
    os.environ["WARBOOK_CACHE"] = tempfile.mkdtemp(prefix="warbook-figures-")
    atexit.register(shutil.rmtree, os.environ["WARBOOK_CACHE"], True)

# A run started in the background by a script (`bash .ci/run &`, a CI runner without job
# control) inherits SIGINT ignored, and every process it starts would too: a `warbook
# serve` started by the tests would then never see the Ctrl-C they stop it with. Any
# handler here (a handler, unlike "ignored", is not inherited) gives the processes the
# tests start the default: Ctrl-C interrupts.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session")
def report():
    """The check of the shipped content, which must pass."""
    from builder.check import run_check

    rep = run_check(ROOT / "content")
    assert rep.ok, [str(d) for d in rep.diagnostics.errors]
    return rep


def shared_output(tmp_path_factory, worker_id, name: str, make) -> Path:
    """The folder ``output`` that ``make(folder)`` fills (it writes ``folder / "output"``),
    made once per test session: the workers of ``-n 2`` share it (the first to need it
    makes it, holding a lock the other waits on). Its users only read it (or copy it)."""
    import fcntl

    if worker_id == "master":  # no workers: this session's own folder
        folder = tmp_path_factory.mktemp(name)
        make(folder)
        return folder / "output"
    shared = tmp_path_factory.getbasetemp().parent / f"shared-{name}"  # this session's workers'
    with open(shared.parent / f"shared-{name}.lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        done = shared / "built"
        if not done.exists():
            shutil.rmtree(shared, ignore_errors=True)
            shared.mkdir()
            make(shared)
            done.write_text("ok\n")
    return shared / "output"


def build_into(*args: str):
    """``make`` for ``shared_output``: ``warbook build ARGS --out FOLDER/output``, which
    must succeed."""
    def make(folder: Path) -> None:
        proc = run_warbook("build", *args, "--out", str(folder / "output"))
        assert proc.returncode == 0, proc.stdout + proc.stderr
    return make


@pytest.fixture(scope="session")
def built(tmp_path_factory, worker_id) -> Path:
    """The output folder of a full build of the shipped content (A4), made once per test
    session: the workers of ``-n 2`` share it (the first to need it builds it, holding a
    lock the other waits on), so the suite pays for one build, not one per worker. The
    tests only read it.

    For quick local runs only, WARBOOK_TEST_OUTPUT may name an existing build to reuse;
    CI never sets it, so there the build always runs."""
    reuse = os.environ.get("WARBOOK_TEST_OUTPUT")
    if reuse:
        return Path(reuse)
    return shared_output(tmp_path_factory, worker_id, "build", build_into())


@pytest.fixture(scope="session")
def war_letter(tmp_path_factory, worker_id) -> Path:
    """The output of ``warbook build --game war --paper letter`` of the shipped content, made
    once per session and shared by the workers (tests/render/book/test_pdf.py and
    tests/build/test_publish.py both need that very build). Read only."""
    return shared_output(tmp_path_factory, worker_id, "war-letter",
                         build_into("--game", "war", "--paper", "letter"))


@pytest.fixture(scope="session")
def war_alone(tmp_path_factory, worker_id) -> tuple[Path, Path]:
    """(content, output): a content folder holding War alone (the shipped game's folder and
    an index naming it) and a whole build of it (A4), made once per session and shared by
    the workers: the previous good output that tests/security/test_attacks.py's attacks
    and tests/render/book/test_pdf.py's broken example start from. Read only: copy
    them to change them."""
    def make(folder: Path) -> None:
        content = folder / "content"
        shutil.copytree(ROOT / "content" / "war", content / "war")
        (content / "index.yaml").write_text("games: [war]\n")
        build_into("--content", str(content))(folder)

    out = shared_output(tmp_path_factory, worker_id, "war-alone", make)
    return out.parent / "content", out


#: fixtures whose tests are slow by nature: a real build, or a browser
SLOW_FIXTURES = {"built": ("slow", "build"), "books": ("slow", "build"),
                 "page": ("slow", "browser"), "browser": ("slow", "browser")}


#: The test files that take longest, longest first: the time of their tests summed, measured
#: with ``pytest -n 2 --dist loadfile --durations=0`` on 2026-11-26 on a shared machine (load
#: 5-17: three or more times a quiet machine's figures; their order is what counts). With
#: ``--dist loadfile`` a file runs whole on one worker, so these are handed out first and the
#: shorter files fill in behind them: both workers finish together, where a long file
#: handed out last would keep one worker busy alone. The files not listed follow in the
#: order they are collected.
LONGEST_FIRST = [
    "tests/engine/test_properties.py",             # 878 s
    "tests/lab/test_lab.py",                       # 852 s
    "tests/render/book/test_pdf.py",               # 681 s
    "tests/render/site/test_site.py",              # 631 s
    "tests/lab/test_shipped_claims.py",            # 600 s
    "tests/security/test_fuzz.py",                 # 433 s
    "tests/security/test_attacks.py",              # 417 s
    "tests/build/test_publish.py",                 # 343 s
    "tests/cli/test_serve.py",                     # 320 s
    "tests/build/test_build_failures.py",          # 259 s
    "tests/engine/test_bring_your_own.py",         # 171 s
    "tests/render/book/test_print_finish.py",      # 168 s
    "tests/build/test_incremental.py",             # 161 s
    "tests/check/test_event_expectations.py",      # 125 s
    "tests/render/test_template_sandbox.py",       # 98 s
    "tests/render/pnp/test_components.py",         # 86 s
]


def pytest_configure(config):
    """pytest-xdist hands out the files with the most tests first unless told otherwise;
    here the collection's order (LONGEST_FIRST) decides instead."""
    if getattr(config.option, "loadscopereorder", False):
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(config, items):
    """Mark the tests that use a slow fixture, so ``pytest -m "not slow"`` (the inner loop)
    leaves them out without each test having to say so; then put the longest files first
    (a stable sort: each file's tests keep their order)."""
    for item in items:
        for fixture in item.fixturenames:
            for name in SLOW_FIXTURES.get(fixture, ()):
                item.add_marker(getattr(pytest.mark, name))
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))
