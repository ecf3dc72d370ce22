"""The package's shape as the README's Layout section states it: data flows one way, from
content to the model, through the check, the lab's figures and the renderers to the build's
output, and no module imports one of a later stage (no module reaches back up the
pipeline); nor do any two modules import each other, directly or round a longer circle.

Read from the source's import statements, function-level imports included (a lazy import
is still a dependency), so a module that is never imported by a test is judged too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import builder

PACKAGE = Path(builder.__file__).parent

#: the stages in the order the data flows (README, Layout); a module may import its own
#: stage and earlier ones. The first matching prefix decides.
STAGES: list[tuple[str, list[str]]] = [
    ("foundation", ["builder.errors", "builder.settings", "builder.diagnostics",
                    "builder.limits", "builder.names", "builder.links", "builder.contentpath",
                    "builder.resources", "builder.yamlsrc", "builder.machine",
                    "builder.children", "builder.logs", "builder.lock", "builder.sandbox",
                    "builder.faults",
                    "builder"]),
    ("model", ["builder.model"]),
    ("engine", ["builder.engine", "builder.testing"]),
    ("content", ["builder.content"]),
    ("check", ["builder.check", "builder.events", "builder.record"]),
    ("lab", ["builder.lab"]),
    ("render", ["builder.render"]),
    ("build", ["builder.build", "builder.incremental"]),
    ("commands", ["builder.serve", "builder.scaffold", "builder.cli", "builder.__main__"]),
]


def stage_of(module: str) -> int:
    best, rank = -1, -1
    for i, (_, prefixes) in enumerate(STAGES):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, rank = len(prefix), i
    assert rank >= 0, f"{module} belongs to no stage: add it to STAGES (and the README)"
    return rank


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def import_graph(root: Path) -> dict[str, set[str]]:
    """Every module of the package ``root`` and the modules of it that it imports."""
    paths = {module_name(p, root): p for p in root.rglob("*.py")
             if "templates" not in p.relative_to(root).parts}
    graph: dict[str, set[str]] = {}
    top = root.name
    for name, path in paths.items():
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = ".".join(here[:len(here) - node.level + 1]
                                    + ([node.module] if node.module else []))
                else:
                    base = node.module or ""
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    found.add(full if full in paths else base)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
        graph[name] = {m for m in found if m in paths and m != name and m.split(".")[0] == top}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import one another round a circle (Tarjan's strongly
    connected components of more than one module)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_module_imports_a_later_stage():
    graph = import_graph(PACKAGE)
    backwards = [f"{a} ({STAGES[stage_of(a)][0]}) imports {b} ({STAGES[stage_of(b)][0]})"
                 for a, targets in sorted(graph.items()) for b in sorted(targets)
                 if stage_of(b) > stage_of(a)]
    assert not backwards, "\n".join(backwards)


def test_no_import_circle():
    assert circles(import_graph(PACKAGE)) == []


def test_the_graph_sees_lazy_imports_and_circles(tmp_path: Path):
    """The finders above can fail: an import inside a function counts, and two modules that
    import each other (one of them lazily, from a package's ``__init__``) are a circle."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("def f():\n    from .sub import b\n")
    (pkg / "sub" / "__init__.py").write_text("from .b import g\n")
    (pkg / "sub" / "b.py").write_text("from .. import a\n\ndef g():\n    pass\n")
    graph = import_graph(pkg)
    assert graph["pkg.a"] == {"pkg.sub.b"}
    assert graph["pkg.sub.b"] == {"pkg.a"}
    assert circles(graph) == [["pkg.a", "pkg.sub.b"]]


def test_a_backward_import_is_seen():
    """The content stage importing the renderers would be reported."""
    assert stage_of("builder.content.game") < stage_of("builder.render.book.pdf")
    assert stage_of("builder.engine.core") < stage_of("builder.check")
    assert stage_of("builder.sandbox") < stage_of("builder.content.index")
