"""The website tests' shared fixtures (test_site.py, test_site_phone.py): the built site,
its pages, and one browser for the session: Debian's ``chromium`` driven by Playwright
(never a downloaded browser). A missing browser FAILS the tests; they never skip."""

from __future__ import annotations

from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="session")
def site(built: Path) -> Path:
    """``output/site`` of the session's real ``warbook build`` (tests/conftest.py), so the
    links to ``pdf/`` are checked against the PDFs that build wrote."""
    out = built / "site"
    assert (out / "index.html").exists(), "warbook build wrote no site"
    assert (built / "pdf").is_dir()
    return out


@pytest.fixture(scope="session")
def pages(site) -> list[str]:
    return sorted(p.name for p in site.glob("*.html"))


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: the browser tests need Debian's chromium package "
                    f"(bash scripts/setup --test installs it); they never skip")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
