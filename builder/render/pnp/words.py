"""The game's words as the component sheets print them: quick reference lines and rule
bodies as HTML, with cross-references reduced to rule numbers (a sheet has no links)."""

from __future__ import annotations

import re
from typing import Any

from markupsafe import Markup, escape

from ... import __version__
from ..markup import Markdown
from .pieces import ComponentError


class Words:
    """The game's text, shaped for the components: quick reference lines and rule bodies as
    HTML with cross-references reduced to rule numbers."""

    def __init__(self, game, version: str = __version__):
        self.game = game
        self.title = game.title
        self.rules = game.rule_index()
        self._md = Markdown(self._resolve)
        self.quick = [self._inline(q) for q in game.quickref]
        self.foot = Markup(f"From the rules of {escape(game.title)} · warbook {escape(version)}")

    @property
    def card(self) -> dict[str, Any]:
        """What the words' templates (components/texts.html.j2) read: plain values."""
        return {"title": self.title, "foot": self.foot}

    def _resolve(self, rid: str):
        r = self.rules.get(rid)
        return None if r is None else ("#", f"rule {r.number}")

    def _rule(self, rid: str):
        try:
            return self.rules[rid]
        except KeyError:
            raise ComponentError(f"{self.game.slug}: a component names rule '{rid}', "
                                 f"which the rules do not have") from None

    @staticmethod
    def _unlink(html: str) -> str:
        return re.sub(r'<a class="xref" href="#">(.*?)</a>', r'<span class="xref">\1</span>', html)

    def _inline(self, text: str) -> Markup:
        return Markup(self._unlink(str(self._md.inline(text))))

    def block(self, text: str) -> Markup:
        return Markup(self._unlink(str(self._md.block(text))))

    def body(self, rid: str) -> Markup:
        return Markup(self._unlink(str(self._md.block(self._rule(rid).body))))

    def num(self, rid: str) -> str:
        return self._rule(rid).number.rstrip(".")

    def ref(self, rid: str) -> Markup:
        return Markup(f'<span class="ref">(rule {escape(self.num(rid))})</span>')

    def option_text(self, name: str) -> Markup:
        for o in self.game.options:
            if o.name == name:
                return Markup(self._unlink(str(self._md.inline(o.text.strip()))))
        raise ComponentError(f"{self.game.slug}: no option '{name}'")
