"""The products' declarations, against the dependency table of docs/authoring.md
("Incremental builds"): which parts a build has, which files each part is, and which
setting each part's key covers. (Which content edits rewrite which files is
tests/test_incremental.py's, on real builds.)"""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from builder.build.products import PRODUCTS, key_of, parts_of, product_of
from builder.incremental import Inputs
from builder.settings import PAPERS, Settings

ROOT = Path(__file__).resolve().parents[2]

#: docs/authoring.md's table: part -> the build options its key covers
COVERS = {
    "book:war": {"paper", "four_colour"},
    "compendium": {"paper", "four_colour"},
    "components:war": {"paper", "ink"},
    "deck": {"paper", "ink"},
    "site": {"site_url"},
}
#: a value of each option other than the default's
OTHER = {"paper": PAPERS["letter"], "four_colour": True, "ink": "low",
         "site_url": "https://example.org/rules/"}


@pytest.fixture(scope="module")
def content(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("products") / "content"
    root.mkdir()
    for slug in ("war", "peace"):
        shutil.copytree(ROOT / "content" / slug, root / slug)
    (root / "index.yaml").write_text("games: [war, peace]\n")
    return root


def test_a_whole_build_has_every_part_a_game_build_only_the_games():
    assert parts_of(["peace", "war"], whole=True) == [
        "book:peace", "book:war", "components:peace", "components:war", "compendium", "deck",
        "site"]
    assert parts_of(["war"], whole=False) == ["book:war", "components:war", "site"]


def test_each_part_belongs_to_one_product_and_names_are_unique():
    names = [p.name for p in PRODUCTS]
    assert len(names) == len(set(names))
    for part in parts_of(["war"], whole=True):
        assert product_of(part).name == part.partition(":")[0]
    with pytest.raises(KeyError):
        product_of("poster")


def test_each_part_is_the_files_the_docs_name(tmp_path):
    out = tmp_path / "out"
    for rel in ("pdf/war-rules.pdf", "pdf/compendium.pdf", "pdf/war-components.pdf",
                "png/war/mat.png", "pdf/pnp-deck.pdf", "pdf/pnp-deck-gutterfold.pdf",
                "png/cards/AS.png", "png/cards-bleed/AS.png", "png/tts/deck.png",
                "site/index.html", "site/pdf/war-rules.pdf", "png/peace/mat.png"):
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_text(rel)

    def files(part):
        return sorted(str(p.relative_to(out)) for p in product_of(part).files(part, out)
                      if p.is_file())

    assert files("book:war") == ["pdf/war-rules.pdf"]
    assert files("compendium") == ["pdf/compendium.pdf"]
    assert files("components:war") == ["pdf/war-components.pdf", "png/war/mat.png"]
    assert files("deck") == ["pdf/pnp-deck-gutterfold.pdf", "pdf/pnp-deck.pdf",
                             "png/cards-bleed/AS.png", "png/cards/AS.png", "png/tts/deck.png"]
    assert files("site") == ["site/index.html", "site/pdf/war-rules.pdf"]


@pytest.mark.parametrize("part", sorted(COVERS))
def test_a_key_changes_with_the_settings_it_covers_and_no_other(part, content):
    base = Settings(content_root=content, output=content.parent / "out")

    def key(settings: Settings) -> str:
        return key_of(part, Inputs(content, settings.key()))

    first = key(base)
    assert key(base) == first  # the same inputs, the same key
    for option, value in OTHER.items():
        changed = key(dataclasses.replace(base, **{option: value})) != first
        assert changed == (option in COVERS[part]), (part, option)


def test_the_site_key_names_the_pdfs_beside_it(content):
    inputs = Inputs(content, Settings(content, content.parent / "out").key())
    assert key_of("site", inputs, ["war-rules.pdf:1:2"]) != key_of("site", inputs, [])
    assert key_of("site", inputs, ["a:1:1", "b:1:1"]) == key_of("site", inputs, ["b:1:1", "a:1:1"])


#: docs/authoring.md's table: a content template of each kind -> the parts made from it
TEMPLATES = {"book": {"book:war", "compendium"}, "components": {"components:war", "deck"},
             "site": {"site"}, "shared": set(COVERS)}


@pytest.mark.parametrize("kind", sorted(TEMPLATES))
def test_a_key_changes_with_the_content_templates_of_its_kind(kind, content):
    settings = Settings(content_root=content, output=content.parent / "out")

    def keys() -> dict[str, str]:
        inputs = Inputs(content, settings.key())   # a new Inputs: no hash kept from before
        return {part: key_of(part, inputs) for part in COVERS}

    before = keys()
    own = content / "templates" / kind / "extra.css"
    own.parent.mkdir(parents=True)
    try:
        own.write_text("p { color: #123; }")
        after = keys()
    finally:
        shutil.rmtree(content / "templates")
    assert {part for part in COVERS if after[part] != before[part]} == TEMPLATES[kind]


def test_a_product_that_declares_no_inputs_says_which():
    from builder.build.products import Product

    class Poster(Product):
        name = "poster"

    with pytest.raises(NotImplementedError, match="^Poster declares no inputs$"):
        Poster().covers("poster", None, [])


def test_a_rulebook_carried_over_is_named_from_its_manifest_entry(tmp_path):
    """``book_info``: what the compendium needs of a rulebook a build does not write again,
    read from its manifest entry (slug from the file's name, title, pages, anchors)."""
    from builder.build.products import book_info

    entry = {"files": ["pdf/battle-lines-rules.pdf"],
             "book": {"title": "Battle Lines", "count": 24, "pages": {"setup": 3}}}
    info = book_info(entry, tmp_path)
    assert (info.slug, info.title, info.count, info.pages) == (
        "battle-lines", "Battle Lines", 24, {"setup": 3})
    assert info.path == tmp_path / "battle-lines-rules.pdf"


def test_the_books_are_set_in_the_contents_accent(content, tmp_path):
    """The ``book: accent`` of index.yaml reaches the rulebooks' stylesheet."""
    from builder.build.products import BookRun
    from builder.check import run_check

    root = tmp_path / "content"
    shutil.copytree(content, root)
    (root / "index.yaml").write_text("games: [war]\nbook: {title: Accents, accent: '#2a5d8f'}\n")
    settings = Settings(content_root=root, output=tmp_path / "out")
    run = BookRun(run_check(root), settings, None, tmp_path)
    assert ":root { --accent: #2a5d8f; }" in run.renderer.css_text


def test_print_shop_copies_are_made_of_the_builds_pdfs(tmp_path):
    """``PrintShopCopies.finish``: with a colour profile in the settings, every PDF of the
    build's pdf folder gets a CMYK copy in the staging folder's print-shop/; without one,
    none."""
    from types import SimpleNamespace

    from weasyprint import HTML

    from builder.build.products import PrintShopCopies
    from builder.render.printshop import cmyk_profile

    pdf_dir, staging = tmp_path / "pdf", tmp_path / "staging"
    pdf_dir.mkdir()
    staging.mkdir()
    for name in ("a-rules.pdf", "b-components.pdf"):
        HTML(string=f"<p style='color:#c0392b'>{name}</p>").write_pdf(pdf_dir / name)
    plain = SimpleNamespace(settings=SimpleNamespace(print_shop=None), pdf_dir=pdf_dir,
                            staging=staging)
    PrintShopCopies().finish(plain, [])
    assert not (staging / "print-shop").exists()
    job = SimpleNamespace(settings=SimpleNamespace(print_shop=cmyk_profile()),
                          pdf_dir=pdf_dir, staging=staging)
    PrintShopCopies().finish(job, [])
    made = sorted(p.name for p in (staging / "print-shop").glob("*.pdf"))
    assert made == ["a-rules.pdf", "b-components.pdf"]
    import pikepdf

    with pikepdf.open(staging / "print-shop" / "a-rules.pdf") as pdf:
        assert "/OutputIntents" in pdf.Root
