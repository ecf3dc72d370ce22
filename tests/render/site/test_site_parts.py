"""The website's parts that need no browser: the search index (read back by lunr.py, an
implementation independent of the JavaScript that queries it), the subset web fonts, the
site address option and the files for hosts (sitemap, robots, 404)."""

from __future__ import annotations

import io
import re

import pytest
from fontTools.ttLib import TTFont

from builder.render.fonts import find as find_font
from builder.render.site import webfonts
from builder.render.site.pages import SiteError, SiteRenderer, normalise_url, search_index


def records():
    return [
        {"k": "rule", "g": "a", "t": "4.4 Reinforcing", "u": "a.html#reinforce-section",
         "x": "A player losing on a flank may throw in the reserve."},
        {"k": "term", "g": "a", "t": "Reserve", "u": "a.html#term-reserve",
         "x": "The fourth card, held back to reinforce a flank."},
        {"k": "rule", "g": "b", "t": "2.1 Object of the game", "u": "b.html#win-all-cards",
         "x": "The player who ends up holding every card is the champion."},
        {"k": "example", "g": "b", "t": "Example 1: A face card in its place", "u": "b.html#ex-1",
         "x": "Nothing here about the card that beats a king."},
    ]


def test_the_index_is_stemmed_words_read_back_by_lunr_py():
    from lunr.index import Index

    idx = Index.load(search_index(records()))
    refs = lambda q: [r["ref"] for r in idx.search(q)]  # noqa: E731
    # "reinforcement" and "Reinforcing" share the stem "reinforc"
    assert set(refs("reinforcement")) == {"0", "1"}
    # a title word weighs more than a text word: "reserve" is the term's title
    assert refs("reserve")[0] == "1"
    # whole words: "ace" is not in "face" or "place"
    assert refs("ace") == []
    # the permalink's words are searched: "win" only in "#win-all-cards"
    assert refs("win") == ["2"]


def test_characters_decode_entities_and_keep_ascii():
    chars = webfonts.characters(["<p>caf&eacute; &rsquo;</p>", "Ω"])
    assert "é" in chars and "\u2019" in chars and "Ω" in chars
    assert all(chr(c) in chars for c in range(0x20, 0x7F))


def test_woff2_keeps_exactly_the_asked_characters():
    src = find_font("Cabin-Regular.otf")
    data = webfonts.woff2(src, "Warbook 123")
    assert data[:4] == b"wOF2"
    font = TTFont(io.BytesIO(data))
    cmap = set(chr(c) for c in font.getBestCmap())
    assert set("Warbook 123") <= cmap
    assert "Z" not in cmap and "q" not in cmap
    whole = TTFont(str(src))
    assert len(font.getGlyphOrder()) < len(whole.getGlyphOrder()) / 5


def test_the_same_font_and_characters_give_the_same_bytes_at_any_time(monkeypatch):
    """A site's and a book's subset fonts are the same bytes whenever they are made: the
    font's own timestamp is kept, not replaced by the clock's (which made a rebuild's fonts,
    and so its pages' hashes, differ from one second to the next)."""
    from fontTools.ttLib.tables import _h_e_a_d

    from builder.render.book import fontshare

    src = find_font("Cabin-Regular.otf")
    clock = iter(range(3_000_000_000, 3_000_000_100, 7))
    monkeypatch.setattr(_h_e_a_d, "timestampNow", lambda: next(clock))
    assert webfonts.woff2(src, "Warbook") == webfonts.woff2(src, "Warbook")
    face = fontshare._Face(src)
    assert face.subset({1, 2, 3}) == face.subset({1, 2, 3})


def test_a_subset_font_is_kept_on_disk_and_a_damaged_one_made_again(tmp_path, monkeypatch):
    """The second build (another process: the in-memory cache emptied) reads the font the
    first kept instead of subsetting again; a kept file cut short is not WOFF2 and is made
    again; another character set is another file."""
    monkeypatch.setenv("WARBOOK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(webfonts, "_CACHE", {})
    src = find_font("Cabin-Regular.otf")
    made = []
    real = webfonts.woff2
    monkeypatch.setattr(webfonts, "woff2", lambda s, c: made.append(c) or real(s, c))
    first = webfonts.cached_woff2(src, "Warbook")
    kept = list((tmp_path / "cache" / "webfonts").iterdir())
    assert made == ["Warbook"] and [p.read_bytes() for p in kept] == [first]
    assert kept[0].name.startswith("Cabin-Regular-")

    monkeypatch.setattr(webfonts, "_CACHE", {})      # a new process
    assert webfonts.cached_woff2(src, "Warbook") == first and made == ["Warbook"]

    monkeypatch.setattr(webfonts, "_CACHE", {})
    kept[0].write_bytes(first[:len(first) // 2])     # a write cut short
    assert webfonts.cached_woff2(src, "Warbook") == first and made == ["Warbook"] * 2
    assert kept[0].read_bytes() == first

    other = webfonts.cached_woff2(src, "Warbook!")
    assert other != first and len(list((tmp_path / "cache" / "webfonts").iterdir())) == 2


def test_without_a_cache_folder_no_font_is_kept(tmp_path, monkeypatch):
    from builder import cache

    monkeypatch.delenv("WARBOOK_CACHE", raising=False)
    monkeypatch.setattr(cache, "_kept_in", None)
    monkeypatch.setattr(webfonts, "_CACHE", {})
    assert cache.folder("webfonts") is None
    assert webfonts.cached_woff2(find_font("Cabin-Regular.otf"), "Warbook")[:4] == b"wOF2"
    monkeypatch.setattr(cache, "_kept_in", tmp_path / "out" / ".cache" / "kit")
    assert cache.folder("webfonts") is None                  # no output folder yet
    (tmp_path / "out").mkdir()
    assert cache.folder("webfonts") == tmp_path / "out" / ".cache" / "webfonts"


@pytest.mark.parametrize("url,want", [
    ("https://example.org/rules", "https://example.org/rules/"),
    ("http://localhost:8000/", "http://localhost:8000/"),
    ("", ""), (None, ""),
])
def test_site_url_is_normalised(url, want):
    assert normalise_url(url) == want


@pytest.mark.parametrize("url", ["javascript:alert(1)", "example.org", "https://a.b/\"><script>", "ftp://x.org/"])
def test_site_url_must_be_a_web_address(url):
    with pytest.raises(SiteError, match="expected an http"):
        normalise_url(url)


def test_host_files(tmp_path):
    SiteRenderer.write_host_files(tmp_path, ["index.html", "war.html"], "https://example.org/b/")
    sitemap = (tmp_path / "sitemap.xml").read_text()
    assert re.findall(r"<loc>(.*?)</loc>", sitemap) == ["https://example.org/b/", "https://example.org/b/war.html"]
    assert "Sitemap: https://example.org/b/sitemap.xml" in (tmp_path / "robots.txt").read_text()
    other = tmp_path / "none"
    other.mkdir()
    SiteRenderer.write_host_files(other, ["index.html"], "")
    assert not (other / "sitemap.xml").exists()
    assert (other / "robots.txt").read_text() == "User-agent: *\nAllow: /\n"


def test_html_text_is_what_a_reader_sees():
    from builder.render.site.pages import html_text, search_text

    assert html_text("<p>Two players&rsquo; cards.</p><p>A <em>war</em> &amp; more&#8230;</p>") \
        == "Two players\u2019 cards. A war & more\u2026"
    assert html_text('<span class="card-sign" title="queen">Q<span class="suit">\u2666</span></span>') == "Q\u2666"
    assert search_text("The other&rsquo;s *line* &amp; [[x]]", {}) == "The other\u2019s line & x"


def test_a_standalone_404_page_holds_its_assets(tmp_path):
    """Without the site's address, the 404 page's stylesheet, upright fonts and pictures
    are written into it; nothing outside assets/ is read, and no stylesheet can close
    the <style> early."""
    import base64

    from builder.render.site.pages import standalone

    assets = tmp_path / "assets"
    (assets / "fonts").mkdir(parents=True)
    (assets / "fonts" / "Own-Face.woff2").write_bytes(b"wOF2 own")
    (assets / "mark.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>')
    (tmp_path / "secret.png").write_bytes(b"secret")
    (assets / "site.css").write_text(
        '@font-face { font-family: "Own"; font-style: normal; src: url("fonts/Own-Face.woff2") format("woff2"); }\n'
        '@font-face { font-family: "Own"; font-style: italic; src: url("fonts/Own-Italic.woff2"); }\n'
        "body { background: url(../secret.png); }\n"
        '.x::after { content: "</style><script>alert(1)</script>"; }\n')
    page = ('<head><link rel="icon" href="/assets/mark.svg" type="image/svg+xml">\n'
            '<link rel="stylesheet" href="/assets/site.css">\n</head><body>'
            '<img src="/assets/mark.svg" alt=""><a href="/war.html">War</a></body>')
    out = standalone(page, assets)
    svg = "data:image/svg+xml;base64," + base64.b64encode((assets / "mark.svg").read_bytes()).decode()
    assert out.count(f'="{svg}"') == 2
    assert 'url("data:font/woff2;base64,' + base64.b64encode(b"wOF2 own").decode() + '")' in out
    assert "Own-Italic" not in out and "italic" not in out
    assert "url(../secret.png)" in out and base64.b64encode(b"secret").decode() not in out
    # (in a <style> only "</style" ends the text; "<script>" there is text)
    assert out.lower().count("</style") == 1 and out.index("</style>") > out.index("alert(1)")
    assert '<a href="/war.html">' in out and '"/assets/' not in out
