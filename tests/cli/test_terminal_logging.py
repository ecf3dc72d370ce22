"""The one logging handler (``builder/logs.py``) and what ``serve`` lets through it.

Progress goes to standard output and problems to standard error, each message as it was
logged; the streams are looked up when a line is written (a redirect made after the start
gets every line). ``serve`` quiets the build it runs by raising loggers' levels for the
pass, never lowering them, and shows of the build's progress only its summary, indented.
"""

from __future__ import annotations

import contextlib
import io
import logging

from builder import logs, serve


@contextlib.contextmanager
def captured():
    """The handler installed at the default level; standard output and error captured
    (inside the test: pytest sets its own streams for each phase)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        logs.install(logs.LEVELS["default"])
        try:
            yield out, err
        finally:
            logs.uninstall()


def test_progress_to_stdout_problems_to_stderr_as_written():
    with captured() as (out, err):
        logging.getLogger("warbook.build").info("wrote pdf/war-rules.pdf (12 pages)")
        logging.getLogger("warbook.render.pnp").debug("a detail")
        logging.getLogger("warbook.check").warning("x.yaml:1:1: warning: odd")
        logging.getLogger("warbook.cli").error("x.yaml:2:3: error: wrong")
    assert out.getvalue() == "wrote pdf/war-rules.pdf (12 pages)\n"
    assert err.getvalue() == "x.yaml:1:1: warning: odd\nx.yaml:2:3: error: wrong\n"


def test_uninstall_leaves_the_logger_as_python_made_it():
    with captured():
        pass
    logger = logging.getLogger("warbook")
    assert logger.level == logging.NOTSET and logger.propagate
    assert not [h for h in logger.handlers if isinstance(h, logs.TerminalHandler)]


def test_serve_shows_the_builds_summary_only_indented():
    build, book = logging.getLogger("warbook.build"), logging.getLogger("warbook.render.book")
    with captured() as (out, err):
        with serve.quieter(serve.REST_PASS, serve.BuildSummary()):
            build.info("wrote site/index.html")
            book.info("wrote pdf/war-rules.pdf (12 pages)")
            build.info("reused 3 of 4 parts unchanged (9 files): deck")
            build.info("built book:war into output (40 files in place) in 1.2 s")
            build.warning("a warning the build gives")
            logging.getLogger("warbook.serve").info("changed: war/rules.md")
        build.info("wrote after")  # the levels and the filter are back as they were
    assert out.getvalue().splitlines() == [
        "  reused 3 of 4 parts unchanged (9 files): deck",
        "  built book:war into output (40 files in place) in 1.2 s",
        "changed: war/rules.md",
        "wrote after"]
    assert err.getvalue() == "a warning the build gives\n"
    assert book.level == logging.NOTSET


def test_serve_never_lowers_a_level_quiet_asked_for():
    with captured() as (out, _):
        logs.install(logs.LEVELS["quiet"])
        with serve.quieter(serve.REST_PASS, serve.BuildSummary()):
            logging.getLogger("warbook.build").info("built everything")
    assert out.getvalue() == ""


def test_verbose_sees_the_whole_build_under_serve():
    with captured() as (out, _):
        logs.install(logs.LEVELS["verbose"])
        with serve.quieter(serve.SITE_PASS):
            logging.getLogger("warbook.render.book").info("wrote pdf/war-rules.pdf (12 pages)")
    assert out.getvalue() == "wrote pdf/war-rules.pdf (12 pages)\n"
