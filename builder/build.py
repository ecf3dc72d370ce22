"""Stage 3: render a passing check into the output folder.

Everything is rendered into a staging folder beside the output first; only when every file
has been written is the staging folder completed with the previous output's other files and
exchanged with the output folder in one atomic step (:func:`publish`). A build that fails
or is interrupted, at any moment, therefore leaves the previous output whole, and the next
build removes what it left behind (:func:`clean_leftovers`).
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import signal
import sys
import time
import traceback
from pathlib import Path

from .errors import WarbookError
from . import children as child_processes
from . import lock, machine
from .check import Report
from .diagnostics import Diagnostic
from .render.errors import RenderError
from .render.templating import overrides_of


class BuildError(WarbookError):
    """The build failed and published nothing; the message says why (shown by the CLI).
    ``internal`` marks a bug in warbook (an unexpected exception in a forked stage), which
    the CLI reports like one in its own process: as an internal error, exit status 2."""

    def __init__(self, message: str, internal: bool = False, located: bool = False):
        super().__init__(message)
        self.internal = internal
        #: the message is a located diagnostic (``path:line:col: error: ...``), shown as is
        self.located = located


def staging_folder(out: Path) -> Path:
    """This process's staging folder for ``out``: ``.<name>.staging-<pid>`` beside it."""
    out = output_folder(out)
    return out.parent / f".{out.name}.staging-{os.getpid()}"


def _staging(out: Path) -> Path:
    """A fresh staging folder beside ``out`` (``.<name>.staging-<pid>``), after cleaning up
    whatever an earlier, interrupted build left there."""
    machine.naming(staging_folder(out), out)  # a failure in it names the output's path
    out = output_folder(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    clean_leftovers(out)
    d = staging_folder(out)
    if d.exists():
        shutil.rmtree(d)
    d.mkdir()
    return d


def output_folder(out: Path) -> Path:
    """The folder the output really is (a link to a folder is followed, so the link stays)."""
    return out.resolve() if out.is_symlink() else out


def _test_point(name: str) -> None:
    """For the interrupted-build tests only: WARBOOK_TEST_KILL_AT=<name> kills this process
    (SIGKILL, which nothing can catch) when publication reaches the point ``name``."""
    if os.environ.get("WARBOOK_TEST_KILL_AT") == name:
        os.kill(os.getpid(), signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def clean_leftovers(out: Path) -> list[Path]:
    """Remove what interrupted builds left, and put the previous output back if a build was
    stopped between moving it aside and moving the new one in (only where the exchange of
    two folders in one step is not available): ``.<name>.staging-<pid>`` and
    ``.<name>.old-<pid>`` beside ``out`` and ``.<dir>.old-<pid>`` inside it (left by
    earlier versions), of processes that have ended. Returns what was removed."""
    removed: list[Path] = []
    pattern = re.compile(rf"^\.{re.escape(out.name)}\.(staging|old)-(\d+)$")
    if out.parent.is_dir():
        for d in sorted(out.parent.iterdir()):
            m = pattern.match(d.name)
            if not m or _alive(int(m.group(2))) and int(m.group(2)) != os.getpid():
                continue
            if m.group(1) == "old" and not out.exists():
                os.rename(d, out)  # the previous output, moved aside by a stopped build
                continue
            shutil.rmtree(d, ignore_errors=True)
            removed.append(d)
    if out.is_dir():
        for d in out.iterdir():
            m = re.match(r"^\..+\.old-(\d+)$", d.name)
            if m and d.is_dir() and not _alive(int(m.group(1))):
                shutil.rmtree(d, ignore_errors=True)
                removed.append(d)
    return removed


def publish(staging: Path, out: Path) -> list[Path]:
    """Make the staged files the output, all at once. The staging folder is first completed
    into a whole output: every file of the previous output the build did not write is
    linked into it (hard links: no copy, and the old files are never written to), except
    inside the folders named in a ``.replace-dirs`` list, which the new build replaces
    whole. Then the staging folder and ``out`` exchange places in one atomic step, so that
    at every moment, a kill included, ``out`` is the whole previous output or the whole
    new one; the previous output is removed last. Returns the paths of the files the build
    wrote, as they are named in ``out``."""
    out = output_folder(out)
    whole = set()
    marker = staging / ".replace-dirs"
    if marker.exists():
        whole = {line.strip() for line in marker.read_text().splitlines() if line.strip()}
        marker.unlink()
    written = sorted(out / p.relative_to(staging) for p in staging.rglob("*") if not p.is_dir())
    _test_point("staged")
    if out.is_dir():
        complete_from(out, staging, whole)
    _test_point("completed")
    swap_in(staging, out)
    return written


def complete_from(previous: Path, staging: Path, whole: set[str]) -> None:
    """Link into ``staging`` every file of ``previous`` it lacks (not the folders in
    ``whole``, and not leftovers of interrupted builds)."""
    count = 0
    for folder, dirs, files in os.walk(previous):
        rel = Path(folder).relative_to(previous)
        if rel == Path("."):
            dirs[:] = [d for d in dirs if d not in whole and not re.match(r"^\..+\.old-\d+$", d)]
        for name in files:
            src, dst = Path(folder) / name, staging / rel / name
            if rel == Path(".") and name in whole or dst.exists() or dst.is_symlink():
                continue
            dst.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(src, dst, follow_symlinks=False)
            except OSError:  # another file system, or no hard links: copy
                shutil.copy2(src, dst, follow_symlinks=False)
            count += 1
            if count == 10:
                _test_point("completing")


def swap_in(staging: Path, out: Path) -> None:
    """Put the complete ``staging`` folder in the place of ``out`` and remove the previous
    output: one atomic exchange where the system has it (Linux renameat2), else two
    renames, with the previous output put back by the next build if one is stopped in
    between (see :func:`clean_leftovers`)."""
    if not out.exists():
        os.rename(staging, out)
        _test_point("swapped")
        return
    if _exchange(staging, out):
        _test_point("swapped")
        shutil.rmtree(staging, ignore_errors=True)  # now the previous output
        return
    aside = out.parent / f".{out.name}.old-{os.getpid()}"
    os.rename(out, aside)
    _test_point("moved-aside")
    os.rename(staging, out)
    _test_point("swapped")
    shutil.rmtree(aside, ignore_errors=True)


def _exchange(a: Path, b: Path) -> bool:
    """Exchange two folders in one atomic step (Linux renameat2 RENAME_EXCHANGE); False
    where the system or the file system cannot (then nothing was changed)."""
    if os.environ.get("WARBOOK_TEST_NO_EXCHANGE") or not sys.platform.startswith("linux"):
        return False
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    renameat2 = getattr(libc, "renameat2", None)
    if renameat2 is None:
        return False
    at_fdcwd, rename_exchange = -100, 2
    done = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange)
    if done == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):  # not on this file system
        return False
    # the output cannot be replaced (busy, immutable, read-only): the two renames could not
    # either; say why, naming the output
    raise OSError(err, os.strerror(err), str(b))


def build(report: Report, out: Path, paper: str = "a4", game: str | None = None,
          ink: str = "full", quiet: bool = False, four_colour: bool = False,
          reuse: bool = True, site_only: bool = False, site_url: str | None = None,
          print_shop: bytes | None = None) -> int:
    """Render everything into ``out`` (see :func:`render_into`), holding the output's lock
    (:mod:`.lock`); returns 0. Raises :class:`BuildError` (and leaves ``out`` as it was)
    when any stage fails, when another live process is building into ``out``, and when the
    machine fails (a full disk, a read-only, immutable or busy folder, a file missing or
    refused: :mod:`.machine` names the cause and the path as the user knows it)."""
    out = Path(out)
    machine.track_writes()
    try:
        with lock.hold(out, "warbook build"):
            return render_into(report, out, paper=paper, game=game, ink=ink, quiet=quiet,
                               four_colour=four_colour, reuse=reuse, site_only=site_only,
                               site_url=site_url, print_shop=print_shop)
    except lock.Busy as e:
        raise BuildError(str(e)) from None
    except lock.CannotLock as e:
        raise BuildError(f"cannot lock the output {e.out}: {machine.describe(e.error)}") from None
    except OSError as e:
        if not machine.is_machine(e):
            raise
        raise BuildError(machine.describe(e)) from None


def render_into(report: Report, out: Path, paper: str = "a4", game: str | None = None,
                ink: str = "full", quiet: bool = False, four_colour: bool = False,
                reuse: bool = True, site_only: bool = False, site_url: str | None = None,
                print_shop: bytes | None = None) -> int:
    """Render everything into ``out``; returns 0. Raises :class:`BuildError` (and leaves
    ``out`` as it was) when any stage fails, in this process or a forked one.

    With ``reuse`` (the default), every unit of the build whose inputs did not change since
    the previous build into ``out`` (see :mod:`.incremental`) is carried over instead of
    rendered again. ``game`` renders that game's rulebook, components and the website;
    the compendium and the deck are carried over from the previous output as they are.
    ``site_only`` renders the website alone and carries everything else over (``serve``
    shows the new page first, then builds the rest). ``print_shop`` (a CMYK ICC profile)
    also writes ``print-shop/``: a PDF/X-4 CMYK copy of every PDF (see ``printshop``); a
    build without it leaves no ``print-shop/`` behind, so no copy outlives its PDF."""
    from . import incremental as inc
    from .render import fonts
    from .render.book.glyphs import face
    from .render import pnp
    from .settings import PAPERS, Settings
    from .render.site import pages as site

    fonts.use(report.content.book.fonts)   # the content's own typefaces, if it has them
    face.cache_clear()
    for path in fonts.replaced_files():  # still there since the check? (OSError if not)
        with open(path, "rb"):
            pass

    def say(msg: str) -> None:
        if not quiet:
            print(msg)

    games = report.games
    if game is not None:
        games = [g for g in games if g.game.slug == game]
        if not games:
            known = ", ".join(g.game.slug for g in report.games)
            raise BuildError(f"no game '{game}' (games: {known})")
    out = Path(out)
    inputs = inc.Inputs(report.content.root, options_of(paper, ink, four_colour, site_url))
    old = inc.Manifest.read(out) if reuse else inc.Manifest()
    new = inc.Manifest(check=dict(old.check))
    slugs = [g.game.slug for g in games]
    units = ["site"] if site_only else inc.units_for(slugs, whole=game is None)
    keys = {u: inputs.key(u) for u in units if u != "site"}
    reused = {u for u in keys if reuse and old.intact(u, keys[u], out)}
    if game is not None or site_only:  # carried over as they are, keys and all
        for u, entry in old.units.items():
            if u not in keys and old.intact(u, entry.get("key"), out):
                new.units[u] = entry
    from .lab.figures import figures
    for gr in report.games:  # the website shows every game: played once, then cached
        try:
            gr.figures = figures(gr.game, say=say)
        except Exception as e:  # noqa: BLE001 - a designer's engine that cannot be simulated
            raise BuildError(f"{gr.game.slug}: the balance lab could not play the game on its "
                             f"engine: {type(e).__name__}: {e}") from None
    staging = _staging(out)
    t0 = time.perf_counter()
    children: list[Forked] = []
    try:
        pdf_dir = staging / "pdf"
        pdf_dir.mkdir()
        carried = [u for u in units if u in reused] + [u for u in new.units
                                                       if u not in units and u != "site"]
        for u in carried:
            inc.link_into(out, staging, (old.units[u].get("files") or {}).keys())
        draw = [gr for gr in games if f"components:{gr.game.slug}" in keys
                and f"components:{gr.game.slug}" not in reused]
        deck = "deck" in keys and "deck" not in reused
        if draw or deck:
            # The component sheets need nothing from the rulebooks: they are drawn in a
            # child process while the rulebooks are laid out.
            settings = Settings(content_root=Path(report.content.root), output=out,
                                paper=PAPERS[paper], ink=ink)
            children.append(Forked("component sheets", lambda: pnp.render_all(
                report, draw, staging, settings, whole=deck)))
        done_books = {gr.game.slug: _book_info(old.units[f"book:{gr.game.slug}"], pdf_dir)
                      for gr in games if f"book:{gr.game.slug}" in reused}
        compendium = "compendium" in keys and "compendium" not in reused
        infos = {}
        if not site_only:
            infos = render_pdfs(report, games, pdf_dir, paper=paper, four_colour=four_colour,
                                compendium=compendium, say=say, children=children,
                                done=done_books)
        for child in children:
            child.join()
        if print_shop is not None:
            from .render.printshop import separate_all

            separate_all(pdf_dir, staging / "print-shop", print_shop, say=say)
        keys["site"] = inputs.key("site", pdf_stamps(pdf_dir))
        if reuse and old.intact("site", keys["site"], out):
            reused.add("site")
            inc.link_into(out, staging, old.units["site"]["files"].keys())
        site_note = ""
        if "site" in reused:
            site_note = "site/ reused"
        else:  # the website links the PDFs that now exist
            site.render_site(report, staging, say=say, site_url=site_url)
            if reuse:
                kept, rewritten = inc.keep_unchanged(out, staging, "site")
                site_note = f"site/: {rewritten} files rewritten, {kept} unchanged"
        with open(staging / ".replace-dirs", "a") as f:
            f.write("site\nprint-shop\n")
        for u in units:
            entry = {"key": keys[u], "files": inc.stat_files(staging, inc.unit_files(u, staging))}
            if u.startswith("book:"):
                info = infos[u.partition(":")[2]]
                entry["book"] = {"title": info.title, "count": info.count, "pages": info.pages}
            new.units[u] = entry
        new.check = {"ok": True, "games": [g.game.slug for g in report.games]}
        new.write(staging)
        publish(staging, out)
    except (RenderError, Diagnostic) as e:  # a template's fault is a located Diagnostic
        raise BuildError(str(e), located=isinstance(e, Diagnostic)) from None
    finally:
        for child in children:
            child.kill()
        shutil.rmtree(staging, ignore_errors=True)
    rebuilt = [u for u in units if u not in reused]
    if reused:
        n = sum(len(old.units[u].get("files") or {}) for u in reused)
        say(f"reused {len(reused)} of {len(units)} parts unchanged ({n} files): "
            f"{', '.join(sorted(reused))}")
    if site_note:
        say(site_note)
    total = sum(len(e.get("files") or {}) for e in new.units.values())
    say(f"built {', '.join(rebuilt) or 'nothing'} into {out} "
        f"({total} files in place) in {time.perf_counter() - t0:.1f} s")
    return 0


def options_of(paper: str | None, ink: str, four_colour: bool,
               site_url: str | None = None) -> dict:
    """The build options that change what is rendered (they are part of the keys)."""
    return {"paper": paper, "ink": ink, "four_colour": bool(four_colour), "site_url": site_url}


def pdf_stamps(pdf_dir: Path) -> list[str]:
    """The PDFs the website ships (``site/pdf`` links them), each by name, size and time:
    a rulebook written again is a new website, one carried over (a hard link) is not."""
    stamps = []
    for p in sorted(pdf_dir.glob("*.pdf")):
        st = p.stat()
        stamps.append(f"{p.name}:{st.st_size}:{st.st_mtime_ns}")
    return stamps


def _book_info(entry: dict, pdf_dir: Path):
    from .render.book.pdf import BookInfo

    b = entry["book"]
    slug = next(iter(entry["files"])).split("/")[-1][:-len("-rules.pdf")]
    return BookInfo(slug=slug, title=b["title"], path=pdf_dir / f"{slug}-rules.pdf",
                    count=b["count"], pages=b["pages"])


def index_paper(content_root: Path) -> str | None:
    """``book.paper`` of the content's ``index.yaml`` (a4 when it says none); None when
    the file cannot be read as YAML (then the check will say why)."""
    import yaml

    try:
        data = yaml.safe_load((Path(content_root) / "index.yaml").read_text(encoding="utf-8"))
    except FileNotFoundError:
        return "a4"
    except (OSError, ValueError, yaml.YAMLError):
        return None
    book = data.get("book") if isinstance(data, dict) else None
    paper = book.get("paper", "a4") if isinstance(book, dict) else "a4"
    return paper if isinstance(paper, str) else None


def up_to_date(content_root: Path, out: Path, paper: str | None, ink: str = "full",
               four_colour: bool = False, site_url: str | None = None) -> int | None:
    """If the previous whole build into ``out`` was made from exactly these inputs and
    its files are untouched, the number of its files (nothing needs doing, not even the
    check: the same inputs passed it); else None. Cheap: it hashes the inputs and stats
    the outputs, and loads no renderer."""
    from . import incremental as inc

    old = inc.Manifest.read(out)
    if not old.units or not old.check.get("ok"):
        return None
    paper = paper or index_paper(content_root)
    if paper is None:
        return None
    inputs = inc.Inputs(content_root, options_of(paper, ink, four_colour, site_url))
    if sorted(old.check.get("games") or []) != inputs.slugs:
        return None
    units = inc.units_for(inputs.slugs, whole=True)
    if set(units) != set(old.units):
        return None
    pdfs = pdf_stamps(Path(out) / "pdf")
    for u in units:
        if not old.intact(u, inputs.key(u, pdfs), out):
            return None
    return sum(len(old.units[u].get("files") or {}) for u in units)


def book_cost(gr) -> int:
    """A rulebook's cost to lay out, as a rank: its worked examples' steps (each a diagram
    and a few paragraphs) dominate; the rules add about as much as a dozen steps."""
    return 12 + sum(1 + len(r.steps) for r in gr.replays)


def render_pdfs(report: Report, games: list, pdf_dir: Path, *, paper: str = "a4",
                four_colour: bool = False, compendium: bool = True, say=print,
                children: list | None = None, done: dict | None = None) -> dict:
    """Write ``<slug>-rules.pdf`` for each game and, with ``compendium``, bind
    ``compendium.pdf`` from them. ``done``: the rulebooks already in ``pdf_dir`` (slug ->
    :class:`BookInfo`, carried over from the previous build), not written again. Returns
    every game's BookInfo by slug.

    The rulebooks are shared between this process and one forked child, so both cores
    work: each takes the next book from one queue, the costliest first, writes its HTML,
    lays it out and writes it, until none is left; so both finish within a book of each
    other whatever the books cost. This process first lays out the compendium's front
    matter (its page numbers are filled in when the parts are bound)."""
    import multiprocessing

    from .render.book.pdf import BookRenderer

    books = BookRenderer(paper=paper, four_colour=four_colour,
                         templates=overrides_of(report.content.root),
                         accent=report.content.book.accent, logo=report.content.book.logo)
    done = done or {}
    if not compendium and len(done) == len(games):
        return dict(done)
    order = sorted((gr for gr in games if gr.game.slug not in done), key=lambda gr: -book_cost(gr))
    next_book = multiprocessing.get_context("fork").Value("i", 0)

    def take():
        with next_book.get_lock():
            i = next_book.value
            next_book.value += 1
        return order[i] if i < len(order) else None

    def write() -> list:
        infos = []
        while (gr := take()) is not None:
            g, html = books.book_html(gr)
            info = books.write_book(g, html, pdf_dir / f"{g.slug}-rules.pdf")
            say(f"wrote pdf/{info.path.name} ({info.count} pages)")
            infos.append(info)
        return infos

    child = Forked("rulebooks", write) if len(order) > 1 else None
    if child is not None and children is not None:
        children.append(child)
    front = None
    try:
        if compendium:
            views = [books.view(gr) for gr in games]
            front = books.layout_front(books.front_html(views, report.content.intro,
                                                         report.content.book))
        infos = write()
        infos += child.join() if child is not None else []
    finally:
        if child is not None:
            child.kill()
    by_slug = {i.slug: i for i in infos}
    by_slug.update(done)
    infos = [by_slug[gr.game.slug] for gr in games]
    if front is not None:
        n = books.bind_compendium(front, infos, pdf_dir / "compendium.pdf")
        say(f"wrote pdf/compendium.pdf ({n} pages)")
    return by_slug


class Forked:
    """A piece of the build run in a forked child process (on the machine's other core).
    Forking shares what the parent has loaded (fonts, card images, templates) without
    copying or pickling it. ``join`` returns what the work returned (pickled back through a
    pipe).

    The child's exit status says whether it succeeded; the pipe carries its result, or the
    message of the error that stopped it. A child that exits with any status but 0 (an
    error, ``sys.exit(n)``, a signal), or that ends without sending a result, makes ``join``
    raise :class:`BuildError`, so the build fails and publishes nothing."""

    def __init__(self, name: str, work):
        import multiprocessing

        self.name = name
        ctx = multiprocessing.get_context("fork")
        self._receive, send = ctx.Pipe(duplex=False)
        self.process = ctx.Process(target=_run_child, args=(work, send, os.getpid()),
                                   name=name)
        self.process.start()
        send.close()
        self._result = None
        self._done = False

    def join(self):
        if not self._done:
            try:
                sent = self._receive.recv()
            except EOFError:  # the child ended before sending anything
                sent = None
            self.process.join()
            self._done = True
            code = self.process.exitcode
            if code != 0 or sent is None:
                if sent is not None and sent[0] == "located":
                    raise BuildError(sent[1], located=True)
                if sent is not None and sent[0] in ("error", "internal"):
                    raise BuildError(f"{self.name}: {sent[1]}", internal=sent[0] == "internal")
                if code is not None and code < 0:
                    why = f"stopped by signal {-code}"
                else:
                    why = f"the process ended with exit status {code} and sent no result"
                raise BuildError(f"{self.name}: {why}")
            self._result = sent[1]
        return self._result

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
            self.process.join()


def _run_child(work, send, parent: int | None = None) -> None:
    """The forked child: run ``work`` and send ``("result", value)``; on an error send
    ``("error", message)`` (``("internal", message)`` for a bug rather than a render error
    or a failure of the machine) and exit with status 1, with no traceback (the parent
    raises the message; WARBOOK_DEBUG=1 prints the traceback too). ``sys.exit`` in the
    work ends the child with its status and sends nothing. The child ends with ``parent``
    (killed with it, even by SIGKILL) and does not hold the parent's output lock."""
    if parent is not None:
        child_processes.die_with_parent(parent)
    lock.close_inherited()
    try:
        result = work()
    except KeyboardInterrupt:  # the parent is interrupted too, and says so
        os._exit(130)
    except Exception as e:  # noqa: BLE001 - whatever stops the child fails the build
        if isinstance(e, Diagnostic) or getattr(e, "located", False):
            kind, message = "located", str(e)
        elif isinstance(e, (BuildError, RenderError)) and not getattr(e, "internal", False):
            kind, message = "error", str(e)
        elif machine.is_machine(e):
            kind, message = "error", machine.describe(e)
        else:
            kind, message = "internal", f"internal error: {type(e).__name__}: {e}"
        if os.environ.get("WARBOOK_DEBUG"):
            traceback.print_exc()
        send.send((kind, message))
        send.close()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(1)
    send.send(("result", result))
    send.close()
    sys.stdout.flush()
    sys.stderr.flush()
