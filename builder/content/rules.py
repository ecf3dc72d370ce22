"""Stage 1, a game's ``rules.md``: numbered rules from Markdown headings (``#`` 1.,
``##`` 1.1, ``###`` 1.1.1), each ending in its id ``{#id}``, with the body under it.
Sections named ``golden-rules`` and ``clarifications`` are their own parts of the book.
"""

from __future__ import annotations

import re
from pathlib import Path

from .. import limits
from ..diagnostics import Located, describe
from ..model import Rule
from ..yamlsrc import Source
from .base import ID_RE
from .markdown import MAX_BRACKETS, MAX_PARAGRAPH, ProseReader

# linear in the line, as the patterns of .markdown
HEADING_RE = re.compile(r"^(#{1,6})[ \t]+(\S.*)$")


def heading_id(title: str) -> tuple[str, str] | None:
    """A heading's text split into (title, id) when it ends in ``{#id}``; None otherwise.
    Done with string methods, so a line of any length takes linear time."""
    text = title.rstrip()
    if not text.endswith("}"):
        return None
    start = text.rfind("{#")
    if start < 0:
        return None
    rid = text[start + 2:-1]
    if "}" in rid or any(c.isspace() for c in rid):
        return None
    return text[:start].rstrip(), rid



class RulesReader(ProseReader):
    """Reads one game's rules.md into its numbered rules."""

    def read(self, path: Path) -> list[Rule]:
        shown = self.show(path)
        if not path.exists() and not path.is_symlink():
            self.diags.error(Located(shown, 0, 0), "rules.md is missing")
            return []
        text = self.text_file(path)
        if text is None:
            return []
        if len(text) > limits.MAX_RULES_CHARS:
            line, col = Source(text).line_col(limits.MAX_RULES_CHARS)
            self.diags.error(Located(shown, line, col),
                             limits.over("rules.md", len(text), limits.MAX_RULES_CHARS,
                                         "characters per rules.md") + "; the text here passes it")
            return []
        tops: list[Rule] = []
        stack: list[Rule] = []
        counters = [0, 0, 0]
        body: list[tuple[int, str]] = []   # the current rule's text: (line number, line)
        texts: list[tuple[Rule, int]] = []  # each rule with a text, and the line it starts on
        current: Rule | None = None
        seen: dict[str, Located] = {}
        in_fence = False

        def flush() -> None:
            if current is not None:
                current.body = "\n".join(t for _, t in body).strip("\n")
                if body:   # (from its first line that is not blank)
                    texts.append((current, body[0][0]))
                    self.check_markdown(current.body, Located(shown, body[0][0]))

        for lineno, line in enumerate(text.splitlines(), start=1):
            if line.lstrip().startswith("```"):
                in_fence = not in_fence
            m = HEADING_RE.match(line) if not in_fence else None
            if not m:
                if current is None and line.strip():
                    self.diags.error(Located(shown, lineno),
                                     "text before the first heading; every rule belongs to a section")
                if not body and not line.strip():
                    continue
                body.append((lineno, line))
                continue
            flush()
            body = []
            if len(seen) >= limits.MAX_RULES:
                self.diags.error(Located(shown, lineno), limits.over(
                    "rules.md", sum(1 for ln in text.splitlines() if HEADING_RE.match(ln)),
                    limits.MAX_RULES, "rules (headings) per rules.md")
                    + "; this heading is the first past it")
                return []
            level = len(m.group(1))
            if level > 3:
                self.diags.error(Located(shown, lineno),
                                 "rules go three levels deep at most (#, ##, ###: 1., 1.1, 1.1.1)")
                level = 3
            if len(line) > MAX_PARAGRAPH or line.count("[") > MAX_BRACKETS:
                self.diags.error(Located(shown, lineno), f"a heading of {len(line):,} "
                                 f"characters ({line.count('['):,} '['); keep headings short")
                continue
            self.check_links(line, Located(shown, lineno))
            heading = m.group(2).rstrip()
            hm = heading_id(heading)
            if not hm:
                self.diags.error(Located(shown, lineno, len(line.rstrip())),
                                 f"heading '{describe(heading)[1:-1]}' has no id; end it with "
                                 f"{{#some-id}}")
                title, rid = heading, f"line-{lineno}"
            else:
                title, rid = hm
                self.visible_name(title, Located(shown, lineno, len(m.group(1)) + 2),
                                  "the rule's title")
                if not ID_RE.match(rid):
                    self.diags.error(Located(shown, lineno, line.rindex("{#") + 1),
                                     f"rule id '{describe(rid)[1:-1]}' must be lower-case letters, digits and hyphens")
            if rid in seen:
                self.diags.error(Located(shown, lineno),
                                 f"rule id '{rid}' is already used on line {seen[rid].line}")
            seen[rid] = Located(shown, lineno)
            if level > len(stack) + 1:
                self.diags.error(Located(shown, lineno),
                                 f"heading level {level} directly under level {len(stack)}; "
                                 f"do not skip a level")
                level = len(stack) + 1
            counters[level - 1] += 1
            for i in range(level, 3):
                counters[i] = 0
            number = ".".join(str(c) for c in counters[:level]) + ("." if level == 1 else "")
            del stack[level - 1:]
            part = "rules"
            low = rid
            if level == 1 and low in ("golden-rules", "golden"):
                part = "golden"
            elif level == 1 and low == "clarifications":
                part = "clarifications"
            elif stack:
                part = stack[0].part
            rule = Rule(id=rid, number=number, title=title, level=level, body="",
                        where=Located(shown, lineno), part=part,
                        parent=stack[-1].id if stack else None)
            if stack:
                stack[-1].children.append(rule)
            else:
                tops.append(rule)
            stack.append(rule)
            current = rule
        flush()
        if not tops:
            self.diags.error(Located(shown, 1), "rules.md has no numbered sections")
        # cross-references
        index = {r.id for t in tops for r in t.walk()}
        for r, start in texts:
            self.check_xrefs(r.body, Located(shown, start), index)
        return tops
