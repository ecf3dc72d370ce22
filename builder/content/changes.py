"""Stage 1, ``changes:`` in game.yaml: the changes made to a game's rules since it was first
printed (errata and revisions), each dated and naming the rule it changed::

    changes:
      - {date: 2026-11-28, rule: opt-stones, text: Four or five stones may be played.}

The books and the website list them newest first, each with its rule's number and title
(and page); the rules version and date of the whole content are ``book.version`` and
``book.date`` in index.yaml.
"""

from __future__ import annotations

from .. import limits
from ..diagnostics import suggest
from ..model import Change, Rule
from ..yamlsrc import LocDict, LocList
from . import fields
from .markdown import ProseReader

KEYS = ("date", "rule", "text")


class ChangesReader(ProseReader):
    """Reads a game's ``changes:`` into :class:`~builder.model.Change` entries."""

    def read(self, data: LocDict, index: dict[str, Rule]) -> list[Change]:
        if "changes" not in data:
            return []
        items = data["changes"]
        if not isinstance(items, LocList):
            self.diags.error(data.at("changes"), "changes must be a list of entries, each "
                             "{date: YYYY-MM-DD, rule: RULE-ID, text: ...}")
            return []
        if len(items) > limits.MAX_CHANGES:
            self.diags.error(items.at(limits.MAX_CHANGES), limits.over(
                "changes", len(items), limits.MAX_CHANGES, "entries per game")
                + "; this entry is the first past it")
            return []
        out = []
        for i, item in enumerate(items):
            if not isinstance(item, LocDict):
                self.diags.error(items.at(i), "a change is a mapping: {date: YYYY-MM-DD, "
                                 "rule: RULE-ID, text: what changed}")
                continue
            self.unknown_keys(item, KEYS, "change")
            missing = [k for k in KEYS if k not in item]
            if missing:
                hint = {"date": "the day it was made, such as date: 2026-11-28",
                        "rule": "the id of the rule it changed, as in rules.md's {#id}",
                        "text": "what changed, in a sentence or two"}
                self.diags.error(items.at(i), f"change: '{missing[0]}' is missing ("
                                 f"{hint[missing[0]]})")
                continue
            day = self.field(item, "date", fields.date, "change: date")
            rule = item["rule"]
            if not isinstance(rule, str) or rule not in index:
                self.diags.error(item.at("rule"), f"change: unknown rule id {rule!r}"
                                 + (suggest(rule, list(index)) if isinstance(rule, str) else "")
                                 + " (a change names the rule it changed, by its id in rules.md)")
                rule = None
            text = self.field(item, "text", fields.text, "change: text")
            if text is not None and len(text) > limits.MAX_CHANGE_CHARS:
                self.diags.error(item.at("text"), f"change: text must be at most "
                                 f"{limits.MAX_CHANGE_CHARS:,} characters, got {len(text):,}")
                text = None
            if text is not None:
                self.check_markdown(text, item.at("text"))
                self.check_xrefs(text, item.at("text"), index)
            if day and rule and text:
                out.append(Change(date=day, rule=rule, text=text, where=items.at(i)))
        return sorted(out, key=lambda c: c.date, reverse=True)  # newest first, stable
