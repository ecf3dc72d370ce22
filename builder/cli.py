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


def only_game(report, slug: str | None):
    """The report narrowed to one game (its replays, and the problems found in its folder
    or outside every game's folder); a located error if there is no such game."""
    if slug is None:
        return report, None
    from .check import Report
    from .diagnostics import Diagnostics, suggest

    slugs = [g.game.slug for g in report.games]
    if slug not in slugs:
        return report, (f"error: no game '{slug}'{suggest(slug, slugs)} "
                        f"(games: {', '.join(slugs)})")
    root = Path(report.content.root)
    others = [str(root / s) for s in slugs if s != slug]

    def mine(d) -> bool:
        p = str(Path(d.path).resolve()) if d.path else ""
        return not any(p == o or p.startswith(o + os.sep) for o in others)

    diags = Diagnostics(d for d in report.diagnostics if mine(d))
    return Report(content=report.content, games=[g for g in report.games if g.game.slug == slug],
                  diagnostics=diags), None


def cmd_check(args) -> int:
    from .check import run_check

    report, problem = only_game(run_check(Path(args.content)), args.game)
    if problem:
        print(problem, file=sys.stderr)
        return 1
    if args.balance and report.ok:
        return check_balance(report, args)
    if args.json:
        json.dump(report.to_json(), sys.stdout, indent=2)
        print()
    else:
        print_report(report)
    return 0 if report.ok else 1


def check_balance(report, args) -> int:
    """``check --balance``: the examples passed; now each game's claims on played games."""
    from .lab.bots import LabError
    from .lab.claims import check_balance as judge_game

    print_report(report)
    failed = tested = 0
    for g in report.content.games:
        if g.balance is None or not g.balance.claims:
            continue
        try:
            verdicts, sim = judge_game(g, games=args.games, workers=args.workers)
        except LabError as e:
            print(f"{g.slug}: error: {e}", file=sys.stderr)
            return 1
        for v in verdicts:
            tested += 1
            if v.holds:
                print(f"{g.slug}: holds: {v.said} ({v.measured})")
            else:
                failed += 1
                print(v.diagnostic().format(), file=sys.stderr)
    print(f"balance: {tested} claim{'s' if tested != 1 else ''} tested, {tested - failed} "
          f"borne out, {failed} not")
    return 1 if failed else 0


def cmd_simulate(args) -> int:
    from .content import load_content
    from .lab.bots import LabError
    from .lab.simulate import simulate
    from .lab.text import report_text, to_json

    content, diags = load_content(Path(args.content))
    for d in diags:
        print(d.format(), file=sys.stderr)
    if diags.errors:
        print("simulate stopped: the content has errors (see above)", file=sys.stderr)
        return 1
    slugs = [g.slug for g in content.games]
    if args.game not in slugs:
        import difflib
        close = difflib.get_close_matches(args.game, slugs, n=1)
        print(f"error: no game '{args.game}' (games: {', '.join(slugs)})"
              + (f"; did you mean '{close[0]}'?" if close else ""), file=sys.stderr)
        return 1
    if args.games < 1 or (args.workers is not None and args.workers < 1) or \
            (args.search_games is not None and args.search_games < 1):
        print("error: --games, --search-games and --workers must be at least 1",
              file=sys.stderr)
        return 1
    bots = [b.strip() for b in args.bots.split(",") if b.strip()] if args.bots else None
    try:
        report = simulate(content.game(args.game), games=args.games, bots=bots,
                          seed=args.seed, workers=args.workers,
                          per_option=not args.no_options, search_games=args.search_games)
    except LabError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(to_json(report) if args.json else report_text(report))
    return 0


def cmd_build(args) -> int:
    """``warbook build``: holds the output's lock from before the check to the end, so that
    a second build into the same output stops at once, naming this one (see ``lock``)."""
    from . import lock, machine

    out = Path(args.out)
    try:
        with lock.hold(out, "warbook build"):
            return build_locked(args)
    except lock.Busy as e:
        print(f"error: {e}", file=sys.stderr)
        print("build stopped: nothing was written", file=sys.stderr)
        return 1
    except lock.CannotLock as e:  # a read-only or immutable folder
        print(f"error: cannot lock the output {out}: {machine.describe(e.error)}",
              file=sys.stderr)
        print("build stopped: nothing was written", file=sys.stderr)
        return 1


def build_locked(args) -> int:
    from .build import index_paper, up_to_date
    from .render.site.pages import SiteError, normalise_url

    try:
        site_url = normalise_url(getattr(args, "site_url", None))
    except SiteError as e:
        print(f"error: --site-url: {e}", file=sys.stderr)
        return 1
    ink = getattr(args, "ink", "full")
    shop = None
    if getattr(args, "print_shop", False) or getattr(args, "cmyk_profile", None):
        from .render.printshop import PrintShopError, cmyk_profile

        try:  # before the build, so that a missing profile costs nothing
            shop = cmyk_profile(args.cmyk_profile)
        except PrintShopError as e:
            print(e, file=sys.stderr)
            return 1
    from .settings import PAPERS, Settings

    def settings_for(paper: str) -> Settings:
        return Settings(content_root=Path(args.content), output=Path(args.out),
                        paper=PAPERS[paper], ink=ink, four_colour=args.four_colour,
                        site_url=site_url, print_shop=shop)

    paper = args.paper or index_paper(Path(args.content))
    if args.game is None and not args.clean and shop is None and paper in PAPERS:
        n = up_to_date(settings_for(paper))
        if n is not None:
            print(f"nothing changed since the last build: reused all {n} files in {args.out} "
                  f"(the same inputs passed the check then; --clean rebuilds everything)")
            return 0
    from .check import run_check

    report = run_check(Path(args.content))
    print_report(report)
    if not report.ok:
        print("build stopped: the check failed; nothing was written", file=sys.stderr)
        return 1
    from .build import BuildError, build

    try:
        return build(report, settings_for(args.paper or report.content.book.paper),
                     game=args.game, reuse=not args.clean)
    except BuildError as e:
        print(e if e.located else f"error: {e}", file=sys.stderr)
        if e.internal:
            print(BUG_HINT, file=sys.stderr)
        print("build stopped: nothing was written; the previous output is unchanged",
              file=sys.stderr)
        return 2 if e.internal else 1


def cmd_serve(args) -> int:
    from .serve import ServeError, serve

    try:
        return serve(Path(args.content), Path(args.out), port=args.port,
                     say=lambda m: print(m, flush=True))
    except ServeError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1


def cmd_record(args) -> int:
    from .record import RecordError, record_bots, record_file, update_file

    root = Path(args.content)
    try:
        if args.update:
            diff = update_file(root, Path(args.update))
            if not diff:
                print(f"{args.update}: every expectation still holds; nothing changed")
                return 0
            print(diff, end="")
            print(f"rewrote the expectations above in {args.update}, marked as a draft: read "
                  f"the changes against the rules, rewrite any comment that described the "
                  f"old behaviour, then delete its 'draft:' line")
            return 0
        if args.game is None:
            print("error: name a game (warbook record GAME --bots, or warbook record GAME "
                  "FILE), or an example to update (--update FILE)", file=sys.stderr)
            return 1
        if args.file:
            path = record_file(root, Path(args.file))
        elif args.bots:
            path = record_bots(root, args.game, args.seed, args.steps)
        else:
            print("error: give the example to record (warbook record GAME FILE, a file with "
                  "its setup and decisions) or --bots for a game played by the engine's bots",
                  file=sys.stderr)
            return 1
    except RecordError as e:
        for d in e.diagnostics:
            print(d.format(), file=sys.stderr)
        print(f"error: {e}; nothing was written", file=sys.stderr)
        return 1
    print(f"wrote {path}: a draft with every step's events and state filled in by the engine")
    print("it proves nothing until you have read it: check each step against the rules, "
          "write a comment on the steps that matter, then delete its 'draft:' line and run "
          "'warbook check'")
    return 0


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


def _show_progress() -> None:
    """TEMPORARY, until the "cli" helper's builder/logs.py replaces it at the merge: the
    ``warbook.*`` loggers' progress lines printed on whatever ``sys.stdout`` is at the
    time, as the ``print`` calls they replace were (``serve``'s redirection still quiets
    them)."""
    import logging

    class Printed(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            print(self.format(record), flush=True)

    root = logging.getLogger("warbook")
    if not root.handlers:
        root.addHandler(Printed())
    root.setLevel(logging.INFO)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="warbook", description=(
        "Prove card-game rules by replaying their worked examples, and render them "
        "as rulebooks, print-and-play sheets and a website."))
    ap.add_argument("--version", action="version", version=f"warbook {__version__}")
    sub = ap.add_subparsers(dest="command", required=True)

    c = sub.add_parser("check", help="load the content and replay every worked example")
    c.add_argument("--content", default=str(find_default(DEFAULT_CONTENT)), metavar="DIR")
    c.add_argument("--json", action="store_true", help="print a machine-readable report")
    c.add_argument("--game", metavar="SLUG", help="check one game only")
    c.add_argument("--balance", action="store_true",
                   help="also test each game's balance claims (balance: in game.yaml) on "
                        "simulated games")
    c.add_argument("--games", type=int, default=None, metavar="N",
                   help="with --balance: games per line-up (default: balance.games, else 2000)")
    c.add_argument("--workers", type=int, default=None, metavar="N",
                   help="worker processes for simulation (default: every core)")
    c.set_defaults(func=cmd_check)

    m = sub.add_parser("simulate", help="play seeded games and report length, draws, cap "
                       "hits, seat edge and skill edge with 95%% intervals")
    m.add_argument("game", metavar="GAME", help="the game's slug")
    m.add_argument("--content", default=str(find_default(DEFAULT_CONTENT)), metavar="DIR")
    m.add_argument("--games", type=int, default=2000, metavar="N",
                   help="games per line-up (default 2000)")
    m.add_argument("--bots", default=None, metavar="A,B",
                   help="the bots to play: random, heuristic, search (default: random and "
                        "heuristic where the game has decisions)")
    m.add_argument("--seed", type=int, default=0, metavar="S")
    m.add_argument("--workers", type=int, default=None, metavar="N",
                   help="worker processes (default: every core); the figures do not change")
    m.add_argument("--search-games", type=int, default=None, metavar="N",
                   help="games per line-up with the search bot in it (default: the smaller "
                        "of --games and 200)")
    m.add_argument("--no-options", action="store_true",
                   help="only the game as printed, not each option value")
    m.add_argument("--json", action="store_true", help="print the figures as JSON")
    m.set_defaults(func=cmd_simulate)

    b = sub.add_parser("build", help="check, then render everything into the output folder")
    b.add_argument("--content", default=str(find_default(DEFAULT_CONTENT)), metavar="DIR")
    b.add_argument("--out", default=str(find_default(DEFAULT_OUT)), metavar="DIR")
    b.add_argument("--paper", choices=("a4", "letter"), default=None,
                   help="the paper (default: book.paper in index.yaml, else a4)")
    b.add_argument("--game", metavar="SLUG",
                   help="build one game only (its rulebook, components and site page)")
    b.add_argument("--clean", action="store_true",
                   help="render everything again instead of reusing unchanged outputs")
    b.add_argument("--ink", choices=("full", "low"), default="full",
                   help="low: outlines and greyscale for the component sheets")
    b.add_argument("--four-colour", action="store_true",
                   help="print the rulebooks' cards with four-colour suits")
    b.add_argument("--site-url", metavar="URL",
                   help="the website's public address, such as https://example.org/rules/ "
                        "(for canonical links, sitemap.xml and preview images)")
    b.add_argument("--print-shop", action="store_true",
                   help="also write print-shop/: every PDF as PDF/X-4, its colours separated "
                        "into CMYK, with the CMYK profile as output intent")
    b.add_argument("--cmyk-profile", metavar="FILE",
                   help="the CMYK ICC profile for --print-shop (default: Ghostscript's "
                        "default_cmyk.icc from Debian's libgs10-common)")
    b.set_defaults(func=cmd_build)

    s = sub.add_parser("serve", help="build, serve on 127.0.0.1, rebuild and reload the "
                       "browser on every save")
    s.add_argument("--content", default=str(find_default(DEFAULT_CONTENT)), metavar="DIR")
    s.add_argument("--out", default=str(find_default(DEFAULT_OUT)), metavar="DIR")
    s.add_argument("--port", type=int, default=8000, metavar="N",
                   help="the port on 127.0.0.1 (default 8000; 0 picks a free one)")
    s.set_defaults(func=cmd_serve)

    r = sub.add_parser("record", help="fill in an example's expectations from the engine, "
                       "as a draft to review")
    r.add_argument("game", nargs="?", metavar="GAME", help="the game's slug")
    r.add_argument("file", nargs="?", metavar="FILE",
                   help="an example file with its setup and decisions (filled in in place)")
    r.add_argument("--bots", action="store_true",
                   help="record a game played by the engine's bots, as the next example")
    r.add_argument("--seed", type=int, default=1, help="the bots' and chance's seed (default 1)")
    r.add_argument("--steps", type=int, default=6, metavar="N",
                   help="how many steps of the bot game to record (default 6)")
    r.add_argument("--update", metavar="FILE",
                   help="rewrite an existing example's expectations after a rules change, "
                        "and show what changed")
    r.add_argument("--content", default=str(find_default(DEFAULT_CONTENT)), metavar="DIR")
    r.set_defaults(func=cmd_record)

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
    _show_progress()
    from . import machine

    machine.track_writes()  # so that a full disk names the file being written
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # noqa: BLE001 - the last resort: a bug, not a content error
        if machine.is_machine(e):  # the machine's failure (a full disk ...), not a bug
            print(f"error: {machine.describe(e, hint=False)}", file=sys.stderr)
            if os.environ.get("WARBOOK_DEBUG"):
                raise
            return 1
        print(f"internal error: {type(e).__name__}: {e}", file=sys.stderr)
        print(BUG_HINT, file=sys.stderr)
        if os.environ.get("WARBOOK_DEBUG"):
            raise
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
