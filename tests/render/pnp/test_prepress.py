"""Prepress of the print-and-play exports, read back from the files written: every PNG tagged
sRGB, every PDF's header at 1.7 or later, and the bleed PNGs at the sizes card printers ask
of a poker card (822 x 1122 and 825 x 1125 px), the card not scaled and in the middle, its
art running on into the wider bleed.

The fast tests write their own files (a PNG, a game's own poker-size deck); the slow ones
read the session's real build (tests/conftest.py)."""

from __future__ import annotations

import io
import shutil
import time
from pathlib import Path

import pytest
from helpers import FIXTURES
from PIL import Image, ImageChops, ImageCms, ImageStat

from builder.check import run_check
from builder.engine.core import full_deck
from builder.render.pnp import layout, png
from builder.render.pnp.deck import duplex_card_sheets
from builder.render.pnp.document import Renderer
from builder.render.pnp.png import save_png, write_own_pngs
from builder.settings import PAPERS

#: the printers' sizes: folder under cards-bleed/ -> (width, height) px
PRESETS = {"822x1122": (822, 1122), "825x1125": (825, 1125)}


# --------------------------------------------------------------------------- helpers
def is_srgb(img: Image.Image) -> bool:
    """Whether ``img`` carries an ICC profile, and it is an RGB display profile named sRGB."""
    data = img.info.get("icc_profile")
    if not data:
        return False
    profile = ImageCms.ImageCmsProfile(io.BytesIO(data))
    return (profile.profile.xcolor_space.strip() == "RGB"
            and "sRGB" in ImageCms.getProfileDescription(profile))


def pdf_version(path: Path) -> tuple[int, int]:
    """The version a PDF's header says (``%PDF-1.7`` -> (1, 7))."""
    head = path.read_bytes()[:16]
    assert head.startswith(b"%PDF-"), (path.name, head)
    major, minor = head[5:8].decode("ascii").split(".")
    return int(major), int(minor)


def where_inside(big: Image.Image, small: Image.Image) -> tuple[int, int] | None:
    """The offset at which ``small`` lies in ``big`` pixel for pixel (its middle rows first:
    a cheap test of every offset, then the whole image at the one that passes)."""
    w, h = small.size
    band = small.crop((0, h // 2 - 2, w, h // 2 + 2))
    for dy in range(big.height - h + 1):
        for dx in range(big.width - w + 1):
            got = big.crop((dx, dy + h // 2 - 2, dx + w, dy + h // 2 + 2))
            if ImageChops.difference(got, band).getbbox() is None:
                whole = big.crop((dx, dy, dx + w, dy + h))
                if ImageChops.difference(whole, small).getbbox() is None:
                    return dx, dy
    return None


def sides(img: Image.Image, inner: tuple[int, int, int, int]) -> dict[str, Image.Image]:
    """The strips of ``img`` outside the box ``inner`` (left, top, right, bottom), by side
    (the top and bottom strips full width, the left and right ones between them)."""
    x0, y0, x1, y1 = inner
    boxes = {"top": (0, 0, img.width, y0), "bottom": (0, y1, img.width, img.height),
             "left": (0, y0, x0, y1), "right": (x1, y0, img.width, y1)}
    return {side: img.crop(b) for side, b in boxes.items() if b[2] > b[0] and b[3] > b[1]}


def mean(img: Image.Image) -> list[float]:
    return ImageStat.Stat(img).mean


def check_presets(bleed_dir: Path, card_mm: tuple[float, float], names: list[str],
                  looked_at: list[str]) -> None:
    """Each of ``names`` in ``bleed_dir`` (3 mm) and in its folders at the printers' sizes:
    exactly those sizes; for those ``looked_at``, the 3 mm image found in each pixel for
    pixel (not scaled, not cropped), the card's centre within a pixel of the image's, and the
    wider bleed round it the art's: on each side the colours of the 3 mm image's own bleed
    on that side (a back's ground and pattern, a face's white or colour band), not a blank."""
    k = layout.px(card_mm[0] + 6) / (card_mm[0] + 6)      # px a mm in the 3 mm export
    for preset, (pw, ph) in PRESETS.items():
        files = sorted(p.stem for p in (bleed_dir / preset).glob("*.png"))
        assert files == sorted(names), preset
        for name in names:
            with Image.open(bleed_dir / preset / f"{name}.png") as img:
                assert img.size == (pw, ph), (preset, name)
        for name in looked_at:
            small = Image.open(bleed_dir / f"{name}.png").convert("RGB")
            big = Image.open(bleed_dir / preset / f"{name}.png").convert("RGB")
            at = where_inside(big, small)
            assert at is not None, (preset, name)
            dx, dy = at
            cx, cy = dx + (3 + card_mm[0] / 2) * k, dy + (3 + card_mm[1] / 2) * k
            assert abs(cx - pw / 2) <= 1 and abs(cy - ph / 2) <= 1, (preset, name, cx, cy)
            wider = sides(big, (dx, dy, dx + small.width, dy + small.height))
            assert wider, (preset, name)            # the preset is wider than 3 mm somewhere
            own = sides(small, (8, 8, small.width - 8, small.height - 8))   # its outer 8 px
            for side, strip in wider.items():
                assert max(abs(a - b) for a, b in zip(mean(strip), mean(own[side]))) < 15, (
                    preset, name, side, mean(strip), mean(own[side]))


# --------------------------------------------------------------------------- fast
def test_a_png_carries_the_same_srgb_profile_every_time(tmp_path):
    first = {}
    for mode in ("RGB", "RGBA"):
        save_png(Image.new(mode, (4, 3), (10, 20, 30, 255)[:len(mode)]), tmp_path / "a.png", 300)
        first[mode] = (tmp_path / "a.png").read_bytes()
        with Image.open(tmp_path / "a.png") as img:
            assert is_srgb(img) and img.mode == mode
            assert round(img.info["dpi"][0]) == 300
    # made again a second later, the profile is the same bytes (no creation time in it), so
    # a PNG is the same file every build
    time.sleep(1.1)
    png.srgb_profile.cache_clear()
    for mode in ("RGB", "RGBA"):
        save_png(Image.new(mode, (4, 3), (10, 20, 30, 255)[:len(mode)]), tmp_path / "a.png", 300)
        assert (tmp_path / "a.png").read_bytes() == first[mode]


def test_the_srgb_check_tells_srgb_from_none_and_from_another(tmp_path):
    plain = Image.new("RGB", (2, 2))
    assert not is_srgb(plain)
    lab = ImageCms.ImageCmsProfile(ImageCms.createProfile("LAB")).tobytes()
    plain.save(tmp_path / "lab.png", icc_profile=lab)
    with Image.open(tmp_path / "lab.png") as img:
        assert not is_srgb(img)


def test_a_sheet_of_placed_cards_says_pdf_1_7(tmp_path):
    """The deck's cards are placed as forms by pypdf, whose own header is %PDF-1.3: the file
    keeps WeasyPrint's (1.7: transparency, object streams)."""
    r = Renderer(PAPERS["a4"], "full")
    sheets = duplex_card_sheets(PAPERS["a4"], full_deck()[:2], "a", False)
    assert all(it.ref for sh in sheets for it in sh.items)     # placed forms, every card
    r.write_pdf(sheets, tmp_path / "deck.pdf", title="t", subject="s", duplex=True)
    assert pdf_version(tmp_path / "deck.pdf") >= (1, 7)


@pytest.fixture(scope="module")
def poker(tmp_path_factory):
    """High Colours made poker size (63.5 x 88.9 mm), its PNGs written."""
    tmp = tmp_path_factory.mktemp("own-poker")
    content = tmp / "content"
    shutil.copytree(FIXTURES / "high-colours", content / "high-colours")
    (content / "index.yaml").write_text("games: [high-colours]\n")
    game_yaml = content / "high-colours" / "game.yaml"
    text = game_yaml.read_text()
    assert "size: mini" in text
    game_yaml.write_text(text.replace("size: mini", "size: poker"))
    report = run_check(content)
    assert not report.diagnostics.errors, [str(d) for d in report.diagnostics.errors]
    game = report.games[0].game
    r = Renderer(PAPERS["a4"], "full", content_root=content)
    paths = write_own_pngs(r, game, tmp / "png")
    return game, tmp / "png" / "high-colours", paths


def test_a_poker_size_own_deck_is_written_at_the_printers_sizes(poker):
    game, base, paths = poker
    bleed = base / "cards-bleed" / "colours"
    names = sorted(p.stem for p in bleed.glob("*.png"))
    assert "_back" in names and len(names) == len(game.decks[0].deck.cards) + 1
    with Image.open(bleed / "_back.png") as img:
        assert img.size == (821, 1121)                  # 63.5 x 88.9 mm and 3 mm at 300 dpi
    check_presets(bleed, (63.5, 88.9), names, [names[0], "_back"])
    assert {p for p in paths if p.parent.name in PRESETS} == {
        bleed / preset / f"{n}.png" for preset in PRESETS for n in names}


def test_every_own_deck_png_is_srgb(poker):
    _, _, paths = poker
    assert paths
    for path in paths:
        with Image.open(path) as img:
            assert is_srgb(img), path


def test_a_picture_just_big_enough_for_3_mm_is_written_at_the_printers_sizes_too(tmp_path):
    """A background picture of 300 dpi over the card and 3 mm (821 x 1121 px for a poker
    card), the least the check asks: the printers' sizes need no more of it, since their few
    pixels past 3 mm are the 3 mm export's edge mirrored, never the picture drawn again."""
    content = tmp_path / "content"
    folder = content / "high-colours"
    shutil.copytree(FIXTURES / "high-colours", folder)
    (content / "index.yaml").write_text("games: [high-colours]\n")
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace(
        "size: mini}", "size: poker, face: face.svg.j2}"))
    (folder / "face.svg.j2").write_text("{{ background(card.bg) }}\n")
    rows = (folder / "cards.csv").read_text().splitlines()
    (folder / "cards.csv").write_text("\n".join([rows[0] + ",bg"] + [r + ",bg.png" for r in rows[1:]])
                                      + "\n")
    Image.new("RGB", (821, 1121), (200, 40, 40)).save(folder / "bg.png")
    report = run_check(content)
    assert not report.diagnostics.errors, [str(d) for d in report.diagnostics.errors]
    game = report.games[0].game
    r = Renderer(PAPERS["a4"], "full", content_root=content)
    paths = write_own_pngs(r, game, tmp_path / "png")
    codes = [r.split(",")[0] for r in rows[1:]] + ["_back"]
    for preset, size in PRESETS.items():
        got = sorted(p.stem for p in paths if p.parent.name == preset)
        assert got == sorted(codes), preset
        with Image.open(next(p for p in paths if p.parent.name == preset)) as img:
            assert img.size == size


def test_the_wider_bleed_is_the_edge_mirrored():
    """mirror_pad: the original in the middle, pixel for pixel; each new column or row the
    mirror image of the one as far inside the edge."""
    img = Image.new("RGB", (6, 5))
    img.putdata([(x * 40, y * 50, 7) for y in range(5) for x in range(6)])
    out = png.mirror_pad(img, 2, 1, 3, 2)
    assert out.size == (11, 8)
    assert out.crop((2, 1, 8, 6)).tobytes() == img.tobytes()  # the same RGB pixels
    assert out.getpixel((1, 3)) == img.getpixel((0, 2))      # left: columns 0, 1 reversed
    assert out.getpixel((0, 3)) == img.getpixel((1, 2))
    assert out.getpixel((8, 3)) == img.getpixel((5, 2))      # right: columns 5, 4, 3
    assert out.getpixel((10, 3)) == img.getpixel((3, 2))
    assert out.getpixel((4, 0)) == img.getpixel((2, 0))      # top: row 0
    assert out.getpixel((4, 7)) == img.getpixel((2, 3))      # bottom: rows 4, 3
    assert out.getpixel((0, 0)) == img.getpixel((1, 0))      # a corner: both mirrors
    with pytest.raises(ValueError):
        png.mirror_pad(img, 7, 0, 0, 0)


# --------------------------------------------------------------------------- the build
def test_every_png_of_the_build_is_srgb(built):
    pngs = sorted((built / "png").rglob("*.png"))
    assert len(pngs) > 200
    for path in pngs:
        with Image.open(path) as img:
            assert is_srgb(img), path.relative_to(built)


def test_every_pdf_of_the_build_says_1_7_or_later(built):
    pdfs = sorted((built / "pdf").glob("*.pdf"))
    names = {p.name for p in pdfs}
    assert {"pnp-deck.pdf", "pnp-deck-gutterfold.pdf",
            "happy-families-cards-gutterfold.pdf", "compendium.pdf"} <= names
    for path in pdfs:
        assert pdf_version(path) >= (1, 7), path.name


def test_the_deck_at_the_printers_sizes(built):
    bleed = built / "png" / "cards-bleed"
    names = [str(c) for c in full_deck()] + ["back-a", "back-b"]
    assert sorted(p.stem for p in bleed.glob("*.png")) == sorted(names)
    with Image.open(bleed / "AS.png") as img:
        assert img.size == (815, 1110)                  # 63 x 88 mm and 3 mm, as before
    check_presets(bleed, (63.0, 88.0), names, ["AS", "QH", "back-a", "back-b"])


def test_an_own_poker_deck_of_the_build_at_the_printers_sizes(built):
    bleed = built / "png" / "happy-families" / "cards-bleed" / "families"
    names = sorted(p.stem for p in bleed.glob("*.png"))
    assert len(names) == 45                             # 44 cards and the back
    check_presets(bleed, (63.5, 88.9), names, [names[0], names[-2], "_back"])
