"""Content may link only to http, https and mailto addresses or within the site, and holds
no pictures: the loader refuses anything else at its line, and the Markdown renderer drops
whatever might get past it (issue 13)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from builder.check import run_check
from builder.links import safe_href
from builder.render.markup import Markdown

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("href", [
    "javascript:alert(1)", "JaVaScRiPt:alert(1)", "  javascript:alert(1)",
    "java&#x09;script:alert(1)", "java\tscript:x", "data:text/html,x", "file:///etc/passwd",
    "vbscript:x", "//evil.example/x",
])
def test_unsafe_link_targets(href):
    assert not safe_href(href)


@pytest.mark.parametrize("href", ["https://example.com/a", "http://x.y", "mailto:a@b.c",
                                  "#war", "war.html#war", "rules/war.html"])
def test_safe_link_targets(href):
    assert safe_href(href)


def test_the_renderer_drops_unsafe_links_and_pictures():
    md = Markdown(lambda rid: None)
    html = str(md.block("[x](javascript:alert(1)) [y](https://example.com) "
                        "![a cat](http://example.com/cat.png) [z](java&#x09;script:1)"))
    assert "javascript" not in html.lower() and "<img" not in html
    assert '<a href="https://example.com">y</a>' in html
    assert "<span>x</span>" in html and "a cat" in html


def content_with_rule_text(tmp_path: Path, old: str, new: str) -> Path:
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "war", content / "war")
    (content / "index.yaml").write_text("games: [war]\n")
    rules = content / "war" / "rules.md"
    text = rules.read_text()
    assert old in text
    rules.write_text(text.replace(old, new, 1))
    return content


def errors(content: Path) -> list[str]:
    return [d.format().replace(str(content) + "/", "") for d in run_check(content).diagnostics]


def test_a_javascript_link_in_a_rule_is_a_located_error(tmp_path: Path):
    content = content_with_rule_text(
        tmp_path, "Win every card.", "Win every card ([see](JaVaScRiPt:alert(1))).")
    line = next(i for i, t in enumerate((content / "war/rules.md").read_text().splitlines(), 1)
                if "JaVaScRiPt" in t)
    assert errors(content) == [
        f"war/rules.md:{line}:23: error: a link to 'JaVaScRiPt:alert(1' is not allowed: links "
        f"may go to http, https, mailto addresses or within the site"]


def test_a_link_in_a_heading_is_checked_too(tmp_path: Path):
    content = content_with_rule_text(tmp_path, "## Object of the game {#object}",
                                     "## Object [x](data:text/html,hi) {#object}")
    got = errors(content)
    # "## Object of the game" is line 16 of War's rules; the target starts at column 15
    assert got == ["war/rules.md:16:15: error: a link to 'data:text/html,hi' is not allowed: "
                   "links may go to http, https, mailto addresses or within the site"]


def test_a_picture_is_a_located_error(tmp_path: Path):
    content = content_with_rule_text(tmp_path, "Win every card.",
                                     "Win every card. ![secret](file:///etc/secret.png)")
    got = errors(content)
    # "Win every card." is line 18; the picture's "!" is its 17th character
    assert got == ["war/rules.md:18:17: error: pictures are not allowed in content text (a "
                   "picture's address would be fetched by the build and by readers' browsers)"]


def test_a_game_folder_name_must_be_safe(tmp_path: Path):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "war", content / 'war"x')
    (content / "index.yaml").write_text("intro: hi\n")
    got = errors(content)
    assert got[0].startswith("war\"x/game.yaml:1:1: error: the game's folder name 'war\"x' must "
                             "be lower-case letters"), got


def test_the_pdf_build_fetches_nothing_from_the_network_or_other_files(tmp_path: Path):
    """A probe server on 127.0.0.1 must see no request, and a file outside the templates
    and typefaces must not be read, whatever HTML reaches WeasyPrint."""
    import http.server
    import threading

    from weasyprint import HTML

    from builder.render.fetch import CardFetcher, FetchRefused, allowed
    from builder.render.fonts import find

    hits: list[str] = []

    class Probe(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Probe)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    secret = tmp_path / "secret.svg"
    secret.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9">'
                      '<rect width="9" height="9"/></svg>')
    fetcher = CardFetcher()
    seen: list[str] = []
    original = fetcher.fetch

    def spy(url, headers=None):
        seen.append(url)
        return original(url, headers)

    fetcher.fetch = spy
    port = server.server_address[1]
    try:
        html = (f'<img src="http://127.0.0.1:{port}/probe.png">'
                f'<img src="{secret.as_uri()}"><img src="card:QD">')
        pdf = HTML(string=html, url_fetcher=fetcher).write_pdf()
    finally:
        server.shutdown()
    assert hits == []
    assert any("probe.png" in u for u in seen) and any("secret.svg" in u for u in seen)
    assert pdf.startswith(b"%PDF")
    with pytest.raises(FetchRefused):
        fetcher.fetch(secret.as_uri())
    assert allowed(find("Cabin-Regular.otf").as_uri())  # the typefaces stay readable
