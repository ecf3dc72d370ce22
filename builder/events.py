"""An example's ``events:`` expectations against the events the engine produced.

The check (:mod:`builder.check`) and ``warbook record`` (:mod:`builder.record`) both read
and write event expectations through this module, so that what one writes the other reads
back as the very same event:

- :func:`match_events` says whether the listed events occur, in order, among a step's
  events (others may come between), and if not, which one is missing;
- :func:`missing_event_detail` explains a missing one: the expectation beside the closest
  event the engine produced, field by field, then every event of the step;
- :func:`event_fields` is an event as the fields a designer writes (kind, player, rule,
  cards and the data fields), and :func:`event_spec` the part of those fields that the
  check reads back as this very event (what ``record`` writes).

Every value is written out with :func:`builder.diagnostics.yaml_value`, the one YAML
serialiser of the check's messages and of ``record``'s files.
"""

from __future__ import annotations

from typing import Any

import yaml

from .diagnostics import yaml_value
from .engine.core import CardError, Event, jsonable, parser_for

#: the fields every event has; any other field of an expectation is one of its data fields
EVENT_FIELDS = ("kind", "player", "rule", "cards", "text")


def common_fields(ev: Event) -> dict[str, Any]:
    """The fields every event may have, as written: kind, then player, rule and cards
    when it has them."""
    fields: dict[str, Any] = {"kind": ev.kind}
    if ev.player:
        fields["player"] = ev.player
    if ev.rule:
        fields["rule"] = ev.rule
    if ev.cards:
        fields["cards"] = [str(c) for c in ev.cards]
    return fields


def event_fields(ev: Event) -> dict[str, Any]:
    """An event as the designer would write it to expect it exactly: its common fields,
    then every data field (as plain data)."""
    return {**common_fields(ev), **{k: jsonable(v) for k, v in ev.data.items()}}


def event_yaml(ev: Event) -> str:
    """An event in YAML flow style, as the check shows it (``{kind: take, player: p1}``)."""
    return yaml_value(event_fields(ev))


def event_spec(ev: Event, names: dict[str, str]) -> dict[str, Any]:
    """An event as an expectation that the check reads back as this very event: kind,
    player, rule, cards and each data field whose written form matches (a data field that
    is a list or mapping, or that names a common field, is left out)."""
    spec = common_fields(ev)
    for k, v in ev.data.items():
        if k in EVENT_FIELDS:
            continue
        value = jsonable(v)
        if isinstance(value, (dict, list)):
            continue  # the check compares a data field as text: a scalar reads back safely
        reread = yaml.safe_load(yaml_value(value))
        if event_matches({k: reread}, ev, names):
            spec[k] = value
    return spec


def event_matches(spec: dict, ev: Event, names: dict[str, str]) -> bool:
    """Whether the event has every field of ``spec``: kind, player and rule exactly, cards
    as the same list of card codes, text as a piece of the event's text or narration (in
    any case), and any other field as the same text as the event's data field."""
    for k, v in spec.items():
        if k == "kind" and ev.kind != v:
            return False
        if k == "player" and ev.player != v:
            return False
        if k == "rule" and ev.rule != v:
            return False
        if k == "cards":
            if not isinstance(v, list):  # cards: is a list of card codes
                return False
            try:
                if [str(c) for c in ev.cards] != [str(parser_for(ev.cards)(x)) for x in v]:
                    return False
            except CardError:
                return False
        if k == "text" and str(v).lower() not in ev.text.lower() \
                and str(v).lower() not in ev.narrate(names).lower():
            return False
        if k not in EVENT_FIELDS:
            if str(ev.data.get(k)) != str(v):
                return False
    return True


def match_events(want: Any, events: list[Event], names: dict[str, str] | None = None,
                 with_index: bool = False):
    """The listed events must occur in this order among the step's events (others may come
    between). Each is a kind, or a mapping of kind/player/rule/cards/text fields. Returns
    "" or what is wrong (with ``with_index``: and the index of the first listed event not
    found)."""
    def out(msg: str, at: int | None = None):
        return (msg, at) if with_index else msg

    if not isinstance(want, list):
        return out("expected a list of event kinds")
    i = 0
    for n, item in enumerate(want):
        spec = ({"kind": item} if isinstance(item, str)
                else dict(item) if isinstance(item, dict) else None)
        if spec is None:
            return out(f"cannot read event {yaml_value(item)}", n)
        while i < len(events):
            if event_matches(spec, events[i], names or {}):
                break
            i += 1
        else:
            later = any(event_matches(spec, e, names or {}) for e in events)
            what = yaml_value(spec["kind"] if list(spec) == ["kind"] else spec)
            return out(f"no event {what}" + (" after the ones listed before it (the events "
                                              "are expected in this order)" if later else
                                              " among the step's events"), n)
        i += 1
    return out("")


def field_value(ev: Event, field: str, names: dict[str, str]) -> Any:
    """What the event has for one field of an expectation (its narration for ``text``)."""
    if field == "kind":
        return ev.kind
    if field == "player":
        return ev.player
    if field == "rule":
        return ev.rule
    if field == "cards":
        return [str(c) for c in ev.cards]
    if field == "text":
        return ev.narrate(names)
    return jsonable(ev.data[field]) if field in ev.data else "(no such field)"


def closest_event(spec: dict, events: list[Event], names: dict[str, str]) -> int | None:
    """The index of the event with the most fields as expected (the same kind first)."""
    if not events:
        return None

    def score(i: int) -> tuple:
        ev = events[i]
        same = sum(1 for k, v in spec.items() if event_matches({k: v}, ev, names))
        return (ev.kind == spec.get("kind"), same, -i)

    return max(range(len(events)), key=score)


def missing_event_detail(want: list, missing: int | None, events: list[Event],
                         names: dict[str, str]) -> str:
    """The lines under a missing event's error: the expectation, the closest event the
    engine produced with each field compared, then every event of the step."""
    lines = []
    if missing is not None:
        spec = {"kind": want[missing]} if isinstance(want[missing], str) else dict(want[missing])
        lines.append(f"expected (event {missing + 1} of {len(want)} listed):")
        lines.append(f"  {yaml_value(spec)}")
        closest = closest_event(spec, events, names)
        if closest is not None:
            ev = events[closest]
            lines.append(f"closest event the engine produced (event {closest + 1} of "
                         f"{len(events)}):")
            lines.append(f"  {event_yaml(ev)}")
            width = max(len(k) for k in spec) + 1
            lines.append(f"  {'field':<{width}} {'expected':<16} got")
            for k, v in spec.items():
                got = field_value(ev, k, names)
                mark = "" if event_matches({k: v}, ev, names) else "   <- differs"
                lines.append(f"  {k + ':':<{width}} {yaml_value(v):<16} {yaml_value(got)}{mark}")
    lines.append(f"events of this step ({len(events)}):")
    lines += [f"  {i + 1}. {event_yaml(ev)}" for i, ev in enumerate(events)] or ["  (none)"]
    return "\n".join(lines)
