"""The field validators every content reader shares (builder/content/fields.py) and the one
door to "did you mean" (builder/diagnostics.py ``suggest``/``closest``): each message
written out by hand, and the same words from every reader that uses them."""

from __future__ import annotations

import pytest

from builder.content import fields
from builder.diagnostics import Diagnostics, closest, suggest
from builder.settings import PAPERS
from builder.yamlsrc import load_yaml


def _mapping(tmp_path, text: str):
    path = tmp_path / "f.yaml"
    path.write_text(text)
    return load_yaml(path, "f.yaml")


def test_suggest_names_the_closest_choice_or_nothing():
    assert suggest("titel", ["title", "subtitle", "credits"]) == "; did you mean 'title'?"
    assert suggest("zzz", ["title", "subtitle"]) == ""
    assert closest("helvetica", ["liberation serif", "dejavu sans"]) is None  # none is close
    assert closest("liberation sans", ["liberation serif", "dejavu sans"]) == "liberation serif"
    assert suggest(7, ["7s", "x"]) == "; did you mean '7s'?"        # a number is read as text


@pytest.mark.parametrize("value, message", [
    ("many", "must be a whole number from 1 to 30, got 'many'"),
    (True, "must be a whole number from 1 to 30, got true"),
    (0, "must be a whole number from 1 to 30, got 0"),
    (31, "must be a whole number from 1 to 30, got 31"),
    (2.0, "must be a whole number from 1 to 30, got 2.0"),
])
def test_whole_refuses_what_is_not_a_whole_number_in_range(value, message):
    with pytest.raises(ValueError) as e:
        fields.whole(1, 30)(value)
    assert str(e.value) == message


def test_whole_takes_its_bounds_and_writes_large_ones_grouped():
    assert fields.whole(1, 30)(1) == 1 and fields.whole(1, 30)(30) == 30
    with pytest.raises(ValueError, match=r"^must be a whole number from 10 to 1,000,000, got 5$"):
        fields.whole(10, 1_000_000)(5)


def test_one_of_names_the_choices_in_order_and_the_closest():
    check = fields.one_of(*PAPERS)
    assert check("letter") == "letter"
    with pytest.raises(ValueError) as e:
        check("leter")
    assert str(e.value) == "must be one of a4, letter, got 'leter'; did you mean 'letter'?"
    with pytest.raises(ValueError) as e:
        check(["a4"])
    assert str(e.value) == "must be one of a4, letter, got [a4]"


def test_colour_share_and_text():
    assert fields.colour("#7A4B1E") == "#7a4b1e"
    with pytest.raises(ValueError, match=r'^must be a colour written #rrggbb \(such as '
                                         r'"#7a4b1e"\), got \'#12345\'$'):
        fields.colour("#12345")
    assert fields.share("52%") == pytest.approx(0.52)
    assert fields.share(0.25) == 0.25
    assert fields.share(0) == 0 and fields.share("0%") == 0 and fields.share("100%") == 1
    for bad in ("152%", 1.5, True, "half"):
        with pytest.raises(ValueError, match="must be a share such as 52% or 0.52"):
            fields.share(bad)
    assert fields.text("  a   b ") == "a b"
    with pytest.raises(ValueError, match=r"^must be some text, got ''$"):
        fields.text("")


def test_a_size_is_20_to_400_mm_each_way_both_included():
    assert fields.size_mm([20, 400]) == (20.0, 400.0)
    assert fields.size_mm([400.0, 20.0]) == (400.0, 20.0)
    for bad in ([19.9, 100], [100, 400.5]):
        with pytest.raises(ValueError, match=r"^must be 20 to 400 mm each way, got \["):
            fields.size_mm(bad)


def test_unknown_keys_reports_each_at_its_key_with_the_allowed_keys(tmp_path):
    data = _mapping(tmp_path, "kind: tokens\ncuont: 5\nname: N\nzzz: 1\n")
    diags = Diagnostics()
    ok = fields.unknown_keys(diags, data, {"name", "count"}, "tokens", skip=("kind",))
    assert not ok
    assert [d.format() for d in diags] == [
        "f.yaml:2:1: error: tokens: unknown key 'cuont' (allowed: count, name); did you "
        "mean 'count'?",
        "f.yaml:4:1: error: tokens: unknown key 'zzz' (allowed: count, name)"]
    assert fields.unknown_keys(Diagnostics(), data, {"cuont", "name", "zzz"}, "x",
                               skip=("kind",))


def test_the_book_paper_is_one_of_the_settings_paper_table(tmp_path, monkeypatch):
    """book.paper is checked against builder.settings.PAPERS, the one paper table: a paper
    added there is taken, and the refusal lists that table's names."""
    import dataclasses
    import shutil
    from pathlib import Path

    from builder.content import load_content

    root = tmp_path / "c"
    shutil.copytree(Path(__file__).parents[1] / "fixtures" / "high-five", root / "high-five")
    (root / "index.yaml").write_text("book:\n  paper: a3\ngames: [high-five]\n")
    _, diags = load_content(root)
    assert [d.message for d in diags.errors] == [
        "book.paper must be one of a4, letter, got 'a3'"]  # one letter of two: not close
    monkeypatch.setitem(PAPERS, "a3", dataclasses.replace(PAPERS["a4"], name="a3", label="A3",
                                                          css="A3", width=297.0, height=420.0))
    content, diags = load_content(root)
    assert not diags.errors and content.book.paper == "a3"


def test_a_line_counts_the_lines_it_refuses():
    """(Called here, not only through the kit's vocabulary, which makes its checks when the
    module is imported.)"""
    check = fields.line(10, "on a sheet")
    assert check("  a   b ") == "a b"
    with pytest.raises(ValueError, match=r"^must be one line of text \(it is printed on a "
                                         r"sheet\), got 3 lines$"):
        check("a\nb\nc")
    with pytest.raises(ValueError, match=r"^must be at most 10 characters \(it is printed on "
                                         r"a sheet\), got 11$"):
        check("x" * 11)
