"""Stage 1, a game's worked examples: ``examples/*.yaml``, one example a file, each a
setup and the steps the reference engine replays (``decide``, ``chance``, ``expect``,
``comment``, ``repeat``). The readers check the form and the limits here; whether the
steps are right is the check's job (:mod:`builder.check`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .. import limits
from ..diagnostics import Located, describe, suggest
from ..model import Example, Positions, Rule, Step
from ..yamlsrc import LocDict, LocList, located_paths, plain_data
from .base import ID_RE, or_default
from .markdown import ProseReader

STEP_KEYS = {"decide", "chance", "expect", "comment", "repeat", "refused", "turn"}
#: what a part of a turn (``turn:``) may say
PART_KEYS = {"decide", "chance"}
EXAMPLE_KEYS = {"id", "title", "rules", "options", "setup", "steps", "intro", "outro", "draft"}


def _list_items(value: Any):
    """Where each item of every list inside ``value`` stands (a setup's cards), in order."""
    if isinstance(value, LocList):
        for i, item in enumerate(value):
            if isinstance(item, (LocList, LocDict)):
                yield from _list_items(item)
            else:
                yield value.at(i)
    elif isinstance(value, LocDict):
        for item in value.values():
            yield from _list_items(item)


class ExampleReader(ProseReader):
    """Lists a game's example files and reads each into an :class:`Example`."""

    def files(self, folder: Path) -> list[Path]:
        """The example files of a game's ``examples/`` folder, in file-name order, at most
        MAX_EXAMPLES; anything else in the folder (a file named ``examples``, a ``.yml``
        file, a sub-folder) is an error rather than an example that silently vanishes.
        Names starting with '.' (editors' swap files) are left alone."""
        if not (folder.exists() or folder.is_symlink()):
            return []
        if not folder.is_dir():
            self.diags.error(Located(self.show(folder), 1),
                             "'examples' must be a folder of example files (*.yaml), not a "
                             "file; the game's examples would vanish")
            return []
        try:
            entries = sorted(folder.iterdir())
        except OSError as e:
            self.diags.error(Located(self.show(folder), 1),
                             f"cannot read the examples folder: {e.strerror or e}")
            return []
        paths = []
        for path in entries:
            if path.name.startswith("."):
                continue
            if path.suffix != ".yaml":  # (a folder named *.yaml is refused as it is read)
                kind = "a folder" if path.is_dir() else "not a .yaml file"
                self.diags.error(Located(self.show(path), 1),
                                 f"'{path.name}' in examples/ is {kind}; examples/ holds only "
                                 f"example files, each named *.yaml (rename or move it)")
                continue
            paths.append(path)
        if len(paths) > limits.MAX_EXAMPLES:
            self.diags.error(Located(self.show(paths[limits.MAX_EXAMPLES]), 1),
                             limits.over(f"the game '{folder.parent.name}'", len(paths),
                                         limits.MAX_EXAMPLES, "examples per game")
                             + "; this is the first example past it")
            paths = paths[:limits.MAX_EXAMPLES]
        return paths

    def refused(self, s: LocDict, index) -> str | None:
        """A step's ``refused:``, the id of the rule its decision breaks (the step shows a
        move the rules forbid), or None."""
        if "refused" not in s:
            return None
        rid = s["refused"]
        if not isinstance(rid, str) or rid not in index:
            self.diags.error(s.at("refused"), f"refused: must be the id of the rule that "
                             f"forbids the decision, got {describe(rid)}"
                             + (suggest(rid, index) if isinstance(rid, str) else ""))
            return None
        if "decide" not in s:
            self.diags.error(s.at("refused"), "refused: is for a decision the rules forbid; "
                             "write that decision with decide:")
            return None
        if not isinstance(s["decide"], dict) or not s["decide"]:
            return None   # decide: itself is said wrong (or empty) where it is written
        if "expect" in s:
            self.diags.error(s.at("expect"), "a refused step changes nothing, so it has no "
                             "expect:; write what happens next in the following step")
            return None
        return rid

    def turn(self, s: LocDict, positions: Positions) -> list[Step] | None:
        """A step's ``turn:``: the parts of one turn (each a ``decide:`` or a ``chance:``,
        or nothing for a forced part), replayed in order and printed as one step."""
        clash = [k for k in ("decide", "chance", "refused", "repeat") if k in s]
        if clash:
            self.diags.error(s.at(clash[0]), f"a step with turn: has its decisions and chance "
                             f"outcomes in the turn's parts; move {clash[0]}: into one of them"
                             if clash[0] in ("decide", "chance") else
                             f"{clash[0]}: cannot go with turn: (a turn is played once, and a "
                             f"refused move is a step of its own)")
            return None
        raw = s["turn"]
        if not isinstance(raw, list) or len(raw) < 2:
            self.diags.error(s.at("turn"), "turn: must list the turn's parts in order, at "
                             "least two, each a decide: or a chance: (e.g. [{decide: {p1: "
                             "draw}}, {decide: {p1: 7H}}])")
            return None
        parts: list[Step] = []
        for j, part in enumerate(raw):
            where = raw.at(j)
            if part is None:
                part = LocDict()
                part.path, part.line, part.col = where.path, where.line, where.col
            if not isinstance(part, LocDict):
                self.diags.error(where, "a part of a turn must be a mapping: {decide: {p1: "
                                 "...}} or {chance: ...}")
                return None
            self.unknown_keys(part, PART_KEYS, "part of a turn")
            if "decide" in part and "chance" in part:
                self.diags.error(where, "a part of a turn is either a decision or a chance "
                                 "outcome, not both")
                return None
            decide = part.get("decide")
            if decide is not None and (not isinstance(decide, dict) or not decide):
                self.diags.error(part.at("decide"), "decide: must map each deciding player "
                                 "(p1, p2, ...) to a decision")
                return None
            if decide is not None:
                deciding = sorted(str(k) for k in decide)
                first = next((sorted(str(k) for k in p.decide) for p in parts if p.decide), None)
                if first is not None and deciding != first:
                    self.diags.error(part.at("decide"), f"a turn is the turn of "
                                     f"{', '.join(first)}, but this part is decided by "
                                     f"{', '.join(deciding)}; write another player's turn as a "
                                     f"step of its own")
                    return None
            parts.append(Step(index=j + 1, where=where, decide=plain_data(decide),
                              chance=plain_data(part.get("chance")), expect=None, comment="",
                              positions=positions.within("turn", j)))
        return parts

    def within_limits(self, data: LocDict, steps: LocList, eid: str,
                              texts: dict[str, str]) -> bool:
        """An example's steps (each repeat counted), words and setup within the limits
        (MAX_STEPS, MAX_EXAMPLE_CHARS, MAX_SETUP_CARDS), checked before anything
        replays it; False after a located error at the place the limit is passed."""
        def repeats(s: Any) -> int:
            if isinstance(s, dict) and isinstance(s.get("turn"), list):
                return max(1, len(s["turn"]))
            r = s.get("repeat", 1) if isinstance(s, dict) else 1
            return r if isinstance(r, int) and not isinstance(r, bool) and r > 1 else 1

        total = sum(repeats(s) for s in steps)
        if total > limits.MAX_STEPS:
            count = 0
            for i, s in enumerate(steps):
                count += repeats(s)
                if count > limits.MAX_STEPS:
                    where = s.at("repeat") if repeats(s) > 1 else steps.at(i)
                    self.diags.error(where, limits.over(f"the example '{eid}'", total, limits.MAX_STEPS,
                                                        "steps per example")
                                     + f" (each repeat counted); step {i + 1} passes it")
                    return False
        parts = [(data.at("intro"), texts.get("intro", ""))]
        parts += [(s.at("comment"), s["comment"]) for s in steps
                  if isinstance(s, LocDict) and isinstance(s.get("comment"), str)]
        parts.append((data.at("outro"), texts.get("outro", "")))
        chars = 0
        for where, text in parts:
            chars += len(text)
            if chars > limits.MAX_EXAMPLE_CHARS:
                total = sum(len(t) for _, t in parts)
                self.diags.error(where, limits.over(
                    f"the example '{eid}'", total, limits.MAX_EXAMPLE_CHARS,
                    "characters of words (intro, outro and comments) per example")
                    + "; the text here passes it")
                return False
        cards = list(_list_items(data.get("setup")))
        if len(cards) > limits.MAX_SETUP_CARDS:
            self.diags.error(cards[limits.MAX_SETUP_CARDS], limits.over(
                f"the setup of example '{eid}'", len(cards), limits.MAX_SETUP_CARDS,
                "cards per setup (all its lists together)") + "; this card is the first past it")
            return False
        return True

    def read(self, path: Path, index: dict[str, Rule]) -> Example | None:
        data = self.yaml(path)
        if data is None:
            return None
        shown = self.show(path)
        if not isinstance(data, LocDict):
            self.diags.error(Located(shown, 1), "an example file must be a mapping")
            return None
        self.unknown_keys(data, EXAMPLE_KEYS, "example")
        eid = self.require(data, "id", str, "example")
        title = self.require(data, "title", str, "example")
        if title is not None and not self.visible_name(title, data.at("title"),
                                                       "example: the title"):
            title = None
        if eid is not None and not ID_RE.match(eid):
            self.diags.error(data.at("id"), f"example id '{eid}' must be lower-case letters, digits and hyphens")
        rules = or_default(data, "rules", LocList())
        if not isinstance(rules, list):
            self.diags.error(data.at("rules"), "rules must be a list of rule ids")
            rules = LocList()
        for i, rid in enumerate(rules):
            if str(rid) not in index:
                self.diags.error(rules.at(i), f"unknown rule id '{rid}'" + suggest(rid, index))
        options = or_default(data, "options", LocDict())
        if not isinstance(options, dict):
            self.diags.error(data.at("options"), "options must be a mapping")
            options = LocDict()
        setup = data.get("setup")
        if not isinstance(setup, dict):
            self.diags.error(data.at("setup") if "setup" in data else Located(shown, 1),
                             "example: 'setup' must be a mapping (piles: ...)")
            setup = LocDict()
        texts = {key: self.text(data, key, "example") for key in ("intro", "outro")}
        for key, text in texts.items():
            if text:
                self.check_markdown(text, data.at(key))
                self.check_xrefs(text, data.at(key), set(index))
        steps_raw = data.get("steps")
        steps: list[Step] = []
        if not isinstance(steps_raw, list) or not steps_raw:
            self.diags.error(data.at("steps") if "steps" in data else Located(shown, 1),
                             "example: 'steps' must be a non-empty list")
            steps_raw = LocList()
        if not self.within_limits(data, steps_raw, eid or path.stem, texts):
            return None
        n = 0
        unplayable = False
        positions = Positions(*located_paths(data))
        for i, s in enumerate(steps_raw):
            where = steps_raw.at(i)
            if s is None:
                s = LocDict()
                s.path, s.line, s.col = where.path, where.line, where.col
            if not isinstance(s, LocDict):
                self.diags.error(where, "a step must be a mapping (decide:, chance:, expect:, comment:)")
                continue
            self.unknown_keys(s, STEP_KEYS, "step")
            if "decide" in s and "chance" in s:
                self.diags.error(where, "a step is either a decision or a chance outcome, not both")
            decide = s.get("decide")
            if "refused" in s and decide == {}:
                self.diags.error(s.at("decide"), "decide: is empty; write the decision the "
                                 "rules forbid, such as {p1: QS}")
                decide = None
            elif decide is not None and not isinstance(decide, dict):
                self.diags.error(s.at("decide"), "decide: must map each deciding player (p1, p2, ...) to a decision")
                decide = None
            repeat = s.get("repeat", 1)
            if not isinstance(repeat, int) or isinstance(repeat, bool) or repeat < 1:
                self.diags.error(s.at("repeat"), "repeat must be a whole number of at least 1")
                repeat = 1
            if repeat > 1 and ("decide" in s or "chance" in s):
                self.diags.error(s.at("repeat"), "repeat is only for forced steps (no decide:, no chance:)")
                repeat = 1
            refused = None if "turn" in s else self.refused(s, index)
            comment = self.text(s, "comment", "step")
            if comment:
                self.check_markdown(comment, s.at("comment"))
                self.check_xrefs(comment, s.at("comment"), set(index))
            expect = s.get("expect")
            if expect is not None and not isinstance(expect, dict):
                self.diags.error(s.at("expect"), "expect: must map state names to expected values")
                expect = None
            parts = self.turn(s, positions.within("steps", i)) if "turn" in s else None
            if "turn" in s and parts is None:
                unplayable = True   # said at its line; replaying the example would only
                continue            # say more of the same, about the steps after it
            n += 1
            steps.append(Step(index=n, where=where, decide=plain_data(decide),
                              chance=plain_data(s.get("chance")), expect=plain_data(expect),
                              comment=comment, repeat=repeat, refused=refused,
                              positions=positions.within("steps", i), parts=parts))
        if unplayable:
            return None
        return Example(
            id=eid or path.stem, title=title or path.stem, where=Located(shown, 1),
            rules=[str(r) for r in rules], options=plain_data(options),
            setup=plain_data(setup), steps=steps, intro=texts["intro"], outro=texts["outro"],
            written=plain_data(data), positions=positions,
        )

