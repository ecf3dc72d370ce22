"""scripts/mutation.py finds the mutants judged equivalent (tests/mutation/equivalent.yaml)
by the change each makes, not by mutmut's number for it, which shifts whenever the
function is edited."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import mutation  # noqa: E402  (scripts/ is not a package)

# what mutmut writes into mutants/: each function's original copy and its mutants, methods
# inside their class
MUTATED = '''\
def x_f__mutmut_orig(a):
    b = a + 1
    return b
def x_f__mutmut_1(a):
    b = a - 1
    return b
def x_f__mutmut_2(a):
    b = a + 1
    return None
class C:
    def xǁCǁg__mutmut_orig(self):
        return 1
    def xǁCǁg__mutmut_1(self):
        return 2
'''


def test_a_mutant_is_the_lines_it_takes_out_and_puts_in():
    assert mutation.changes(MUTATED, "builder.m") == {
        "builder.m.x_f__mutmut_1": (("b = a + 1",), ("b = a - 1",)),
        "builder.m.x_f__mutmut_2": (("return b",), ("return None",)),
        "builder.m.xǁCǁg__mutmut_1": (("return 1",), ("return 2",)),
    }


def test_an_entry_is_found_again_after_the_mutants_are_numbered_anew(tmp_path: Path):
    entries = [mutation.Equivalent("builder.m.x_f", ("return b",), ("return None",), "why"),
               mutation.Equivalent("builder.m.x_f", ("b = a + 1",), ("b = a * 1",), "gone")]
    (tmp_path / "mutants" / "builder").mkdir(parents=True)
    # an edit of f put a new mutant first: "return None" is now mutant 3, not 2
    renumbered = MUTATED.replace("x_f__mutmut_2", "x_f__mutmut_3").replace(
        "x_f__mutmut_1(a):\n    b = a - 1",
        "x_f__mutmut_2(a):\n    b = a - 1\n    return b\ndef x_f__mutmut_1(a):\n    b = a + 2")
    (tmp_path / "mutants" / "builder" / "m.py").write_text(renumbered)
    names, stale = mutation.equivalent_names(tmp_path, entries)
    assert names == {"builder.m.x_f__mutmut_3": "why"}
    assert stale == [entries[1]]


def test_the_entries_are_complete():
    entries = mutation.equivalents()
    assert len(entries) >= 40
    for e in entries:
        assert e.function.startswith("builder.") and "__mutmut_" not in e.function
        assert (e.taken or e.put) and e.taken != e.put
        assert len(e.why) > 20, e


@pytest.mark.parametrize("name, module", [
    ("builder.check.x_match_events__mutmut_3", "builder/check.py"),
    ("builder.content.rules.xǁRulesReaderǁread__mutmut_340", "builder/content/rules.py"),
])
def test_a_mutants_module(name, module):
    assert mutation.module_of(name) == module


def test_only_the_groups_own_modules_are_judged(tmp_path: Path):
    """A group's run copies every module but mutates only its own: an entry of another
    module is neither found nor stale there."""
    entry = mutation.Equivalent("builder.other.x_f", ("return b",), ("return None",), "why")
    (tmp_path / "mutants" / "builder").mkdir(parents=True)
    (tmp_path / "mutants" / "builder" / "other.py").write_text("def f(a):\n    return a\n")
    assert mutation.equivalent_names(tmp_path, [entry], ["builder/m.py"]) == ({}, [])
    assert mutation.equivalent_names(tmp_path, [entry]) == ({}, [entry])
