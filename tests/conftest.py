"""Shared fixtures: one real `warbook build` per test session (A4), reused by the PDF,
component and website tests, so the suite pays for the build once."""

from __future__ import annotations

import os
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

# The balance lab's figures in every build the tests make: few games (the sizes are part of
# the cache key, so they never stand in for a real build's), cached in a folder of the
# session's own (builder/lab/figures.py).
os.environ.setdefault("WARBOOK_LAB_GAMES", "150")
os.environ.setdefault("WARBOOK_CACHE", tempfile.mkdtemp(prefix="warbook-figures-"))


@pytest.fixture(scope="session")
def report():
    """The check of the shipped content, which must pass."""
    from builder.check import run_check

    rep = run_check(ROOT / "content")
    assert rep.ok, [str(d) for d in rep.diagnostics.errors]
    return rep


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """The output folder of a full build of the shipped content (A4).

    For quick local runs only, WARBOOK_TEST_OUTPUT may name an existing build to reuse;
    CI never sets it, so there the build always runs."""
    import os

    reuse = os.environ.get("WARBOOK_TEST_OUTPUT")
    if reuse:
        return Path(reuse)
    out = tmp_path_factory.mktemp("build") / "output"
    proc = run_warbook("build", "--out", str(out))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out


#: fixtures whose tests are slow by nature: a real build, or a browser
SLOW_FIXTURES = {"built": ("slow", "build"), "books": ("slow", "build"),
                 "page": ("slow", "browser"), "browser": ("slow", "browser")}


def pytest_collection_modifyitems(config, items):
    """Mark the tests that use a slow fixture, so ``pytest -m "not slow"`` (the inner loop)
    leaves them out without each test having to say so."""
    for item in items:
        for fixture in item.fixturenames:
            for name in SLOW_FIXTURES.get(fixture, ()):
                item.add_marker(getattr(pytest.mark, name))
