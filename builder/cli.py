"""The command line: ``warbook check``, ``warbook build`` and ``warbook new``; the only
module that prints and sets the exit status."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from . import __version__

DEFAULT_CONTENT = "content"
DEFAULT_OUT = "output"
BUG_HINT = ("this is a bug in warbook, not in your content; nothing was written. Please "
            "report it with the command you ran (WARBOOK_DEBUG=1 shows the traceback).")


def find_default(name: str) -> Path:
    """``content``/``output`` in the working folder, else beside the package (a checkout)."""
    here = Path.cwd() / name
    if here.exists():
        return here
    repo = Path(__file__).resolve().parent.parent / name
    return repo if repo.exists() else here


def print_report(report, stream=None) -> None:
    stream = stream or sys.stdout
    for d in report.diagnostics:
        print(d.format(), file=sys.stderr)
    c = report.counts()
    for g in report.games:
        if g.game.gamedef is None:
            print(f"{g.game.slug}: not checked: its engine could not be loaded (see the "
                  f"error above)", file=stream)
            continue
        passed = sum(1 for r in g.replays if r.status == "pass")
        line = f"{g.game.slug}: {passed}/{len(g.replays)} examples replay"
        if g.uncovered:
            line += f"; rules no example exercises: {', '.join(g.uncovered)}"
        else:
            line += "; every rule the engine applies is exercised"
        print(line, file=stream)
    n_err = len(report.diagnostics.errors)
    n_warn = len(report.diagnostics) - n_err
    print(f"checked {len(report.games)} games, {report.example_count} examples: "
          f"{c['pass']} passed, {c['fail'] + c['error']} failed; "
          f"{n_err} error{'s' if n_err != 1 else ''}"
          + (f", {n_warn} warning{'s' if n_warn != 1 else ''}" if n_warn else ""), file=stream)


def cmd_check(args) -> int:
    from .check import run_check

    report = run_check(Path(args.content))
    if args.json:
        json.dump(report.to_json(), sys.stdout, indent=2)
        print()
    else:
        print_report(report)
    return 0 if report.ok else 1


def cmd_build(args) -> int:
    from .check import run_check

    report = run_check(Path(args.content))
    print_report(report)
    if not report.ok:
        print("build stopped: the check failed; nothing was written", file=sys.stderr)
        return 1
    from .build import BuildError, build

    try:
        return build(report, Path(args.out), paper=args.paper or report.content.book.paper,
                     game=args.game,
                     ink=getattr(args, "ink", "full"), four_colour=args.four_colour)
    except BuildError as e:
        print(f"error: {e}", file=sys.stderr)
        if e.internal:
            print(BUG_HINT, file=sys.stderr)
        print("build stopped: nothing was written; the previous output is unchanged",
              file=sys.stderr)
        return 2 if e.internal else 1


def cmd_new(args) -> int:
    from .scaffold import ScaffoldError, new_example, new_game

    root = Path(args.content)
    try:
        if args.what == "game":
            written = new_game(root, args.name, source=args.source)
            folder = root / args.name
            print(f"wrote {folder}/ ({len(written)} files) and added '{args.name}' to "
                  f"{root / 'index.yaml'}")
            print(f"next: edit {folder}/game.yaml and rules.md, then run 'warbook check'")
        else:
            path = new_example(root, args.name)
            print(f"wrote {path}")
            print("next: change its setup and steps, then run 'warbook check'")
    except ScaffoldError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="warbook", description=(
        "Prove card-game rules by replaying their worked examples, and render them "
        "as rulebooks, print-and-play sheets and a website."))
    ap.add_argument("--version", action="version", version=f"warbook {__version__}")
    sub = ap.add_subparsers(dest="command", required=True)

    c = sub.add_parser("check", help="load the content and replay every worked example")
    c.add_argument("--content", default=str(find_default(DEFAULT_CONTENT)), metavar="DIR")
    c.add_argument("--json", action="store_true", help="print a machine-readable report")
    c.set_defaults(func=cmd_check)

    b = sub.add_parser("build", help="check, then render everything into the output folder")
    b.add_argument("--content", default=str(find_default(DEFAULT_CONTENT)), metavar="DIR")
    b.add_argument("--out", default=str(find_default(DEFAULT_OUT)), metavar="DIR")
    b.add_argument("--paper", choices=("a4", "letter"), default=None,
                   help="the paper (default: book.paper in index.yaml, else a4)")
    b.add_argument("--game", metavar="SLUG", help="build one game only")
    b.add_argument("--ink", choices=("full", "low"), default="full",
                   help="low: outlines and greyscale for the component sheets")
    b.add_argument("--four-colour", action="store_true",
                   help="print the rulebooks' cards with four-colour suits")
    b.set_defaults(func=cmd_build)

    n = sub.add_parser("new", help="start a new game or a new worked example")
    n_sub = n.add_subparsers(dest="what", required=True)
    ng = n_sub.add_parser("game", help="write a new game folder that passes check and build")
    ng.add_argument("name", metavar="SLUG", help="the game's folder name, such as my-war")
    ng.add_argument("--from", dest="source", metavar="SLUG",
                    help="copy this game's folder instead of starting from classic War")
    ng.add_argument("--content", default=str(find_default(DEFAULT_CONTENT)), metavar="DIR")
    ng.set_defaults(func=cmd_new)
    ne = n_sub.add_parser("example", help="write the next numbered example of a game")
    ne.add_argument("name", metavar="GAME", help="the game's slug")
    ne.add_argument("--content", default=str(find_default(DEFAULT_CONTENT)), metavar="DIR")
    ne.set_defaults(func=cmd_new)

    args = ap.parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # noqa: BLE001 - the last resort: a bug, not a content error
        print(f"internal error: {type(e).__name__}: {e}", file=sys.stderr)
        print(BUG_HINT, file=sys.stderr)
        if os.environ.get("WARBOOK_DEBUG"):
            raise
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
