"""The bounded sandbox every template runs in, and the one place templates are rendered.

A content folder may override any shipped template (``content/templates/site/
index.html.j2``), so templates are untrusted code. Every template, shipped or the
content's, is compiled by :class:`BoundedEnvironment` (Jinja's sandbox, narrowed) and
rendered through :class:`BoundedTemplate`, so:

- **templates see data**: a template may read attributes of plain values (text, numbers,
  lists, mappings, markup made safe), of the render stage's view records (dataclasses of
  ``builder.render``, whose methods compute and return values) and of Jinja's own loop,
  namespace and macro objects; it may call macros, the helpers the renderers hand it
  (:func:`helper`: pure functions that touch no file, network or renderer) and the methods
  of those values. Anything else (a ``Path``, a module, a class, ``__class__``, ``format``,
  ``format_map``, ``%`` formatting of text, the ``attr`` and ``format`` filters) stops the
  render with "... is not allowed in a template" at the template's file and line;
- **templates are bounded** (:data:`LIMITS`): an operation budget (a tick for every loop
  round, call, attribute read, filter and intercepted operator), wall time (checked at each
  tick, and by a timer signal in the main thread for time spent inside one call), the size
  of any one value and the characters and items a render may make in all (``*``, ``+``,
  ``~``, filters and method calls are measured before they allocate where the size can be
  known: ``'a' * 4000000000`` is refused without being made), and the output's size;
- **failures are located**: exceeding a limit, a refused attribute, an undefined name, a
  syntax error, a template that includes itself: a :class:`TemplateFault` (a
  :class:`~builder.diagnostics.Diagnostic`) at the content template's file and line.

Stage 1 (:func:`check_templates`, called by the content loader) reads and compiles every
file under ``content/templates/`` and checks what it can without rendering: syntax,
names against :data:`PRODUCTS` (what the shipped renderers pass each template), templates
that extend or include themselves, and file names no renderer reads ("did you mean").
"""

from __future__ import annotations

import contextvars
import dataclasses
import functools
import os
import signal
import threading
import time
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

import jinja2
import jinja2.meta
from jinja2 import nodes
from jinja2.environment import TemplateModule
from jinja2.exceptions import SecurityError, TemplateNotFound, TemplateSyntaxError, UndefinedError
from jinja2.loaders import split_template_path
from jinja2.runtime import BlockReference, LoopContext, Macro, TemplateReference, Undefined
from jinja2.sandbox import SandboxedEnvironment, safe_range
from jinja2.utils import Cycler, Joiner, Namespace
from jinja2.visitor import NodeTransformer
from markupsafe import Markup

from . import resources
from .diagnostics import Diagnostic, Diagnostics, Located, suggest


# --------------------------------------------------------------------------- limits
@dataclass(frozen=True)
class Limits:
    """What one render of one template may use (the shipped content uses a few per cent
    of each: see tests/render/test_template_sandbox.py and docs/content-format.md)."""

    #: ticks: loop rounds, calls, attribute and item reads, filters, intercepted operators
    operations: int = 5_000_000
    #: wall time of one render, in seconds
    seconds: float = 10.0
    #: characters (or items) of any one value a template makes
    value: int = 8_000_000
    #: characters and items a render makes in all, freed or not (the memory bound)
    made: int = 128_000_000
    #: characters of the output
    output: int = 16_000_000
    #: the largest integer a template may pass to a filter or method (a width, a count)
    argument: int = 100_000
    #: the most bits of an integer a template makes with ``*``, ``**`` or ``+``
    int_bits: int = 100_000


LIMITS = Limits()


class TemplateFault(Diagnostic):
    """A template that cannot be rendered, located at its file and line."""


class _Stop(Exception):
    """Raised inside a render (a limit reached, something refused); located on the way out."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class _Refused(_Stop):
    pass


class _OverLimit(_Stop):
    def __init__(self, message: str, where: tuple[str, int] | None = None):
        super().__init__(message)
        #: (file, line) when no template frame is on the way out (the output's size)
        self.where = where


def _refuse(what: str) -> _Refused:
    return _Refused(f"{what} is not allowed in a template (a template reads plain values: "
                    f"text, numbers, lists, mappings and the records it is given)")


# --------------------------------------------------------------------------- helpers
def helper(fn: Callable) -> Callable:
    """Mark ``fn`` as a function templates may call: it computes from its arguments and
    touches no file, network or renderer. Returns ``fn``."""
    try:
        fn.warbook_helper = True  # type: ignore[attr-defined]
    except AttributeError:  # a bound method or a builtin: wrap it
        inner = fn

        @functools.wraps(inner)
        def fn(*args, **kwargs):
            return inner(*args, **kwargs)

        fn.warbook_helper = True  # type: ignore[attr-defined]
    return fn


def _internal(method: Callable) -> Callable:
    """One of the sandbox's own functions that the rewritten templates call."""
    fn = helper(method)
    fn.warbook_internal = True  # type: ignore[attr-defined]
    return fn


_PLAIN = (str, int, float, bool, type(None), list, tuple, dict, set, frozenset, bytes,
          Markup, range)
_JINJA = (LoopContext, Namespace, Cycler, Joiner, Macro, TemplateModule, TemplateReference,
          BlockReference)
#: names refused whatever they belong to
_REFUSED_NAMES = frozenset({"format", "format_map", "mro", "open", "read_text", "write_text",
                            "read_bytes", "write_bytes", "joinpath", "unlink", "mkdir",
                            "gi_frame", "gi_code", "cr_frame", "cr_code", "ag_frame",
                            "ag_code", "f_globals", "f_locals", "f_builtins", "func_globals"})


#: records outside the render stage that hold only numbers and words (a paper and its
#: margins), so a view record may carry one; never ``Settings``, which holds paths
_PLAIN_RECORDS = frozenset({("builder.settings", "Paper"), ("builder.settings", "Margins")})


def is_record(value: Any) -> bool:
    """A view record of the render stage (a dataclass instance defined in
    ``builder.render``), or one of the few plain records it carries (a ``Paper``)."""
    if not dataclasses.is_dataclass(value) or isinstance(value, type):
        return False
    kind = type(value)
    return (kind.__module__.startswith("builder.render.")
            or (kind.__module__, kind.__qualname__) in _PLAIN_RECORDS)


#: type -> whether a template may read its values (plain data, view records, Jinja's own)
_READABLE: dict[type, bool] = {}


def _readable(value: Any) -> bool:
    kind = type(value)
    known = _READABLE.get(kind)
    if known is None:
        known = _READABLE[kind] = (issubclass(kind, _PLAIN) or issubclass(kind, _JINJA)
                                   or issubclass(kind, Undefined) or is_record(value))
    return known


def is_plain(value: Any) -> bool:
    """What a template may be given and may read: plain data, a view record, a helper, a
    macro or one of Jinja's own loop and namespace objects. Only the value itself is looked
    at (see :func:`impure` for a whole context)."""
    if _readable(value):
        return True
    if any(value is g for g in (dict, Namespace, Cycler, Joiner, safe_range)):  # Jinja's own
        return True
    if getattr(value, "warbook_helper", False) is True and isinstance(value, types.FunctionType):
        return True
    return False


def _callable_ok(obj: Any) -> bool:
    if isinstance(obj, (Macro, LoopContext, BlockReference, Joiner)):
        return True
    if obj in (dict, Namespace, Cycler, Joiner, safe_range):  # Jinja's globals
        return True
    if isinstance(obj, types.FunctionType):
        return getattr(obj, "warbook_helper", False) is True
    if isinstance(obj, types.BuiltinMethodType):  # str.upper, list.append, dict.items
        owner = obj.__self__
        return isinstance(owner, _PLAIN) and obj.__name__ not in _REFUSED_NAMES
    if isinstance(obj, types.MethodType):  # a view record's method, loop.cycle, joiner
        owner = obj.__self__
        return ((is_record(owner) or isinstance(owner, (LoopContext, Cycler, Joiner)))
                and obj.__name__ not in _REFUSED_NAMES)
    return getattr(obj, "warbook_helper", False) is True and callable(obj)


def impure(value: Any, where: str = "context", seen: set | None = None,
           depth: int = 0) -> list[str]:
    """Every place in ``value`` that is not plain data (as :func:`is_plain` says), walking
    lists, mappings and the fields of view records; ``[]`` when all of it is."""
    seen = set() if seen is None else seen
    if id(value) in seen or depth > 60:
        return []
    seen.add(id(value))
    if not is_plain(value):
        return [f"{where}: {type(value).__module__}.{type(value).__qualname__}"]
    out: list[str] = []
    if isinstance(value, dict):
        for k, v in value.items():
            out += impure(k, f"{where} key", seen, depth + 1)
            out += impure(v, f"{where}[{k!r}]", seen, depth + 1)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for i, v in enumerate(value):
            out += impure(v, f"{where}[{i}]", seen, depth + 1)
    elif is_record(value):
        for f in dataclasses.fields(value):
            out += impure(getattr(value, f.name), f"{where}.{f.name}", seen, depth + 1)
    return out


# --------------------------------------------------------------------------- the budget
class Budget:
    """What one render has used so far."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.ops = 0
        self.made = 0
        self.start = time.monotonic()
        self.deadline = self.start + limits.seconds
        #: the render was stopped (the timer, which rings at the same deadline, then keeps
        #: quiet: ringing while the stop is on its way out would lose the template's line)
        self.over = False

    def tick(self, n: int = 1) -> None:
        self.ops += n
        if self.ops > self.limits.operations:
            self.over = True
            raise _OverLimit(f"the template went over its operation budget "
                             f"({self.limits.operations:,} loop rounds, calls and reads); "
                             f"a loop that never ends, or far too much work")
        if time.monotonic() > self.deadline:
            self.over = True
            raise _OverLimit(self.timeout())

    def timeout(self) -> str:
        return f"the template ran longer than its time limit ({self.limits.seconds:g} s)"

    def charge(self, size: int, what: str = "a value") -> None:
        if size > self.limits.value:
            raise _OverLimit(f"{what} of {size:,} characters or items, more than the "
                             f"limit for one value ({self.limits.value:,})")
        self.made += size
        if self.made > self.limits.made:
            raise _OverLimit(f"{what}: the template made more than {self.limits.made:,} "
                             f"characters and items in all (its memory bound)")


_BUDGET: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("warbook_budget",
                                                                        default=None)


def _budget() -> Budget:
    """The running render's budget; outside a render (Jinja folding constants while it
    compiles) a fresh one, so that each value is still bounded."""
    b = _BUDGET.get()
    return b if b is not None else Budget(LIMITS)


def _size(value: Any) -> int:
    if isinstance(value, (str, list, tuple, dict, set, frozenset, bytes)):
        return len(value)
    return 0


class _Alarm:
    """The wall-time limit for time spent inside one call (a helper's loop): a timer
    signal, in the main thread only, when no other timer is set."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.armed = False
        self.previous = None

    def __enter__(self):
        if (threading.current_thread() is threading.main_thread()
                and signal.getitimer(signal.ITIMER_REAL)[0] == 0):
            self.previous = signal.signal(signal.SIGALRM, self._ring)
            signal.setitimer(signal.ITIMER_REAL, self.seconds)
            self.armed = True
        return self

    def _ring(self, signum, frame):
        budget = _BUDGET.get()
        if budget is not None and budget.over:  # stopped already, and on its way out
            return
        raise _OverLimit(f"the template ran longer than its time limit ({self.seconds:g} s)")

    def __exit__(self, *exc):
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)
        return False


# --------------------------------------------------------------------------- compiling
class _Bounder(NodeTransformer):
    """Rewrites a parsed template: every loop round ticks (and pays for the literal text
    it writes), every ``~`` goes through a measured join."""

    def visit_For(self, node: nodes.For) -> nodes.Node:  # noqa: N802 - Jinja visitor
        self.generic_visit(node)
        text = sum(len(c.data) for out in node.body if isinstance(out, nodes.Output)
                   for c in out.nodes if isinstance(c, nodes.TemplateData))
        tick = nodes.ExprStmt(nodes.Call(nodes.EnvironmentAttribute("warbook_tick"),
                                         [nodes.Const(text)], [], None, None),
                              lineno=node.lineno)
        node.body.insert(0, tick)
        return node

    def visit_Concat(self, node: nodes.Concat) -> nodes.Node:  # noqa: N802 - Jinja visitor
        self.generic_visit(node)
        return nodes.Call(nodes.EnvironmentAttribute("warbook_concat"), list(node.nodes), [],
                          None, None, lineno=node.lineno)


def _int_args(values: Iterable[Any], limit: int, what: str) -> None:
    for v in values:
        if isinstance(v, int) and not isinstance(v, bool) and abs(v) > limit:
            raise _OverLimit(f"{what} was given {v:,}, more than the largest number a "
                             f"template may pass ({limit:,})")


def _joined(items: Any, sep: Any) -> int:
    if not isinstance(items, (list, tuple)):
        return 0
    sep = len(sep) if isinstance(sep, str) else 0
    return (sum(len(x) if isinstance(x, str) else 16 for x in items)
            + sep * max(0, len(items) - 1))


def _estimate(name: str, value: Any, args: tuple, kwargs: dict, filter: bool = False) -> int:
    """How large the result of a text-making filter or method will be, before it is made."""
    if name == "join":
        if filter:  # value|join(separator)
            return _joined(value, args[0] if args else kwargs.get("d", ""))
        return _joined(args[0] if args else None, value)  # separator.join(items)
    if not isinstance(value, str):
        return 0
    n = len(value)
    if name == "replace" and len(args) >= 2 and isinstance(args[0], str):
        old, new = args[0], str(args[1])
        count = value.count(old) if old else n + 1
        if len(args) >= 3 and isinstance(args[2], int) and args[2] >= 0:
            count = min(count, args[2])
        return n + count * max(0, len(new) - len(old))
    if name in ("center", "ljust", "rjust", "zfill") and args and isinstance(args[0], int):
        return max(n, args[0])
    if name == "indent":
        width = args[0] if args else kwargs.get("width", 4)
        width = len(width) if isinstance(width, str) else width
        return n + (value.count("\n") + 1) * (width if isinstance(width, int) else 4)
    if name == "expandtabs":
        size = args[0] if args else kwargs.get("tabsize", 8)
        return n + value.count("\t") * (size if isinstance(size, int) else 8)
    return 0


_FILTERS_REFUSED = {"attr": "the attr filter (write the attribute's name: x.name)",
                    "format": "the format filter"}


class _Filters(dict):
    """The environment's filters, each wrapped so a template's use of it ticks, has its
    numbers bounded and its result measured."""

    def __init__(self, env: "BoundedEnvironment", base: dict):
        super().__init__()
        self.env = env
        for k, v in base.items():
            self[k] = v

    def __setitem__(self, name: str, fn: Callable) -> None:
        super().__setitem__(name, _wrap_filter(name, fn, self.env.limits))

    def update(self, *args, **kwargs) -> None:  # type: ignore[override]
        for k, v in dict(*args, **kwargs).items():
            self[k] = v


def _wrap_filter(name: str, fn: Callable, limits: Limits) -> Callable:
    if getattr(fn, "warbook_bounded", False):
        return fn
    skip = 1 if getattr(fn, "jinja_pass_arg", None) is not None else 0

    @functools.wraps(fn)
    def bounded(*args, **kwargs):
        budget = _budget()
        budget.tick()
        if name in _FILTERS_REFUSED:
            raise _refuse(_FILTERS_REFUSED[name])
        value, rest = (args[skip], args[skip + 1:]) if len(args) > skip else (None, ())
        _int_args(list(rest) + list(kwargs.values()), limits.argument, f"the filter '{name}'")
        if (guess := _estimate(name, value, rest, kwargs, filter=True)):
            budget.charge(guess, f"the filter '{name}' would make a value")
        result = fn(*args, **kwargs)
        budget.charge(_size(result), f"the filter '{name}' made a value")
        return result

    bounded.warbook_bounded = True  # type: ignore[attr-defined]
    return bounded


class BoundedTemplate(jinja2.Template):
    """A template whose every render, module and macro call from Python is bounded and
    whose failures are located (see :func:`render`)."""

    def render(self, *args: Any, **kwargs: Any) -> str:
        context = dict(*args, **kwargs)
        _notify(self, context)
        with _bounded(self.environment, self.name):
            try:
                return super().render(context)
            except Exception as e:  # noqa: BLE001 - located, or re-raised as it is
                raise _locate(e, self.environment) from None

    def make_module(self, vars=None, shared=False, locals=None):
        if _BUDGET.get() is not None:  # an import inside a render: already bounded
            return super().make_module(vars, shared, locals)
        _notify(self, dict(vars or {}))
        with _bounded(self.environment, self.name):
            try:
                return super().make_module(vars, shared, locals)
            except Exception as e:  # noqa: BLE001 - located, or re-raised as it is
                raise _locate(e, self.environment) from None


class Macros:
    """A template's macros for Python to call (the component sheets' words): each call is a
    bounded, located render of its own."""

    def __init__(self, template: BoundedTemplate):
        self._template = template
        self._module = template.module

    def __getattr__(self, name: str) -> Callable:
        macro = getattr(self._module, name)
        env = self._template.environment

        def call(*args, **kwargs):
            _notify(self._template, {"macro " + name: list(args) + list(kwargs.values())})
            with _bounded(env, f"{self._template.name}:{name}"):
                try:
                    return macro(*args, **kwargs)
                except Exception as e:  # noqa: BLE001 - located, or re-raised as it is
                    raise _locate(e, env) from None

        return call


def macros(template: jinja2.Template) -> Macros:
    """``template``'s macros, callable from Python, each call bounded."""
    return Macros(template)


#: watchers of every render (the tests walk each context a template receives): called
#: with the template and the context (its globals included)
WATCHERS: list[Callable[[jinja2.Template, dict], None]] = []
#: watchers of what each render used (the benchmark, the tests): called with the
#: template's name and the render's :class:`Budget` when it ends
SPENT: list[Callable[[str, Budget], None]] = []


def _notify(template: jinja2.Template, context: dict) -> None:
    if WATCHERS:
        whole = {**template.globals, **context}
        for w in WATCHERS:
            w(template, whole)


class _bounded:
    """A fresh budget for a render, unless one is running (an include, an import)."""

    def __init__(self, env: "BoundedEnvironment", name: str | None = None):
        self.env = env
        self.name = name or "<string>"
        self.token = None
        self.alarm: _Alarm | None = None

    def __enter__(self):
        if _BUDGET.get() is None:
            self.token = _BUDGET.set(Budget(self.env.limits))
            self.alarm = _Alarm(self.env.limits.seconds).__enter__()
        return self

    def __exit__(self, *exc):
        if self.token is not None:
            self.alarm.__exit__(*exc)
            for watch in SPENT:
                watch(self.name, _BUDGET.get())
            _BUDGET.reset(self.token)
        return False


class BoundedEnvironment(SandboxedEnvironment):
    """Jinja's sandbox, narrowed to plain data and bounded (see the module's text)."""

    template_class = BoundedTemplate
    intercepted_binops = frozenset({"*", "**", "+", "%"})

    def __init__(self, *args: Any, limits: Limits = LIMITS, **kwargs: Any):
        self.limits = limits
        super().__init__(*args, **kwargs)
        self.filters = _Filters(self, self.filters)
        self.globals.pop("lipsum", None)  # paragraphs of filler, as many as asked for
        self.finalize = self._finalize
        #: the file names of the content's templates (``TemplateFault`` blames them first)
        self.content_files: set[str] = set()
        self.warbook_tick = _internal(self._tick)
        self.warbook_concat = _internal(self._concat)

    # -- compiling
    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        return _Bounder().visit(super()._parse(source, name, filename))

    def _tick(self, text: int = 0) -> str:
        budget = _budget()
        budget.tick()
        if text:
            budget.charge(text, "the text a loop writes")
        return ""

    def _concat(self, *parts: Any) -> str:
        budget = _budget()
        if self.autoescape:
            result = jinja2.runtime.markup_join(parts)
        else:
            result = jinja2.runtime.str_join(parts)
        budget.charge(len(result), "joining with ~ would make a value")
        return result

    def _finalize(self, value: Any) -> Any:
        budget = _budget()
        budget.tick()
        if isinstance(value, str):
            budget.charge(len(value), "the output")
        return value

    def concat(self, pieces: Iterable[str]) -> str:  # type: ignore[override]
        """The output of a render, measured as it is made."""
        out, size = [], 0
        try:
            for piece in pieces:
                size += len(piece)
                if size > self.limits.output:
                    raise _OverLimit(f"the template's output is larger than "
                                     f"{self.limits.output:,} characters",
                                     _suspended_at(pieces))
                out.append(piece)
        except _OverLimit as e:
            # the time limit's signal may ring here, between two pieces, where no template
            # frame is on the way out: the line is where the template stands
            if e.where is None and not _template_frames(e.__traceback__, self):
                e.where = _suspended_at(pieces)
            raise
        return "".join(out)

    # -- what a template may read and call
    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        return self._attribute_problem(obj, attr, value) is None

    def _attribute_problem(self, obj: Any, attr: str, value: Any = None,
                           look_at_value: bool = True) -> str | None:
        if attr.startswith("_") or attr in _REFUSED_NAMES:
            return f"'{attr}'"
        if not _readable(obj) or isinstance(obj, Undefined):
            return f"reading '{attr}' of a {type(obj).__name__}"
        if look_at_value and not (is_plain(value) or _callable_ok(value)):
            return f"'{attr}' (a {type(value).__name__})"
        return None

    def is_safe_callable(self, obj: Any) -> bool:
        return _callable_ok(obj)

    def getattr(self, obj: Any, attribute: str) -> Any:
        _budget().tick()
        if isinstance(obj, Undefined):
            return getattr(obj, attribute)  # raises, for a strict undefined
        if (problem := self._attribute_problem(obj, attribute, look_at_value=False)):
            raise _refuse(problem)
        try:
            value = getattr(obj, attribute)
        except AttributeError:
            try:
                return self._item(obj, attribute)
            except (TypeError, LookupError):
                return self.undefined(obj=obj, name=attribute)
        if (problem := self._attribute_problem(obj, attribute, value)):
            raise _refuse(problem)
        return value

    def getitem(self, obj: Any, argument: Any) -> Any:
        _budget().tick()
        if isinstance(obj, Undefined):
            return obj[argument]
        try:
            return self._item(obj, argument)
        except (TypeError, LookupError):
            if isinstance(argument, str):
                return self.getattr(obj, argument)
        return self.undefined(obj=obj, name=argument)

    def _item(self, obj: Any, argument: Any) -> Any:
        if not isinstance(obj, _PLAIN):
            raise TypeError("not subscriptable in a template")
        value = obj[argument]
        if isinstance(argument, slice):
            _budget().charge(_size(value), "a slice")
        if not (is_plain(value) or _callable_ok(value)):
            raise _refuse(f"an item holding a {type(value).__name__}")
        return value

    def unsafe_undefined(self, obj: Any, attribute: str) -> Undefined:
        raise _refuse(f"'{attribute}'")

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        budget = _budget()
        budget.tick()
        if not _callable_ok(__obj):
            name = getattr(__obj, "__name__", type(__obj).__name__)
            raise _refuse(f"calling '{name}'")
        given = [v for k, v in kwargs.items() if k not in ("_loop_vars", "_block_vars", "caller")]
        name = getattr(__obj, "__name__", "a function")
        if getattr(__obj, "warbook_helper", False):
            # a helper given a name that is not defined (``colour(card.colr)``) says so,
            # as printing it would, rather than take it for an empty value
            for value in list(args) + given:
                if isinstance(value, Undefined):
                    value._fail_with_undefined_error()
        if not isinstance(__obj, Macro) and not getattr(__obj, "warbook_internal", False):
            _int_args(list(args) + given, __self.limits.argument, f"'{name}'")
        grows = None  # a list, mapping or set a method may grow in place (extend, update)
        if isinstance(__obj, types.BuiltinMethodType):
            guess = _estimate(name, __obj.__self__, args, kwargs)
            if guess:
                budget.charge(guess, f"'{name}' would make a value")
            if isinstance(__obj.__self__, (list, dict, set)):
                grows = (__obj.__self__, len(__obj.__self__))
        result = __context.call(__obj, *args, **kwargs)
        if grows is not None:
            budget.charge(max(0, len(grows[0]) - grows[1]), f"'{name}' grew a value")
        if not (is_plain(result) or _callable_ok(result)
                or isinstance(result, types.GeneratorType)
                or type(result).__name__ in ("dict_keys", "dict_values", "dict_items")):
            raise _refuse(f"'{name}' returning a {type(result).__name__}")
        budget.charge(_size(result), f"'{name}' made a value")
        return result

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        budget = _budget()
        budget.tick()
        seq = (str, list, tuple)
        if operator == "%" and isinstance(left, str):
            raise _refuse("formatting text with %")
        if operator == "*":
            if isinstance(left, seq) and isinstance(right, int):
                budget.charge(len(left) * max(right, 0), "'*' would make a value")
            elif isinstance(right, seq) and isinstance(left, int):
                budget.charge(len(right) * max(left, 0), "'*' would make a value")
            elif isinstance(left, int) and isinstance(right, int):
                self._bits(left.bit_length() + right.bit_length())
        elif operator == "+":
            if isinstance(left, seq) and isinstance(right, seq):
                budget.charge(len(left) + len(right), "'+' would make a value")
            elif isinstance(left, int) and isinstance(right, int):
                self._bits(max(left.bit_length(), right.bit_length()) + 1)
        elif operator == "**":
            if isinstance(left, int) and isinstance(right, int) and right > 0:
                self._bits(max(1, abs(left).bit_length()) * right)
        return self.binop_table[operator](left, right)

    def _bits(self, bits: int) -> None:
        if bits > self.limits.int_bits:
            raise _OverLimit(f"a number of about {bits:,} bits is larger than a template may "
                             f"make ({self.limits.int_bits:,} bits)")


# --------------------------------------------------------------------------- locating
def _suspended_at(pieces: Any) -> tuple[str, int] | None:
    """The template line a render's output generator stands at (the innermost of the
    generators it yields from)."""
    gen, where = pieces, None
    while gen is not None and getattr(gen, "gi_frame", None) is not None:
        frame = gen.gi_frame
        template = frame.f_globals.get("__jinja_template__")
        if template is not None and template.filename:
            where = (template.filename, template.get_corresponding_lineno(frame.f_lineno))
        gen = getattr(gen, "gi_yieldfrom", None)
    return where


def _template_frames(tb, env: BoundedEnvironment) -> list[tuple[str, int]]:
    """(file, line) of every template frame in a traceback, outermost first."""
    out = []
    while tb is not None:
        frame = tb.tb_frame
        template = frame.f_globals.get("__jinja_template__")
        if template is not None and template.filename:
            out.append((template.filename, template.get_corresponding_lineno(tb.tb_lineno)))
        elif frame.f_code.co_filename.endswith(".j2") or (
                frame.f_code.co_filename in env.content_files):
            out.append((frame.f_code.co_filename, tb.tb_lineno))
        tb = tb.tb_next
    return out


def _shown(filename: str) -> str:
    """A template's file as messages show it: relative to the working folder when it is
    inside it (a content template's name is already shown so)."""
    if not os.path.isabs(filename):
        return filename
    try:
        return str(Path(filename).relative_to(Path.cwd()))
    except ValueError:
        return filename


def _locate(error: BaseException, env: BoundedEnvironment) -> BaseException:
    """``error`` as a :class:`TemplateFault` at the template line it happened on: the
    innermost content template's line if one took part, else the innermost template's.
    An error of warbook's own (no content template took part, nothing refused or over a
    limit) is returned as it is."""
    if isinstance(error, Diagnostic):
        return error
    frames = _template_frames(error.__traceback__, env)
    if isinstance(error, TemplateSyntaxError) and error.filename:
        frames.append((error.filename, error.lineno or 1))
    if isinstance(error, _OverLimit) and error.where is not None:
        frames.append(error.where)
    content = [f for f in frames if f[0] in env.content_files]
    ours = isinstance(error, (_Stop, SecurityError, TemplateSyntaxError, RecursionError))
    if not content and not ours:
        return error
    path, line = (content or frames or [("<template>", 1)])[-1]
    if isinstance(error, _Stop):
        message = error.message
    elif isinstance(error, RecursionError):
        message = ("the template includes, extends or calls itself without end (deeper "
                   "than Python allows)")
    elif isinstance(error, SecurityError):
        message = f"{error} (not allowed in a template)"
    elif isinstance(error, UndefinedError):
        message = str(error.message) + (" (a name the renderer does not pass this template)"
                                        if "is undefined" in str(error.message) else "")
    elif isinstance(error, TemplateNotFound):
        message = f"no template '{error.name}'" + suggest(error.name, _known_names())
    elif isinstance(error, TemplateSyntaxError):
        message = f"template syntax: {error.message}"
    else:
        message = f"the template failed: {type(error).__name__}: {error}"
    return TemplateFault(_shown(path), max(1, int(line or 1)), 1, message)


# --------------------------------------------------------------------------- loading
class ContentLoader(jinja2.BaseLoader):
    """The content folder's templates (``<root>/templates/<name>``), each read through
    the one resolver (:func:`builder.contentpath.resolve`): a link that leads out of the
    folder, a FIFO or a device is a located error, never read."""

    def __init__(self, root: str | Path, env_files: set[str] | None = None):
        self.root = Path(root)
        self.seen = env_files if env_files is not None else set()

    def shown(self, name: str) -> str:
        from .contentpath import rel

        return rel(self.root / "templates" / name, self.root)

    def get_source(self, environment, template):
        from .yamlsrc import read_text

        pieces = split_template_path(template)  # refuses "..", as Jinja's own loaders do
        path = self.root.joinpath("templates", *pieces)
        if not os.path.lexists(path):
            raise TemplateNotFound(template)
        shown = self.shown("/".join(pieces))
        text = read_text(path, shown, self.root)
        self.seen.add(shown)
        if isinstance(environment, BoundedEnvironment):
            environment.content_files.add(shown)
        return text, shown, lambda: True

    def list_templates(self) -> list[str]:
        return sorted(content_template_names(self.root))


def content_template_names(root: str | Path) -> list[str]:
    """The names of the files under ``<root>/templates`` (``site/index.html.j2``), links
    not followed."""
    from .contentpath import inside

    folder = Path(root) / "templates"
    out = []
    for here, dirs, files in os.walk(folder, followlinks=False):
        dirs.sort()
        for d in dirs:  # a linked folder: listed itself if it leads out (the resolver
            link = Path(here, d)  # refuses it), its files if it stays inside
            if link.is_symlink():
                if not inside(root, link):
                    out.append(link.relative_to(folder).as_posix())
                    continue
                for there, _, inner in os.walk(link, followlinks=False):
                    out += [Path(there, f).relative_to(folder).as_posix() for f in sorted(inner)]
        out += [Path(here, f).relative_to(folder).as_posix() for f in sorted(files)]
    return out


# --------------------------------------------------------------------------- the products
@dataclass(frozen=True)
class Product:
    """What a renderer gives the templates of its folder: its globals and filters (every
    template), the context of each template it renders (by name), the extensions."""

    globals: frozenset[str]
    filters: frozenset[str] = frozenset()
    templates: dict[str, frozenset[str]] = field(default_factory=dict)
    extensions: tuple[str, ...] = ()

    def names(self, template: str) -> frozenset[str]:
        """The names a template may use: the product's globals, and the context of the
        template (a partial, or a name no renderer renders: every context's)."""
        if template in self.templates:
            return self.globals | self.templates[template]
        return self.globals.union(*self.templates.values())


#: what the shipped renderers pass each template: render/site/pages.py (SiteRenderer),
#: render/book/pdf.py (BookRenderer), render/pnp/document.py (Renderer, with the macros of
#: texts.html.j2 and cover.html.j2 called from Python: their names come in as arguments).
#: tests/render/test_template_sandbox.py checks this table against a real render.
_SITE_PAGE = frozenset({"games", "nav", "current", "page_title", "page", "preview",
                        "description"})
PRODUCTS: dict[str, Product] = {
    "site": Product(
        globals=frozenset({"version", "page_name", "short_title", "describe", "pdf",
                           "extra_pdfs", "site_title", "brand_mark", "site_url", "base_href",
                           "rules_version"}),
        filters=frozenset({"span", "words", "widest"}),
        templates={
            "site/index.html.j2": _SITE_PAGE | {"intro", "words"},
            "site/search.html.j2": _SITE_PAGE,
            "site/game.html.j2": (_SITE_PAGE - {"games"}) | {"g", "result_text", "accent"},
            "site/404.html.j2": _SITE_PAGE | {"base_href"},
        }),
    "book": Product(
        globals=frozenset({"example_height", "comment_below", "example_columns", "column_layout",
                           "setup_in_columns", "opening_beside", "spans_columns", "step_layout", "page_ref",
                           "diagram_id", "no_lone_word", "column_runs"}),
        templates={"book/book.html.j2": frozenset({"book", "games"}),
                   "book/front.html.j2": frozenset({"book", "games"}),
                   "book/index.html.j2": frozenset({"book", "groups"}),
                   "book/quickref.html.j2": frozenset({"book", "games"})},
        extensions=("jinja2.ext.do",)),
    "components": Product(
        globals=frozenset({"mm", "item_html", "label_html"}),
        templates={"components/sheets.html.j2": frozenset({"doc", "sheets"}),
                   "components/texts.html.j2": frozenset(),
                   "components/cover.html.j2": frozenset()}),
}
#: the shared partials are included by the book's and the site's templates
PRODUCTS["shared"] = Product(globals=PRODUCTS["site"].globals | PRODUCTS["book"].globals,
                             filters=PRODUCTS["site"].filters,
                             templates={**PRODUCTS["site"].templates,
                                        **PRODUCTS["book"].templates},
                             extensions=("jinja2.ext.do",))
#: names Jinja itself provides to every template
_JINJA_NAMES = frozenset({"range", "dict", "cycler", "joiner", "namespace", "loop", "caller",
                          "self", "super", "varargs", "kwargs", "true", "false", "none",
                          "True", "False", "None"})


def _known_names() -> list[str]:
    """Every file name a renderer reads from the templates folder (not ``new/``)."""
    shipped = resources.templates()
    return [p.relative_to(shipped).as_posix() for p in shipped.rglob("*")
            if p.is_file() and p.relative_to(shipped).parts[0] != "new"]


def environment(content_root: str | Path | None = None, extensions: Iterable[str] = (),
                **options: Any) -> BoundedEnvironment:
    """A bounded environment over the templates: the content's own first (when
    ``content_root`` is given), then the shipped ones; autoescaped, strict about undefined
    names, block tags trimmed. ``options`` are passed on to Jinja."""
    settings = dict(autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True,
                    lstrip_blocks=True)
    settings.update(options)
    shipped = jinja2.FileSystemLoader(str(resources.templates()))
    env = BoundedEnvironment(extensions=list(extensions), **settings)
    if content_root is None:
        env.loader = shipped
    else:
        env.loader = jinja2.ChoiceLoader([ContentLoader(content_root, env.content_files),
                                          shipped])
    return env


# --------------------------------------------------------------------------- stage 1
def check_templates(root: str | Path, diags: Diagnostics) -> None:
    """Read and compile every file of ``<root>/templates`` (stage 1, before any build):
    a link out of the folder, a syntax error, a name the renderer does not pass, a
    template that extends, includes or imports itself, a reference to a template that does
    not exist and a file name no renderer reads ("did you mean") are reported in
    ``diags`` at their file and line."""
    from .contentpath import rel

    resources.templates()  # the shipped ones all there (or an internal error), before anything
    root = Path(root)
    folder = root / "templates"
    if not os.path.lexists(folder):
        return
    shown_folder = rel(folder, root)
    from .contentpath import inside

    if not inside(root, folder):
        diags.error(Located(shown_folder, 1, 1), "templates: this is a link to a folder "
                    "outside the content folder; put the templates themselves inside it")
        return
    if not folder.is_dir():  # a file where the folder belongs: the loader's wrong_kinds says so
        return
    known = _known_names()
    names = content_template_names(root)
    env = environment(root)
    for product in PRODUCTS.values():
        for name in product.filters:
            env.filters.setdefault(name, lambda value, *a, **k: value)
    env.add_extension("jinja2.ext.do")
    trees: dict[str, nodes.Template] = {}
    from .contentpath import resolve

    for name in names:
        shown = rel(folder / name, root)
        if not name.endswith(".j2") and name not in known:
            try:  # never read, but no link out of the folder all the same
                resolve(root, folder / name, shown)
            except Diagnostic as d:
                diags.append(d)
                continue
            diags.warning(Located(shown, 1, 1), f"no renderer reads templates/{name}, so "
                          f"it is left unused{suggest(name, known)}")
            continue
        try:  # the resolver, the size limit, UTF-8: as every content text file
            source, _, _ = env.loader.get_source(env, name)
        except Diagnostic as d:
            diags.append(d)
            continue
        except TemplateNotFound:
            continue
        if not name.endswith(".j2"):
            continue
        try:
            tree = env.parse(source, name, shown)
            env.compile(tree, name, shown)  # filters and tests are looked up here
        except TemplateSyntaxError as e:
            diags.error(Located(shown, e.lineno or 1, 1), f"template syntax: {e.message}")
            continue
        except RecursionError:
            diags.error(Located(shown, 1, 1), "the template is nested too deeply to compile")
            continue
        trees[name] = tree
    refs: dict[str, list[tuple[str, int]]] = {}
    for name, tree in trees.items():
        shown = rel(folder / name, root)
        refs[name] = []
        for node in tree.find_all((nodes.Extends, nodes.Include, nodes.Import,
                                   nodes.FromImport)):
            if isinstance(node.template, nodes.Const) and isinstance(node.template.value, str):
                target = node.template.value
                refs[name].append((target, node.lineno))
                if target not in names and target not in known:
                    ignore = getattr(node, "ignore_missing", False)
                    if not ignore:
                        diags.error(Located(shown, node.lineno, 1),
                                    f"no template '{target}'{suggest(target, known + names)}")
        _check_names(name, tree, shown, diags)
    for name, tree in trees.items():
        _check_blocks(env, name, tree, trees, rel(folder / name, root), diags)
        _check_macros(env, name, tree, rel(folder / name, root), diags)
        _check_refused(tree, rel(folder / name, root), diags)
    # extends, includes and imports that come back to where they started
    shipped_refs = _shipped_refs()

    def follow(name: str) -> list[str]:
        if name in trees:
            return [t for t, _ in refs[name]]
        if name in names:
            return []
        return shipped_refs.get(name, [])

    for name in trees:
        shown = rel(folder / name, root)
        for target, line in refs[name]:
            path = _path_to(target, name, follow)
            if path is not None:
                loop = " -> ".join([name] + path)
                diags.error(Located(shown, line, 1),
                            f"the template {'extends or includes itself' if len(path) == 1 else 'comes back to itself'}"
                            f" ({loop}): it would never end")
                break
    referenced = {t for r in refs.values() for t, _ in r}
    for name in names:
        if name.endswith(".j2") and name not in known and name not in referenced:
            shown = rel(folder / name, root)
            diags.warning(Located(shown, 1, 1), f"no renderer reads templates/{name} and no "
                          f"template includes it{suggest(name, known)}")


def _check_refused(tree: nodes.Template, shown: str, diags: Diagnostics) -> None:
    """What a template can never do, said by the check at its line before any build: a
    refused filter (``attr``, ``format``), a name starting with ``_`` or a refused method
    (``x.__class__``, ``path.read_text``) read as an attribute."""
    for node in tree.find_all(nodes.Filter):
        if node.name in _FILTERS_REFUSED:
            diags.error(Located(shown, node.lineno, 1), str(_refuse(_FILTERS_REFUSED[node.name])))
    for node in tree.find_all(nodes.Getattr):
        if node.attr.startswith("_") or node.attr in _REFUSED_NAMES:
            diags.error(Located(shown, node.lineno, 1), str(_refuse(f"'{node.attr}'")))


def _check_blocks(env: BoundedEnvironment, name: str, tree: nodes.Template,
                  trees: dict[str, nodes.Template], shown: str, diags: Diagnostics) -> None:
    """A template that extends another and fills a block the other has not: what the block
    holds is never shown (Jinja drops it without a word), so it is said."""
    def extends_of(t: nodes.Template) -> str | None:
        for node in t.find_all(nodes.Extends):
            if isinstance(node.template, nodes.Const) and isinstance(node.template.value, str):
                return node.template.value
        return None

    parent = extends_of(tree)
    if parent is None:
        return
    first_parent, blocks, seen = parent, set(), set()
    while parent is not None and parent not in seen and len(seen) < 16:
        seen.add(parent)
        ancestor = trees.get(parent)
        if ancestor is None:
            try:
                ancestor = env.parse(env.loader.get_source(env, parent)[0], parent)
            except Exception:  # noqa: BLE001 - a missing or broken parent is said elsewhere
                return
        blocks |= {b.name for b in ancestor.find_all(nodes.Block)}
        parent = extends_of(ancestor)
    own = list(tree.find_all(nodes.Block))
    nested = {inner.name for b in own for inner in b.find_all(nodes.Block)}
    for block in own:
        if block.name not in blocks and block.name not in nested:
            have = ", ".join(sorted(blocks)) or "none"
            diags.warning(Located(shown, block.lineno, 1),
                          f"block '{block.name}' is not in {first_parent} or what it extends, "
                          f"so what it holds is never shown{suggest(block.name, blocks)} "
                          f"(blocks there: {have})")


def _check_macros(env: BoundedEnvironment, name: str, tree: nodes.Template, shown: str,
                  diags: Diagnostics) -> None:
    """A template that takes the place of a shipped one which defines macros must define
    them all: the renderers and the other templates call them by name (the sheets' words,
    the site's parts), and one that is missing would stop the build half-way."""
    shipped_file = resources.templates() / name
    if not shipped_file.is_file():
        return
    try:
        shipped = env.parse(shipped_file.read_text(encoding="utf-8"), name)
    except Exception:  # noqa: BLE001 - the shipped templates are tested; never the user's fault
        return
    wanted = [m.name for m in shipped.body if isinstance(m, nodes.Macro)]
    have = {m.name for m in tree.body if isinstance(m, nodes.Macro)}
    missing = [m for m in wanted if m not in have]
    if missing:
        names = ", ".join(f"'{m}'" for m in missing)
        diags.error(Located(shown, 1, 1),
                    f"this template replaces the shipped {name}, which defines the macro"
                    f"{'s' if len(missing) > 1 else ''} {names}; the renderer calls "
                    f"{'them' if len(missing) > 1 else 'it'}, so define "
                    f"{'them' if len(missing) > 1 else 'it'} here too (copy from the shipped "
                    f"file and change what you need; macros it defines: {', '.join(wanted)})")


def _path_to(start: str, goal: str, follow: Callable[[str], list[str]]) -> list[str] | None:
    """The chain of references from ``start`` back to ``goal`` (``[start, ..., goal]``)."""
    seen: set[str] = set()
    stack = [(start, [start])]
    while stack:
        here, path = stack.pop()
        if here == goal:
            return path
        if here in seen:
            continue
        seen.add(here)
        for nxt in follow(here):
            stack.append((nxt, path + [nxt]))
    return None


@functools.lru_cache(maxsize=1)
def _shipped_refs() -> dict[str, list[str]]:
    env = jinja2.Environment(extensions=["jinja2.ext.do"])
    out = {}
    for name in _known_names():
        if name.endswith(".j2"):
            tree = env.parse((resources.templates() / name).read_text(encoding="utf-8"))
            out[name] = [t for t in jinja2.meta.find_referenced_templates(tree) if t]
    return out


def _check_names(name: str, tree: nodes.Template, shown: str, diags: Diagnostics) -> None:
    """Names a template uses that the renderer does not pass it (an error: the render
    would stop there), at the line of their first use."""
    import jinja2.meta

    product = PRODUCTS.get(name.split("/", 1)[0])
    if product is None or name not in product.templates:
        return  # a partial sees whatever the template including it has in scope
    allowed = product.names(name) | _JINJA_NAMES
    # what the template defines itself, wherever (its macros are the template's names)
    allowed |= {n.name for n in tree.find_all(nodes.Name) if n.ctx in ("store", "param")}
    allowed |= {n.name for n in tree.find_all(nodes.Macro)}
    for imp in tree.find_all(nodes.FromImport):
        allowed |= {x if isinstance(x, str) else x[1] for x in imp.names}
    tested = {n.node.name for n in tree.find_all(nodes.Test)
              if n.name in ("defined", "undefined") and isinstance(n.node, nodes.Name)}
    for missing in sorted(jinja2.meta.find_undeclared_variables(tree) - allowed - tested):
        line = min((n.lineno for n in tree.find_all(nodes.Name) if n.name == missing),
                   default=1)
        given = ", ".join(sorted(product.templates[name]))
        diags.error(Located(shown, line, 1),
                    f"'{missing}' is undefined: the renderer does not pass this template that "
                    f"name{suggest(missing, allowed - _JINJA_NAMES)}",
                    detail=f"{name} is given: {given or 'no names of its own'}; and the "
                         f"helpers {', '.join(sorted(product.globals))}")
