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
several thousand), so by default each module is measured on a seeded random sample of its
mutants (``--sample 120 --seed 1``): the score is then an estimate, printed with its 95 %
Wilson interval; ``--sample 0`` tests every mutant.

The score is killed / (all - equivalent). ``tests/mutation/equivalent.txt`` lists the
mutants judged equivalent (the program behaves the same whatever input it gets), one a
line with the reason; a listed mutant that is killed is reported, since it was not
equivalent after all. Tests that run ``warbook`` in a subprocess import the installed
package, not the mutated copy, so they cannot kill a mutant; the groups use in-process tests.
"""

from __future__ import annotations

import argparse
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
EQUIVALENT = ROOT / "tests" / "mutation" / "equivalent.txt"


@dataclass
class Group:
    name: str
    modules: list[str]
    tests: list[str]
    pytest_args: list[str] = field(default_factory=list)
    target: float = 0.90


GROUPS = [
    Group("check", ["builder/check.py"], ["tests/"], ["-m", "not slow and not browser"]),
    Group("content", ["builder/content.py"], ["tests/"], ["-m", "not slow and not browser"]),
    Group("build", ["builder/build.py"],
          ["tests/test_forked.py", "tests/test_build_failures.py", "tests/test_publish.py"], []),
    Group("engines", ["builder/engine/*.py"], ["tests/"], ["-m", "not slow and not browser"],
          target=0.85),
    Group("geometry", ["builder/render/pnp/layout.py"], ["tests/"],
          ["-m", "not browser"], target=0.85),
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
        if not src.is_file():
            continue
        (dest / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dest / name)


def configure(dest: Path, group: Group) -> None:
    pyproject = dest / "pyproject.toml"
    text = re.sub(r"(?ms)^\[tool\.mutmut\].*?(?=^\[|\Z)", "", pyproject.read_text())
    tests = [t for t in group.tests if (dest / t).exists()]
    keep = [p for p in ("content", "templates", "docs", "tests", "README.md", "bench")
            if (dest / p).exists()]
    conf = {
        "source_paths": ["builder"],
        "only_mutate": group.modules,
        "tests_dir": tests,
        "also_copy": keep,
        "pytest_add_cli_args": ["-p", "no:cacheprovider", "-q", *group.pytest_args],
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
    chosen = []
    rng = random.Random(seed)
    for module, names in mutant_names(dest).items():
        take = names if not sample or sample >= len(names) else rng.sample(names, sample)
        print(f"   {module}: {len(take)} of {len(names)} mutants", flush=True)
        chosen += take
    (dest / "sample.json").write_text(json.dumps({"sample": sample, "seed": seed,
                                                  "mutants": sorted(chosen)}))
    for start in range(0, len(chosen), 200):
        subprocess.run(mutmut + chosen[start:start + 200], cwd=dest, env=env, check=False)


def results(group: Group, work: Path) -> dict[str, str]:
    dest = work / group.name
    if not (dest / "mutants").exists():
        return {}
    out = subprocess.run([sys.executable, "-m", "mutmut", "results", "--all", "true"],
                         cwd=dest, capture_output=True, text=True, check=False).stdout
    chosen = set(json.loads((dest / "sample.json").read_text())["mutants"])
    found = {}
    for line in out.splitlines():
        m = re.match(r"\s*(\S+): (.+)$", line)
        if m and m.group(2) in STATUS and m.group(1) in chosen:
            found[m.group(1)] = m.group(2)
    return found


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a rate k/n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def equivalents() -> dict[str, str]:
    """``mutant-name  reason`` lines; # comments and blank lines ignored."""
    listed = {}
    if EQUIVALENT.exists():
        for line in EQUIVALENT.read_text().splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                name, _, why = line.partition(" ")
                listed[name] = why.strip()
    return listed


def module_of(mutant: str) -> str:
    """``builder.check.x_match_events__mutmut_3`` -> ``builder/check.py``."""
    dotted = mutant.split(".x_")[0].split(".xǁ")[0]
    return dotted.replace(".", "/") + ".py"


def report(groups: list[Group], work: Path, show: bool) -> int:
    listed = equivalents()
    failed = 0
    print(f"{'module':38} {'tested':>6} {'killed':>6} {'equiv.':>6} {'survived':>8} "
          f"{'score':>6} {'95 % interval':>13}  target")
    for group in groups:
        found = results(group, work)
        if not found:
            print(f"{group.name}: no results under {work / group.name} (run it first)")
            failed = 1
            continue
        by_module: dict[str, dict[str, str]] = {}
        for name, status in found.items():
            by_module.setdefault(module_of(name), {})[name] = status
        for module, statuses in sorted(by_module.items()):
            killed = [n for n, s in statuses.items() if STATUS[s] == "killed"]
            equiv = [n for n, s in statuses.items() if STATUS[s] == "survived" and n in listed]
            alive = [n for n, s in statuses.items() if STATUS[s] == "survived"
                     and n not in listed]
            counted = len(killed) + len(alive)
            score = len(killed) / counted if counted else 1.0
            mark = "ok" if score >= group.target else "BELOW"
            failed |= score < group.target
            low, high = wilson(len(killed), counted)
            print(f"{module:38} {len(statuses):6} {len(killed):6} {len(equiv):6} "
                  f"{len(alive):8} {score:6.1%} {low:6.1%}-{high:6.1%}  {group.target:.0%} "
                  f"{mark}")
            wrongly = [n for n in killed if n in listed]
            for n in wrongly:
                print(f"    listed as equivalent but killed: {n}")
            if show:
                for n in sorted(alive):
                    print(f"    survived: {n}  ({statuses[n]})")
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
    ap.add_argument("--sample", type=int, default=120,
                    help="mutants tested per module, drawn at random (0: all; default 120)")
    ap.add_argument("--seed", type=int, default=1, help="the sample's seed (default 1)")
    ap.add_argument("--survivors", action="store_true", help="list each surviving mutant")
    args = ap.parse_args(argv)
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
