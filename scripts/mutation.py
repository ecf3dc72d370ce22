"""Mutation testing of the modules that carry warbook's promise, with mutmut.

    .venv/bin/python scripts/mutation.py                 every group, then the score table
    .venv/bin/python scripts/mutation.py check content   some groups only
    .venv/bin/python scripts/mutation.py --report        the table from the last run, no run
    .venv/bin/python scripts/mutation.py --sample 0      every mutant (hours on two cores)

Each group is a set of modules and the tests that should kill their mutants. The group is
copied (the files git tracks, as they are in the working tree) into its own folder under
``--work`` (default ``/tmp/warbook-mutation``), given a ``[tool.mutmut]`` section of its own
and run there, so the checkout is never touched and groups never share mutmut's state.

mutmut (3.x) mutates a copy of ``builder/`` one mutant at a time, behind a trampoline, and
runs only the tests that reach the mutated function (it records which tests reach which
function in one run of the group's tests first). A mutant is *killed* when a test fails,
*survived* when every test passes, *timeout* when the tests run far longer than usual (a
mutant that makes a loop endless: counted as killed, as mutmut's own score does),
*no tests* when no test reaches it (counted as survived: nothing would notice it).

A whole run is hours on two cores (check.py alone has about 900 mutants, the engines
several thousand), so by default each group is measured on a seeded random sample of its
mutants (``--seed 1``; 120 for a module, 200 for the engines): the score is then an estimate, printed with its 95 %
Wilson interval; ``--sample 0`` tests every mutant.

The score is killed / (all - equivalent). ``tests/mutation/equivalent.txt`` lists the
mutants judged equivalent (the program behaves the same whatever input it gets), one a
line with the reason; a listed mutant that is killed is reported, since it was not
equivalent after all. Tests that run ``warbook`` in a subprocess import the installed
package, not the mutated copy, so they cannot kill a mutant; the groups use in-process tests.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENT = ROOT / "tests" / "mutation" / "equivalent.yaml"


@dataclass
class Group:
    name: str
    modules: list[str]
    tests: list[str]
    pytest_args: list[str] = field(default_factory=list)
    target: float = 0.90
    sample: int = 120          # mutants drawn from the whole group when sampling


#: tests that read builder/ as source text, not run it: in mutmut's copy that text holds
#: every mutant (so they fail on the clean run) and they would "kill" a mutated message by
#: reading it, not by noticing a behaviour; they run in the normal suite only
SOURCE_READERS = ["--deselect",
                  "tests/content/test_content_errors.py::test_every_message_has_a_case"]
#: builds killed in subprocesses of the installed package (four minutes, and no mutant of the
#: copy can reach them); the in-process kill tests of test_publish.py stay
KILLED_REAL_BUILDS = ["--deselect", "tests/build/test_publish.py::test_killed_real_builds"]

GROUPS = [
    Group("check", ["builder/check.py", "builder/events.py"], ["tests/"],
          ["-m", "not slow and not browser"]),
    # the tests that load content and say what is wrong with it (every test loads content,
    # but a mutant of the loader run against the whole suite takes minutes)
    Group("content", ["builder/content/*.py"],
          ["tests/content/", "tests/check/", "tests/security/test_fuzz.py",
           "tests/lab/test_lab.py", "tests/render/book/test_book_print.py"],
          ["-m", "not slow and not browser"]),
    Group("build", ["builder/build/*.py"],
          ["tests/build/test_forked.py", "tests/build/test_build_failures.py",
           "tests/build/test_publish.py", "tests/build/test_build_whole.py",
           "tests/build/test_products.py"], KILLED_REAL_BUILDS),
    Group("engines", ["builder/engine/*.py"], ["tests/"], ["-m", "not slow and not browser"],
          target=0.85, sample=200),
    # the sheets' geometry read back from PDFs rendered in-process (test_components.py's
    # ``letter`` fixture: crop-mark gaps, mirrored backs) and the layout's own tests; the
    # session's real build runs the installed package, which no mutant reaches
    Group("geometry", ["builder/render/pnp/layout.py"], ["tests/"],
          ["-m", "not slow and not browser"], target=0.85, sample=60),
]

STATUS = {  # mutmut's exit-code classes, as `mutmut results --all true` prints them
    "killed": "killed", "timeout": "killed", "survived": "survived",
    "no tests": "survived", "suspicious": "survived", "skipped": "skipped",
    "caught by type check": "killed", "segfault": "killed",
}


def copy_tree(dest: Path) -> None:
    """The files git tracks, as they are in the working tree (uncommitted edits included)."""
    if dest.exists():
        shutil.rmtree(dest)
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                            "--exclude-standard"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    for name in filter(None, files):
        src = ROOT / name
        if src.is_symlink():  # builder/templates -> ../templates (builder/resources.py)
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            os.symlink(os.readlink(src), dest / name)
            continue
        if not src.is_file():
            continue
        (dest / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dest / name)


def configure(dest: Path, group: Group) -> None:
    pyproject = dest / "pyproject.toml"
    text = re.sub(r"(?ms)^\[tool\.mutmut\].*?(?=^\[|\Z)", "", pyproject.read_text())
    tests = [t for t in group.tests if (dest / t).exists()]
    # builder/templates (a link to ../templates) too: mutmut copies only builder/'s
    # Python files into its mutants/ folder, and the renderers find templates there
    # scripts/ too: tests/mutation imports this script from there (without it, ``import
    # mutation`` finds the tests/mutation folder instead)
    keep = [p for p in ("content", "templates", "builder/templates", "docs", "tests",
                        "README.md", "bench", "scripts") if (dest / p).exists()]
    conf = {
        "source_paths": ["builder"],
        "only_mutate": group.modules,
        "tests_dir": tests,
        "also_copy": keep,
        "pytest_add_cli_args": ["-p", "no:cacheprovider", "-q", *SOURCE_READERS,
                                *group.pytest_args],
        "use_git_change_detection": False,
    }
    lines = ["", "[tool.mutmut]"] + [f"{k} = {json.dumps(v)}" for k, v in conf.items()]
    pyproject.write_text(text.rstrip() + "\n" + "\n".join(lines) + "\n")


def mutant_names(dest: Path) -> dict[str, list[str]]:
    """Every mutant mutmut generated, by module, read from its mutated copies."""
    found: dict[str, list[str]] = {}
    for path in sorted((dest / "mutants" / "builder").rglob("*.py")):
        dotted = ".".join(path.relative_to(dest / "mutants").with_suffix("").parts)
        names = re.findall(r"^\s*def (x[_ǁ]\w*?ǁ?\w+__mutmut_\d+)\(", path.read_text(),
                           flags=re.M)
        if names:
            found[dotted.replace(".", "/") + ".py"] = [f"{dotted}.{n}" for n in names]
    return found


def run_group(group: Group, work: Path, children: int, sample: int, seed: int) -> None:
    dest = work / group.name
    copy_tree(dest)
    configure(dest, group)
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    mutmut = [sys.executable, "-m", "mutmut", "run", "--max-children", str(children)]
    print(f"== {group.name}: mutating {', '.join(group.modules)}", flush=True)
    # A name that matches nothing: mutmut generates the mutants and records which tests
    # reach which function, then stops before testing any mutant.
    subprocess.run(mutmut + ["no-such-mutant"], cwd=dest, env=env, check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    everything = mutant_names(dest)
    pool = [name for names in everything.values() for name in names]
    size = group.sample if sample is None else sample
    chosen = pool if not size or size >= len(pool) else random.Random(seed).sample(pool, size)
    for module, names in everything.items():
        print(f"   {module}: {len(set(names) & set(chosen))} of {len(names)} mutants", flush=True)
    (dest / "sample.json").write_text(json.dumps({"sample": sample, "seed": seed,
                                                  "mutants": sorted(chosen)}))
    for start in range(0, len(chosen), 200):
        subprocess.run(mutmut + chosen[start:start + 200], cwd=dest, env=env, check=False)
    run_untraced(group, dest, chosen)


def run_untraced(group: Group, dest: Path, chosen: list[str]) -> None:
    """mutmut runs a mutant only against the tests it saw reach the mutated function, and it
    sees only what runs in the test's own process: code that runs in a forked child (the
    build's second process) is "no tests" to it although tests do exercise it. Each such
    mutant of the sample is run here against all of the group's tests, the way mutmut runs
    one (MUTANT_UNDER_TEST names it; the mutated copy is first on the path), and recorded
    in ``untraced.json``: killed when a test fails or the run times out."""
    statuses = mutmut_results(dest)
    untraced = {}
    for name in chosen:
        if statuses.get(name) != "no tests":
            continue
        env = dict(os.environ, MUTANT_UNDER_TEST=name, PYTHONDONTWRITEBYTECODE="1")
        args = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                *SOURCE_READERS, *group.pytest_args, *[t for t in group.tests if (dest / "mutants" / t).exists()]]
        try:
            proc = subprocess.run(args, cwd=dest / "mutants", env=env, capture_output=True,
                                  timeout=900, check=False)
            untraced[name] = "killed" if proc.returncode not in (0, 5) else "survived"
        except subprocess.TimeoutExpired:
            untraced[name] = "timeout"
        print(f"   {name}: {untraced[name]} (run against all of the group's tests)", flush=True)
    (dest / "untraced.json").write_text(json.dumps(untraced, indent=1))


def mutmut_results(dest: Path) -> dict[str, str]:
    out = subprocess.run([sys.executable, "-m", "mutmut", "results", "--all", "true"],
                         cwd=dest, capture_output=True, text=True, check=False).stdout
    found = {}
    for line in out.splitlines():
        m = re.match(r"\s*(\S+): (.+)$", line)
        if m and m.group(2) in STATUS:
            found[m.group(1)] = m.group(2)
    return found


def results(group: Group, work: Path) -> dict[str, str]:
    """The sample's statuses, with the untraced mutants' own runs in place of "no tests"."""
    dest = work / group.name
    if not (dest / "sample.json").exists():
        return {}
    chosen = set(json.loads((dest / "sample.json").read_text())["mutants"])
    found = {n: s for n, s in mutmut_results(dest).items() if n in chosen}
    if (dest / "untraced.json").exists():
        found.update(json.loads((dest / "untraced.json").read_text()))
    return found


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a rate k/n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


Change = tuple[tuple[str, ...], tuple[str, ...]]


def changes(mutated: str, dotted: str) -> dict[str, Change]:
    """What each mutant in a module mutmut mutated (the text of its ``mutants/`` copy)
    changes: the lines it takes out of the function and the lines it puts in, stripped of
    their indentation. ``dotted`` is the module's name (``builder.content.rules``)."""
    tree = ast.parse(mutated)
    lines = mutated.splitlines()
    nodes = list(tree.body) + [n for c in tree.body if isinstance(c, ast.ClassDef)
                               for n in c.body]
    texts: dict[str, list[str]] = {}
    for node in nodes:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            m = re.fullmatch(r"(.+)__mutmut_(\d+|orig)", node.name)
            if m:
                text = lines[node.lineno - 1:node.end_lineno]
                texts[node.name] = [text[0].replace(node.name, m.group(1)), *text[1:]]
    out = {}
    for name, text in texts.items():
        orig = texts.get(re.sub(r"__mutmut_\d+$", "__mutmut_orig", name))
        if name.endswith("__mutmut_orig") or orig is None:
            continue
        taken, put = [], []
        for line in difflib.unified_diff(orig, text, n=0, lineterm=""):
            if line.startswith(("---", "+++", "@@")):
                continue
            (taken if line[0] == "-" else put).append(line[1:].strip())
        out[f"{dotted}.{name}"] = (tuple(taken), tuple(put))
    return out


@dataclass
class Equivalent:
    """An entry of tests/mutation/equivalent.yaml: a change to a function that leaves the
    program's behaviour the same, found again among the mutants however mutmut numbers
    them (its numbers shift whenever the function is edited)."""
    function: str       # builder.content.rules.xǁRulesReaderǁread
    taken: tuple[str, ...]
    put: tuple[str, ...]
    why: str


def equivalents() -> list[Equivalent]:
    import yaml

    entries = yaml.safe_load(EQUIVALENT.read_text()) if EQUIVALENT.exists() else None
    return [Equivalent(e["function"], tuple(e["out"]), tuple(e["in"]), e["why"])
            for e in entries or []]


def equivalent_names(dest: Path, entries: list[Equivalent], modules: list[str] | None = None,
                     ) -> tuple[dict[str, str], list]:
    """The names, in a group's run (``dest``), of the mutants the entries describe (name ->
    why), and the entries of the group's modules (``modules``, its patterns such as
    ``builder/content/*.py``; default: every module) that no mutant matches any more (the
    code they were judged on changed: judge again)."""
    by_module: dict[str, list[Equivalent]] = {}
    for e in entries:
        dotted = e.function.split(".x_")[0].split(".xǁ")[0]
        path = Path(dotted.replace(".", "/") + ".py")
        if modules is None or any(path.match(m) for m in modules):
            by_module.setdefault(dotted, []).append(e)
    names, stale = {}, []
    for dotted, listed in by_module.items():
        copy = dest / "mutants" / (dotted.replace(".", "/") + ".py")
        if not copy.exists():
            continue
        found = changes(copy.read_text(), dotted)
        for e in listed:
            hits = [n for n, ch in found.items() if n.rsplit("__mutmut_", 1)[0] == e.function
                    and ch == (e.taken, e.put)]
            names.update((n, e.why) for n in hits)
            if not hits:
                stale.append(e)
    return names, stale


def entry(dest: Path, name: str) -> str:
    """A mutant of a group's run written as an entry of equivalent.yaml, to paste and
    give its reason."""
    import yaml

    dotted = module_of(name)[:-3].replace("/", ".")
    found = changes((dest / "mutants" / module_of(name)).read_text(), dotted)
    taken, put = found[name]
    return yaml.safe_dump([{"function": name.rsplit("__mutmut_", 1)[0], "out": list(taken),
                            "in": list(put), "why": "..."}], allow_unicode=True,
                          sort_keys=False, width=100)


def module_of(mutant: str) -> str:
    """``builder.check.x_match_events__mutmut_3`` -> ``builder/check.py``."""
    dotted = mutant.split(".x_")[0].split(".xǁ")[0]
    return dotted.replace(".", "/") + ".py"


def score_row(label: str, statuses: dict[str, str], listed: dict[str, str],
              target: float | None) -> tuple[str, bool]:
    """One line of the table, and whether it reaches the target (None: no target)."""
    killed = [n for n, s in statuses.items() if STATUS[s] == "killed"]
    equiv = [n for n, s in statuses.items() if STATUS[s] == "survived" and n in listed]
    alive = [n for n, s in statuses.items() if STATUS[s] == "survived" and n not in listed]
    counted = len(killed) + len(alive)
    score = len(killed) / counted if counted else 1.0
    low, high = wilson(len(killed), counted)
    ok = target is None or score >= target
    mark = "" if target is None else f"{target:.0%} {'ok' if ok else 'BELOW'}"
    return (f"{label:38} {len(statuses):6} {len(killed):6} {len(equiv):6} {len(alive):8} "
            f"{score:6.1%} {low:6.1%}-{high:6.1%}  {mark}"), ok


def report(groups: list[Group], work: Path, show: bool) -> int:
    """The table: a row per module, and per group (the target applies to the group)."""
    entries = equivalents()
    failed = 0
    print(f"{'module':38} {'tested':>6} {'killed':>6} {'equiv.':>6} {'survived':>8} "
          f"{'score':>6} {'95 % interval':>13}  target")
    for group in groups:
        found = results(group, work)
        if not found:
            print(f"{group.name}: no results under {work / group.name} (run it first)")
            failed = 1
            continue
        listed, stale = equivalent_names(work / group.name, entries, group.modules)
        by_module: dict[str, dict[str, str]] = {}
        for name, status in found.items():
            by_module.setdefault(module_of(name), {})[name] = status
        if len(by_module) > 1:
            for module, statuses in sorted(by_module.items()):
                print(score_row("  " + module, statuses, listed, None)[0])
        label = f"{group.name}: {', '.join(group.modules)}" if len(by_module) > 1 \
            else next(iter(by_module))
        line, ok = score_row(label, found, listed, group.target)
        print(line)
        failed |= not ok
        for n in sorted(n for n in found if n in listed and STATUS[found[n]] == "killed"):
            print(f"    listed as equivalent but killed: {n}")
        for e in stale:
            print(f"    stale equivalent (no mutant of {e.function} makes this change now; "
                  f"judge again): -{' / '.join(e.taken)} +{' / '.join(e.put)}")
        if show:
            for n, status in sorted(found.items()):
                if STATUS[status] == "survived" and n not in listed:
                    print(f"    survived: {n}  ({status})")
    return failed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("groups", nargs="*", help="groups to run: " +
                    ", ".join(g.name for g in GROUPS) + " (default: all)")
    ap.add_argument("--work", default="/tmp/warbook-mutation", type=Path,
                    help="where the groups' copies and results live")
    ap.add_argument("--children", type=int, default=os.cpu_count() or 2,
                    help="mutants tested at once (default: one per core)")
    ap.add_argument("--report", action="store_true", help="print the last results only")
    ap.add_argument("--sample", type=int, default=None,
                    help="mutants tested per group, drawn at random from all its modules' "
                         "(0: all; default: the group's own size, 60 to 200)")
    ap.add_argument("--seed", type=int, default=1, help="the sample's seed (default 1)")
    ap.add_argument("--survivors", action="store_true", help="list each surviving mutant")
    ap.add_argument("--entry", metavar="MUTANT",
                    help="print the mutant (of the last run) as an entry of "
                         "tests/mutation/equivalent.yaml, to paste and give a reason")
    args = ap.parse_args(argv)
    if args.entry:
        group = next((g for g in GROUPS if (args.work / g.name / "mutants" /
                                            module_of(args.entry)).exists()
                      and any(Path(module_of(args.entry)).match(m) for m in g.modules)), None)
        if group is None:
            ap.error(f"no run under {args.work} mutated {module_of(args.entry)}")
        print(entry(args.work / group.name, args.entry), end="")
        return 0
    names = args.groups or [g.name for g in GROUPS]
    unknown = set(names) - {g.name for g in GROUPS}
    if unknown:
        ap.error(f"no group {', '.join(sorted(unknown))}")
    groups = [g for g in GROUPS if g.name in names]
    if not args.report:
        try:
            import mutmut  # noqa: F401
        except ImportError:
            subprocess.run([sys.executable, "-m", "pip", "install", "-q",
                            "--disable-pip-version-check", "-e", f"{ROOT}[mutation]"],
                           check=True)
        for group in groups:
            run_group(group, args.work, args.children, args.sample, args.seed)
    return report(groups, args.work, args.survivors)


if __name__ == "__main__":
    sys.exit(main())
