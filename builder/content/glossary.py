"""Stage 1, a game's ``glossary.yaml``: a list of terms, each with its definition and the
rules it points to (``see``), sorted by term for the book.
"""

from __future__ import annotations

from pathlib import Path

from .. import limits
from ..diagnostics import Located
from ..model import Rule, Term
from ..yamlsrc import LocDict, LocList
from .base import or_default
from .markdown import ProseReader

#: the longest term, in characters
MAX_TERM = 80


class GlossaryReader(ProseReader):
    """Reads one game's glossary.yaml into its terms."""

    def read(self, path: Path, index: dict[str, Rule]) -> list[Term]:
        present = path.exists() or path.is_symlink()
        data = self.yaml(path) if present else None
        shown = self.show(path)
        if data is None:
            if not present:
                self.diags.error(Located(shown, 0, 0), "glossary.yaml is missing")
            return []
        if not isinstance(data, LocList):
            self.diags.error(Located(shown, 1), "glossary.yaml must be a list of terms")
            return []
        out = []
        if len(data) > limits.MAX_TERMS:
            self.diags.error(data.at(limits.MAX_TERMS), limits.over(
                "glossary.yaml", len(data), limits.MAX_TERMS, "terms per glossary")
                + "; this entry is the first past it")
            return []
        chars = 0
        for i, item in enumerate(data):
            if not isinstance(item, LocDict):
                self.diags.error(data.at(i), "a glossary entry needs 'term' and 'definition'")
                continue
            chars += sum(len(v) for k, v in item.items()
                         if k in ("term", "definition") and isinstance(v, str))
            if chars > limits.MAX_GLOSSARY_CHARS:
                total = sum(len(v) for it in data if isinstance(it, dict)
                            for k, v in it.items() if k in ("term", "definition")
                            and isinstance(v, str))
                self.diags.error(data.at(i), limits.over(
                    "glossary.yaml", total, limits.MAX_GLOSSARY_CHARS,
                    "characters of terms and definitions per glossary")
                    + "; this entry passes it")
                return []
            self.unknown_keys(item, {"term", "definition", "see"}, "glossary entry")
            term = self.require(item, "term", str, "glossary entry")
            if term is not None and not 0 < len(term.strip()) <= MAX_TERM:
                self.diags.error(item.at("term"), f"glossary entry: a term is one to {MAX_TERM} "
                                 f"characters long")
                term = None
            if term is not None and not self.visible_name(term, item.at("term"),
                                                          "glossary entry: the term"):
                term = None
            definition = self.require(item, "definition", str, "glossary entry")
            see = or_default(item, "see", [])
            if isinstance(see, str):
                see = [see]
            if not isinstance(see, list) or not all(isinstance(r, str) for r in see):
                self.diags.error(item.at("see"), "glossary entry: 'see' must be a rule id or a "
                                 "list of rule ids")
                see = []
            for j, rid in enumerate(see):
                if rid not in index:
                    w = see.at(j) if isinstance(see, LocList) else item.at("see")
                    self.diags.error(w, f"unknown rule id '{rid}'")
            if definition:
                self.check_markdown(definition, item.at("definition"))
                self.check_xrefs(definition, item.at("definition"), index)
            if term and definition:
                out.append(Term(term, definition, [str(s) for s in see], data.at(i)))
        return sorted(out, key=lambda t: t.term.lower())
