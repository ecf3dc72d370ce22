"""The command line: ``warbook check``, ``simulate``, ``build``, ``serve``, ``record`` and
``new``; the only module that prints errors and sets the exit status.

:func:`main` parses the flags, installs the one logging handler (:mod:`.logs`: progress on
standard output, problems on standard error; ``--verbose``/``--quiet`` on every command),
and runs the command. Every error a user can act on is a :class:`~.errors.WarbookError`,
caught in one place in :func:`main`: its message is shown (a located one as
``path:line:col: error: ...``, any other as ``error: ...``), then the line the command wants
after it ("build stopped: nothing was written"), and the command exits with the error's
``exit_code`` (1). Anything else is a bug: "internal error", exit status 2.

``build`` and ``serve`` make one frozen :class:`~.settings.Settings` from their flags over
``index.yaml``'s ``book:`` (:func:`make_settings`) and hand it on.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from pathlib import Path

from . import __version__
from .errors import InternalError, WarbookError

DEFAULT_CONTENT = "content"
DEFAULT_OUT = "output"
BUG_HINT = ("this is a bug in warbook, not in your content; nothing was written. Please "
            "report it with the command you ran (WARBOOK_DEBUG=1 shows the traceback).")
#: after an error that stopped a build while it held the output's lock
BUILD_STOPPED = "build stopped: nothing was written; the previous output is unchanged"
#: after an error that stopped a build before it could lock the output
NOT_STARTED = "build stopped: nothing was written"

log = logging.getLogger("warbook.cli")


class CommandError(WarbookError):
    """A command's flags or arguments refused (an unknown game, a bad ``--site-url``).
    ``located``: the message already says where (``path: error: ...``) and is shown as is."""

    def __init__(self, message: str, located: bool = False):
        super().__init__(message)
        self.located = located


def find_default(name: str) -> Path:
    """``content``/``output`` in the working folder, else beside the package (a checkout).
    Where the working folder holds a ``content`` folder, its ``output`` is the working
    folder's too, made by the first build (never the checkout's)."""
    here = Path.cwd() / name
    if here.exists() or (name == DEFAULT_OUT and (Path.cwd() / DEFAULT_CONTENT).is_dir()):
        return here
    repo = Path(__file__).resolve().parent.parent / name
    return repo if repo.exists() else here


def show_diagnostics(diagnostics) -> None:
    """Each problem found, on standard error, as ``path:line:col: severity: message``."""
    for d in diagnostics:
        (log.warning if d.severity == "warning" else log.error)(d.format())


def print_report(report) -> None:
    """The check's problems (standard error), then a line per game and the totals."""
    show_diagnostics(report.diagnostics)
    counts = report.counts()
    for g in report.games:
        if g.game.gamedef is None:
            log.info(f"{g.game.slug}: not checked: its engine or its cards could not be loaded (see "
                     f"the errors above)")
            continue
        passed = sum(1 for r in g.replays if r.status == "pass")
        line = f"{g.game.slug}: {passed}/{len(g.replays)} examples replay"
        if g.uncovered:
            line += f"; rules no example exercises: {', '.join(g.uncovered)}"
        else:
            line += "; every rule the engine applies is exercised"
        log.info(line)
    n_err = len(report.diagnostics.errors)
    n_warn = len(report.diagnostics) - n_err
    games, examples = len(report.games), report.example_count
    log.info(f"checked {games} game{'s' if games != 1 else ''}, "
             f"{examples} example{'s' if examples != 1 else ''}: "
             f"{counts['pass']} passed, {counts['fail'] + counts['error']} failed; "
             f"{n_err} error{'s' if n_err != 1 else ''}"
             + (f", {n_warn} warning{'s' if n_warn != 1 else ''}" if n_warn else ""))


def no_such_game(slug: str, slugs: list[str]) -> CommandError:
    """The error for a ``--game``/``GAME`` that names no game of the content."""
    from .diagnostics import suggest

    return CommandError(f"no game '{slug}' (games: {', '.join(slugs)}){suggest(slug, slugs)}")


def only_game(report, slug: str | None):
    """The report narrowed to one game (its replays, and the problems found in its folder
    or outside every game's folder); :class:`CommandError` if there is no such game."""
    if slug is None:
        return report
    from .check import Report
    from .diagnostics import Diagnostics

    slugs = [g.game.slug for g in report.games]
    if slug not in slugs:
        raise no_such_game(slug, slugs)
    root = Path(report.content.root)
    others = [str(root / s) for s in slugs if s != slug]

    def mine(d) -> bool:
        p = str(Path(d.path).resolve()) if d.path else ""
        return not any(p == o or p.startswith(o + os.sep) for o in others)

    diags = Diagnostics(d for d in report.diagnostics if mine(d))
    return Report(content=report.content, games=[g for g in report.games if g.game.slug == slug],
                  diagnostics=diags)


# --------------------------------------------------------------------------- settings
def book_paper(content_root: Path) -> str:
    """``book.paper`` of the content's ``index.yaml`` when it names a known paper, else the
    default: a file that cannot be read, or a paper warbook does not know, is the check's
    to report (at its line), and a failed check builds nothing."""
    from .settings import DEFAULT_PAPER, PAPERS
    from .yamlsrc import load_yaml

    index = Path(content_root) / "index.yaml"
    if not (index.exists() or index.is_symlink()):
        return DEFAULT_PAPER
    try:  # the content reader's own guarded read (a regular file inside the folder)
        data = load_yaml(index, root=Path(content_root))
    except WarbookError:
        return DEFAULT_PAPER
    book = data.get("book") if isinstance(data, dict) else None
    paper = book.get("paper") if isinstance(book, dict) else None
    return str(paper) if isinstance(paper, str) and str(paper) in PAPERS else DEFAULT_PAPER


def make_settings(args):
    """The build's :class:`~.settings.Settings`, made once from the flags over
    ``index.yaml``'s ``book:`` (a flag wins). Each flag is validated here, once:
    :class:`CommandError` for a ``--site-url`` that is no web address or a CMYK profile
    that cannot be used (before anything is built, so that a bad flag costs nothing)."""
    from .settings import PAPERS, Settings

    content, out = Path(args.content), Path(args.out)
    site_url = None
    if args.site_url:  # the website's module is loaded only when there is one to check
        from .render.site.pages import SiteError, normalise_url

        try:
            site_url = normalise_url(args.site_url) or None
        except SiteError as e:
            raise CommandError(f"--site-url: {e}") from None
    shop = None
    if args.print_shop or args.cmyk_profile:
        from .render.printshop import PrintShopError, cmyk_profile

        try:
            shop = cmyk_profile(args.cmyk_profile)
        except PrintShopError as e:  # its message names the profile's path
            raise CommandError(str(e), located=True) from None
    settings = Settings(content_root=content, output=out,
                        paper=PAPERS[args.paper or book_paper(content)], ink=args.ink,
                        four_colour=args.four_colour, site_url=site_url, print_shop=shop)
    log.debug(f"settings: content {content}, output {out}, paper {settings.paper.name}, "
              f"ink {settings.ink}, four-colour {settings.four_colour}, site URL "
              f"{settings.site_url}, print shop {'yes' if shop else 'no'}")
    return settings


# --------------------------------------------------------------------------- commands
def cmd_check(args) -> int:
    """``warbook check``: from the check's cache in the output folder where its entries
    hold (:mod:`.checkcache`: the same lines, the same exit status), else checked now;
    ``--no-cache`` and ``--balance`` check everything now and keep nothing."""
    from .checkcache import cached_check, game_folders

    content = Path(args.content)
    log.debug(f"checking {content.resolve()}")
    if args.balance or args.no_cache or not Path(args.out).is_dir() \
            or not game_folders(content):  # nowhere to keep it, or nothing worth keeping
        from .check import run_check

        report = only_game(run_check(content), args.game)
        for gr in report.games:
            figures_note(gr.game, report.diagnostics, args.out)
        check_faces(report)
    else:
        done = cached_check(content, Path(args.out), check_stages(args.out),
                            faces_for=args.game)
        log.debug(f"check cache in {Path(args.out).joinpath('.cache', 'check')}: "
                  + (f"checked {', '.join(done.checked)} now" if done.checked
                     else "every game's verdict reused") + f" ({done.kept})")
        report = only_game(done.report, args.game)
        report.diagnostics.extend(done.faces_of(report.games))
    if args.balance and report.ok:
        return check_balance(report, args)
    if args.json:
        json.dump(report.to_json(), sys.stdout, indent=2)
        print()
    else:
        print_report(report)
    return 0 if report.ok else 1


def check_faces(report) -> None:
    """The faces and backs of the games' own decks, drawn once after the check, their
    problems added to the report (a field that does not fit its box, a template's fault):
    the check's stage may not import the renderers, so the commands call this."""
    from .render.faces import check_faces as draw_every_face

    draw_every_face(report)


def figures_note(game, diags, out) -> None:
    """A warning where the game's balance figures file is out of date or cannot be trusted
    (a plain ``build`` measures them again; ``build --quick`` prints them marked). A game
    never built has none yet, which is not worth a warning."""
    from .diagnostics import Located
    from .faults import shown
    from .lab.figures import FILE, check_note

    path = Path(game.dir) / FILE
    note = check_note(game, out) if game.gamedef is not None and path.exists() else None
    if note:
        diags.warning(Located(shown(str(path)), 1), note)


def check_stages(out=None):
    """The check's stages for its cache (:class:`.checkcache.Stages`), each imported only
    when a game must be checked now: a check answered from the cache loads no engine,
    YAML parser or template. A game's figures note is a warning, so a game whose figures
    are stale is never answered from the cache."""
    from types import SimpleNamespace

    from .checkcache import Stages
    from .render.fonts import FONT_DIRS

    def load(root):
        from .content import load_content

        return load_content(root)

    def check_game(game, diags):
        from .check import check_game as replay_game

        checked = replay_game(game, diags)
        figures_note(game, diags, out)
        return checked

    def faces(content, game):
        if not getattr(game, "decks", None):  # the French 52: nothing to draw
            return []
        from .render.faces import check_faces as draw_every_face

        return draw_every_face(SimpleNamespace(content=content, diagnostics=[],
                                               games=[SimpleNamespace(game=game)]))

    return Stages(load=load, check_game=check_game, faces=faces, extra=tuple(FONT_DIRS))


def require_counts(args, *flags: str) -> None:
    """Refuse a count flag below 1, naming it (``--games 0`` would otherwise mean the default)."""
    for flag in flags:
        value = getattr(args, flag.lstrip("-").replace("-", "_"))
        if value is not None and value < 1:
            raise CommandError(f"{flag} must be at least 1, got {value}")


def check_balance(report, args) -> int:
    """``check --balance``: the examples passed; now each game's claims on played games."""
    from .lab.bots import LabError
    from .lab.claims import check_balance as judge_game
    from .lab.claims import plays_search
    from .lab.connect import connect

    require_counts(args, "--games", "--search-games", "--workers")
    print_report(report)
    failed = tested = 0
    claimed = [g for g in (r.game for r in report.games)  # narrowed by --game
               if g.balance is not None and g.balance.claims]
    if args.search_games is not None and not any(plays_search(g) for g in claimed):
        log.warning("warning: --search-games changes nothing here: none of "
                    + (f"{claimed[0].slug}'s" if len(claimed) == 1 else "these games'")
                    + " claims has the search bot play")
    with connect(cluster_flag(args) if claimed else None, args.workers) as executor:
        for g in claimed:
            try:
                verdicts, sim = judge_game(g, games=args.games, search_games=args.search_games,
                                           executor=executor)
            except LabError as e:  # said with the game it is about
                raise CommandError(f"{g.slug}: error: {e}", located=True) from None
            for v in verdicts:
                tested += 1
                if v.holds:
                    log.info(f"{g.slug}: holds: {v.said} ({v.measured})")
                else:
                    failed += 1
                    log.error(v.diagnostic().format())
    log.info(f"balance: {tested} claim{'s' if tested != 1 else ''} tested, {tested - failed} "
             f"borne out, {failed} not")
    return 1 if failed else 0


def cluster_flag(args) -> str | None:
    """``--cluster``'s address (None: the local pool); with ``--workers`` too, refused."""
    if args.cluster and args.workers is not None:
        raise CommandError("--workers is the local pool's; with --cluster the cluster's "
                           "workers play the games: give one or the other")
    return args.cluster


def lab_content(args, command: str):
    """The content for a lab command (``simulate``, ``sweep``), its diagnostics shown, with
    ``args.game`` in it; None (after an error line) when the content has errors."""
    from .content import load_content

    content, diags = load_content(Path(args.content))
    show_diagnostics(diags)
    if diags.errors:
        log.error(f"{command} stopped: the content has errors (see above)")
        return None
    slugs = [g.slug for g in content.games]
    if args.game not in slugs:
        raise no_such_game(args.game, slugs)
    return content


def cmd_simulate(args) -> int:
    from .lab.connect import connect
    from .lab.simulate import simulate
    from .lab.text import report_text, to_json

    content = lab_content(args, "simulate")
    if content is None:
        return 1
    require_counts(args, "--games", "--search-games", "--workers")
    if args.precision is not None and not 0 < args.precision <= 100:
        raise CommandError("--precision is an interval's width in points, more than 0 and at "
                           "most 100")
    precision = args.precision / 100 if args.precision is not None else None
    bots = [b.strip() for b in args.bots.split(",") if b.strip()] if args.bots else None
    budgets = None
    if args.trace_budgets is not None or args.skill_trace:
        from .lab.simulate import TRACE_BUDGETS
        text = [b.strip() for b in (args.trace_budgets or "").split(",") if b.strip()]
        if not all(b.isdigit() and int(b) >= 1 for b in text) or (text and len(set(text)) < 2):
            raise CommandError("--trace-budgets takes two or more whole numbers of rollouts, "
                               "each 1 or more: 1,2,4,8")
        budgets = sorted({int(b) for b in text}) if text else list(TRACE_BUDGETS)
    game = content.game(args.game)
    with connect(cluster_flag(args), args.workers) as executor:
        if args.games is None and bots is None and args.search_games is None:
            # the books' figures, as every rulebook and game page prints them
            from .lab.simulate import PRECISION, book_report
            report = book_report(game, seed=args.seed, per_option=not args.no_options,
                                 precision=precision or PRECISION, executor=executor)
        else:
            report = simulate(game, games=args.games or 2000, bots=bots, seed=args.seed,
                              per_option=not args.no_options, search_games=args.search_games,
                              precision=precision, executor=executor)
        if budgets is not None:
            from .lab.simulate import skill_trace
            report["skill_trace"] = skill_trace(
                game, budgets, games=args.search_games or min(args.games or 200, 200),
                seed=args.seed, executor=executor)
    print(to_json(report) if args.json else report_text(report))
    return 0


def cmd_sweep(args) -> int:
    """``warbook sweep GAME --vary OPTION=V1,V2 ...``: the option settings ranked by seat
    edge, draws and length (:mod:`.lab.sweep`); a text table, ``--json``, ``--chart`` an
    SVG, ``--suggest`` the fairest setting's claims for review."""
    from .lab.connect import connect
    from .lab.sweep import (
        MAX_SETS,
        chart_svg,
        parse_vary,
        report_text,
        suggestion,
        sweep,
        to_json,
    )

    content = lab_content(args, "sweep")
    if content is None:
        return 1
    require_counts(args, "--games", "--workers", "--max-sets")
    for flag, path in (("--chart", args.chart), ("--suggest", args.suggest)):
        if path is not None and not Path(path).parent.is_dir():
            raise CommandError(f"{flag} {path}: the folder {Path(path).parent} does not exist")
    game = content.game(args.game)
    vary = parse_vary(game, args.vary or [])
    bots = [b.strip() for b in args.bots.split(",") if b.strip()] if args.bots else None
    with connect(cluster_flag(args), args.workers) as executor:
        report = sweep(game, vary, games=args.games, bots=bots, seed=args.seed,
                       sample=args.sample, cap=args.max_sets if args.max_sets else MAX_SETS,
                       executor=executor)
    # every file whole or not at all: written beside, then moved into place
    for path, text in ((args.chart, chart_svg(report) if args.chart else None),
                       (args.suggest, suggestion(report) if args.suggest else None)):
        if path is not None:
            tmp = Path(f"{path}.tmp-{os.getpid()}")
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, path)
            log.info(f"wrote {path}")
    print(to_json(report) if args.json else report_text(report), end="")
    return 0


def cmd_build(args) -> int:
    """``warbook build``: holds the output's lock from before the check to the end, so that
    a second build into the same output stops at once, naming this one (see ``lock``)."""
    from . import lock

    settings = make_settings(args)
    args.epilogue = NOT_STARTED
    with lock.hold(settings.output, "warbook build"):
        return build_locked(settings, args)


def build_locked(settings, args) -> int:
    from .build import build, up_to_date

    if args.game is None and not args.clean and settings.print_shop is None:
        n = up_to_date(settings, quick=args.quick)
        if n is not None:
            log.info(f"nothing changed since the last build: reused all {n} files in "
                     f"{args.out} (the same inputs passed the check then; --clean rebuilds "
                     f"everything)")
            return 0
    from .check import run_check

    report = run_check(settings.content_root)
    check_faces(report)
    print_report(report)
    if not report.ok:
        log.error("build stopped: the check failed; nothing was written")
        return 1
    args.epilogue = BUILD_STOPPED
    return build(report, settings, game=args.game, reuse=not args.clean, quick=args.quick,
                 cluster=getattr(args, "cluster", None))


def cmd_serve(args) -> int:
    from .serve import serve

    return serve(make_settings(args), port=args.port, paper_from_book=args.paper is None)


def cmd_record(args) -> int:
    from .record import record_bots, record_file, update_file

    root = Path(args.content)
    if not args.update:
        if args.game is None:
            raise CommandError("name a game (warbook record GAME --bots, or warbook record "
                               "GAME FILE), or an example to update (--update FILE)")
        if not args.file and not args.bots:
            raise CommandError("give the example to record (warbook record GAME FILE, a file "
                               "with its setup and decisions) or --bots for a game played by "
                               "the engine's bots")
    args.error_suffix = "; nothing was written"
    if args.update:
        diff = update_file(root, Path(args.update))
        if not diff:
            log.info(f"{args.update}: every expectation still holds; nothing changed")
            return 0
        print(diff, end="")
        log.info(f"rewrote the expectations above in {args.update}, marked as a draft: read "
                 f"the changes against the rules, rewrite any comment that described the "
                 f"old behaviour, then delete its 'draft:' line")
        return 0
    if args.file:
        path = record_file(root, Path(args.file))
    else:
        path = record_bots(root, args.game, args.seed, args.steps)
    log.info(f"wrote {path}: a draft with every step's events and state filled in by the "
             f"engine")
    log.info("it proves nothing until you have read it: check each step against the rules, "
             "write a comment on the steps that matter, then delete its 'draft:' line and run "
             "'warbook check'")
    return 0


def cmd_new(args) -> int:
    from .scaffold import new_example, new_game

    root = Path(args.content)
    if args.what == "game":
        if args.source and (args.engine or args.deck):
            raise CommandError(f"new game: --{'deck' if args.deck else 'engine'} writes a game "
                               f"with an engine of its own; --from copies a game as it is "
                               f"(choose one)")
        written = new_game(root, args.name, source=args.source, engine=args.engine,
                           deck=args.deck)
        folder = root / args.name
        log.info(f"wrote {folder}/ ({len(written)} files) and added '{args.name}' to "
                 f"{root / 'index.yaml'}")
        log.info(f"next: edit {folder}/"
                 + ("cards.csv, engine.py, rules.md and the examples together" if args.deck
                    else "engine.py, rules.md and the examples together" if args.engine
                    else "game.yaml and rules.md")
                 + ", then run 'warbook check'")
    else:
        path = new_example(root, args.name)
        log.info(f"wrote {path}")
        log.info("next: change its setup and steps, then run 'warbook check'")
    return 0


# --------------------------------------------------------------------------- the parser
def option_parsers() -> dict[str, argparse.ArgumentParser]:
    """The flags several commands share, each defined once (argparse parents): ``every``
    (--verbose, --quiet) on every command, ``content`` (--content DIR), and ``output``
    (--out and what the products are rendered with) on ``build`` and ``serve``."""
    every = argparse.ArgumentParser(add_help=False)
    loud = every.add_argument_group("messages").add_mutually_exclusive_group()
    loud.add_argument("-v", "--verbose", action="store_true",
                      help="also show the details (debugging lines)")
    loud.add_argument("-q", "--quiet", action="store_true",
                      help="show only warnings and errors, not the progress")

    content = argparse.ArgumentParser(add_help=False)
    content.add_argument("--content", default=str(find_default(DEFAULT_CONTENT)), metavar="DIR",
                         help="the content folder (default: ./content; where the working "
                              "folder has none, check and build read the checkout's)")

    from .settings import INKS, PAPERS

    output = argparse.ArgumentParser(add_help=False)
    output.add_argument("--out", default=str(find_default(DEFAULT_OUT)), metavar="DIR",
                        help="the output folder (default: ./output)")
    output.add_argument("--paper", choices=tuple(PAPERS), default=None,
                        help="the paper (default: book.paper in index.yaml, else a4)")
    output.add_argument("--ink", choices=INKS, default="full",
                        help="low: outlines and greyscale for the component sheets")
    output.add_argument("--four-colour", action="store_true",
                        help="print the rulebooks' cards with four-colour suits")
    output.add_argument("--site-url", metavar="URL",
                        help="the website's public address, such as https://example.org/rules/ "
                             "(for canonical links, sitemap.xml and preview images)")
    output.add_argument("--print-shop", action="store_true",
                        help="also write print-shop/: every PDF as PDF/X-4, its colours "
                             "separated into CMYK, with the CMYK profile as output intent")
    output.add_argument("--cmyk-profile", metavar="FILE",
                        help="the CMYK ICC profile for --print-shop (default: Ghostscript's "
                             "default_cmyk.icc from Debian's libgs10-common)")
    return {"every": every, "content": content, "output": output}


def parser() -> argparse.ArgumentParser:
    """Every command and its flags (the shared ones from :func:`option_parsers`)."""
    command_line = argparse.ArgumentParser(prog="warbook", description=(
        "Prove card-game rules by replaying their worked examples, and render them "
        "as rulebooks, print-and-play sheets and a website."))
    command_line.add_argument("--version", action="version", version=f"warbook {__version__}")
    sub = command_line.add_subparsers(dest="command", required=True)
    shared = option_parsers()
    every, content, output = shared["every"], shared["content"], shared["output"]

    check = sub.add_parser("check", parents=[every, content],
                       help="load the content and replay every worked example")
    check.add_argument("--json", action="store_true", help="print a machine-readable report")
    check.add_argument("--game", metavar="SLUG", help="check one game only")
    check.add_argument("--balance", action="store_true",
                   help="also test each game's balance claims (balance: in game.yaml) on "
                        "simulated games")
    check.add_argument("--games", type=int, default=None, metavar="N",
                   help="with --balance: games per line-up (default: balance.games, else 2000)")
    check.add_argument("--search-games", type=int, default=None, metavar="N",
                   help="with --balance: games per line-up with the search bot in it "
                        "(default: the smaller of --games and 200)")
    check.add_argument("--workers", type=int, default=None, metavar="N",
                   help="worker processes for simulation (default: every core)")
    check.add_argument("--cluster", default=None, metavar="ADDRESS",
                   help="with --balance: play the games on the workers of the Dask scheduler "
                        "at ADDRESS, such as tcp://10.0.0.5:8786 (docs/balance.md)")
    check.add_argument("--out", default=str(find_default(DEFAULT_OUT)), metavar="DIR",
                   help="the output folder, where the check keeps its cache in .cache/check "
                        "(default: ./output; nothing is kept if the folder does not exist)")
    check.add_argument("--no-cache", action="store_true",
                   help="check everything again, without reading or writing the cache")
    check.set_defaults(func=cmd_check)

    simulate = sub.add_parser("simulate", parents=[every, content],
                       help="play seeded games and report length, draws, cap hits, seat edge "
                            "and skill edge with 95%% intervals")
    simulate.add_argument("game", metavar="GAME", help="the game's slug")
    simulate.add_argument("--games", type=int, default=None, metavar="N",
                   help="games per line-up, every pair of bots (default: the books' figures: "
                        "each line-up until its rates are precise, see --precision)")
    simulate.add_argument("--precision", type=float, default=None, metavar="P",
                   help="play each line-up until every rate's 95%% interval is at most P "
                        "points wide (default 5 for the books' figures), --games at most")
    simulate.add_argument("--bots", default=None, metavar="A,B",
                   help="the bots to play: random, heuristic, search (default: random and "
                        "heuristic where the game has decisions)")
    simulate.add_argument("--seed", type=int, default=0, metavar="S")
    simulate.add_argument("--workers", type=int, default=None, metavar="N",
                   help="worker processes (default: every core); the figures do not change")
    simulate.add_argument("--cluster", default=None, metavar="ADDRESS",
                   help="play the games on the workers of the Dask scheduler at ADDRESS, "
                        "such as tcp://10.0.0.5:8786, instead of this machine's cores; the "
                        "figures do not change (docs/balance.md)")
    simulate.add_argument("--search-games", type=int, default=None, metavar="N",
                   help="games per line-up with the search bot in it (default: the smaller "
                        "of --games and 200)")
    simulate.add_argument("--no-options", action="store_true",
                   help="only the game as printed, not each option value")
    simulate.add_argument("--skill-trace", action="store_true",
                   help="also play the skill trace: search bots of increasing budget, each "
                        "against the one before it (slow; docs/balance.md)")
    simulate.add_argument("--trace-budgets", default=None, metavar="N,M,...",
                   help="the skill trace's budgets, rollouts per candidate (default 1,2,4,8)")
    simulate.add_argument("--json", action="store_true", help="print the figures as JSON")
    simulate.set_defaults(func=cmd_simulate)

    build = sub.add_parser("build", parents=[every, content, output],
                       help="check, then render everything into the output folder")
    build.add_argument("--game", metavar="SLUG",
                   help="build one game only (its rulebook, components and site page)")
    build.add_argument("--clean", action="store_true",
                   help="render everything again instead of reusing unchanged outputs")
    build.add_argument("--quick", action="store_true",
                   help="play no balance games: a game whose figures are out of date prints "
                        "its previous ones, marked (a plain build measures them again)")
    build.add_argument("--cluster", default=None, metavar="ADDRESS",
                   help="measure out-of-date balance figures on the workers of the Dask "
                        "scheduler at ADDRESS; the figures do not change (docs/balance.md)")
    build.set_defaults(func=cmd_build)

    sweep = sub.add_parser("sweep", parents=[every, content],
                           help="play every combination of some option values and rank the "
                                "settings by seat edge, draws and length, with 95%% intervals")
    sweep.add_argument("game", metavar="GAME", help="the game's slug")
    sweep.add_argument("--vary", action="append", metavar="OPTION=V1,V2",
                       help="an option and the values to try (repeat for more options)")
    sweep.add_argument("--games", type=int, default=1000, metavar="N",
                       help="games per setting and bot (default 1000)")
    sweep.add_argument("--bots", default=None, metavar="A,B",
                       help="the bot in every seat (default: heuristic where the game has "
                            "decisions, else random); with several, a setting counts its "
                            "worst")
    sweep.add_argument("--seed", type=int, default=0, metavar="S")
    sweep.add_argument("--sample", type=int, default=None, metavar="K",
                       help="play K settings of the grid drawn with the seed, not all")
    sweep.add_argument("--max-sets", type=int, default=64, metavar="M",
                       help="the largest grid played whole without --sample (default 64)")
    sweep.add_argument("--workers", type=int, default=None, metavar="N",
                       help="worker processes (default: every core); the figures do not change")
    sweep.add_argument("--cluster", default=None, metavar="ADDRESS",
                       help="play on the workers of the Dask scheduler at ADDRESS; the "
                            "figures do not change (docs/balance.md)")
    sweep.add_argument("--json", action="store_true", help="print the ranking as JSON")
    sweep.add_argument("--chart", default=None, metavar="FILE.svg",
                       help="also draw the seat edge of each setting, with its interval")
    sweep.add_argument("--suggest", default=None, metavar="FILE.yaml",
                       help="write balance claims the fairest setting supports, to review")
    sweep.set_defaults(func=cmd_sweep)

    serve = sub.add_parser("serve", parents=[every, content, output],
                       help="build, serve on 127.0.0.1, rebuild and reload the browser on "
                            "every save")
    serve.add_argument("--port", type=int, default=8000, metavar="N",
                   help="the port on 127.0.0.1 (default 8000; 0 picks a free one)")
    serve.set_defaults(func=cmd_serve)

    record = sub.add_parser("record", parents=[every, content],
                       help="fill in an example's expectations from the engine, as a draft "
                            "to review")
    record.add_argument("game", nargs="?", metavar="GAME", help="the game's slug")
    record.add_argument("file", nargs="?", metavar="FILE",
                   help="an example file with its setup and decisions (filled in in place)")
    record.add_argument("--bots", action="store_true",
                   help="record a game played by the engine's bots, as the next example")
    record.add_argument("--seed", type=int, default=1,
                        help="the bots' and chance's seed (default 1)")
    record.add_argument("--steps", type=int, default=6, metavar="N",
                   help="how many steps of the bot game to record (default 6)")
    record.add_argument("--update", metavar="FILE",
                   help="rewrite an existing example's expectations after a rules change, "
                        "and show what changed")
    record.set_defaults(func=cmd_record)

    new = sub.add_parser("new", help="start a new game or a new worked example")
    new_what = new.add_subparsers(dest="what", required=True)
    new_game = new_what.add_parser("game", parents=[every, content],
                          help="write a new game folder that passes check and build")
    new_game.add_argument("name", metavar="SLUG", help="the game's folder name, such as my-war")
    new_game.add_argument("--from", dest="source", metavar="SLUG",
                    help="copy this game's folder instead of starting from classic War")
    new_game.add_argument("--engine", action="store_true",
                          help="start a game with an engine of its own (engine.py: a small "
                               "shedding game to change into yours) instead of War's")
    new_game.add_argument("--deck", action="store_true",
                          help="like --engine, with cards of the game's own (cards.csv: a row "
                               "per card, its fields and count; docs/decks.md) instead of the "
                               "French 52")
    # new writes into the working folder's content/ (made if need be), never into the
    # checkout's, as check and build may read it when the working folder has none
    new_game.set_defaults(func=cmd_new, content=str(Path.cwd() / DEFAULT_CONTENT))
    new_example = new_what.add_parser("example", parents=[every, content],
                          help="write the next numbered example of a game")
    new_example.add_argument("name", metavar="GAME", help="the game's slug")
    new_example.set_defaults(func=cmd_new, content=str(Path.cwd() / DEFAULT_CONTENT))
    return command_line


# --------------------------------------------------------------------------- the one root
def error_text(e: WarbookError) -> str:
    """An error as shown: a located one (a content ``Diagnostic``, a build error that
    carries one) as it is, ``path:line:col: error: ...``; any other as ``error: ...``. An
    internal error says so (once: a forked stage's message may say it already)."""
    from .diagnostics import Diagnostic

    if isinstance(e, Diagnostic):
        return e.format()
    if getattr(e, "located", False):
        return str(e)
    if isinstance(e, InternalError) and "internal error" not in str(e):
        return f"internal error: {e}"
    return f"error: {e}"


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    from . import logs

    logs.install(logs.LEVELS["verbose" if args.verbose else "quiet" if args.quiet
                             else "default"])
    previous = sys.unraisablehook
    sys.unraisablehook = keep_interrupts
    try:
        return run(args)
    finally:
        sys.unraisablehook = previous
        logs.uninstall()


def keep_interrupts(unraisable) -> None:
    """Python drops an exception raised in a ``__del__`` with an "Exception ignored"
    traceback, so a Ctrl-C (or serve's SIGTERM) that lands while the garbage collector
    runs one mid-build would be lost: the build would go on, the server serve on. Such an
    interrupt is sent again instead, from another thread a moment later, so that it lands
    once the finalizer is done (sent from here, it would be raised inside this hook, and
    lost again); anything else is printed as Python does."""
    if unraisable.exc_type is not None and issubclass(unraisable.exc_type, KeyboardInterrupt):
        import signal
        import threading

        again = threading.Timer(0.02, os.kill, (os.getpid(), signal.SIGINT))
        again.daemon = True
        again.start()
        return
    sys.__unraisablehook__(unraisable)


def run(args) -> int:
    """Run the parsed command; every error ends here, as the module's docstring says."""
    from . import machine

    log.debug(f"warbook {__version__}: {args.command}")
    machine.track_writes()  # so that a full disk names the file being written
    if getattr(args, "out", None):
        from . import cache

        cache.keep_in(args.out)  # the conformance kit's verdicts, beside the output
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except WarbookError as e:
        show_diagnostics(getattr(e, "diagnostics", None) or [])
        print(error_text(e) + getattr(args, "error_suffix", ""), file=sys.stderr)
        if e.exit_code == 2:
            print(BUG_HINT, file=sys.stderr)
        if getattr(args, "epilogue", None):
            print(args.epilogue, file=sys.stderr)
        if os.environ.get("WARBOOK_DEBUG") and e.exit_code == 2:
            raise
        return e.exit_code
    except Exception as e:
        from . import faults

        fault = faults.from_exception(e)
        if fault is not None:  # raised by a game's own code: the designer's to fix
            print(str(fault), file=sys.stderr)
            if os.environ.get("WARBOOK_DEBUG"):
                raise
            return 1
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
