"""How warbook's messages reach the terminal: one handler on the ``warbook`` logger.

Every module logs to ``logging.getLogger("warbook.<module>")``: progress as ``info`` (the
words a user reads: "wrote pdf/war-rules.pdf (12 pages)"), detail for debugging as
``debug``, problems as ``warning`` and ``error``. Only the command line installs the handler
(:func:`install` before a command, :func:`uninstall` after it): information goes to
standard output, warnings and errors to standard error, each message as it is, with
nothing added. ``--verbose`` shows the debug lines too, ``--quiet`` only the warnings and
errors.

The handler looks up ``sys.stdout``/``sys.stderr`` when it writes, not when it is made, so
output redirected after the start (a test's capture, ``contextlib.redirect_stdout``) gets
every message. Used as a library, without :func:`install`, warbook prints nothing but
what Python's logging shows by default (warnings and errors).
"""

from __future__ import annotations

import logging
import sys

#: the logger every warbook module's logger descends from
ROOT = "warbook"

#: the level of each verbosity the command line offers
LEVELS = {"quiet": logging.WARNING, "default": logging.INFO, "verbose": logging.DEBUG}


class TerminalHandler(logging.Handler):
    """Information and debug lines to standard output, warnings and errors to standard
    error, each flushed at once (``serve``'s progress is read line by line)."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            stream = sys.stderr if record.levelno >= logging.WARNING else sys.stdout
            stream.write(self.format(record) + "\n")
            stream.flush()
        except Exception:  # noqa: BLE001 - logging's own convention: never raise from emit
            self.handleError(record)


def install(level: int = logging.INFO) -> logging.Logger:
    """Make the ``warbook`` logger show messages of ``level`` and above on the terminal,
    replacing a handler an earlier call installed (a test runs many commands in one
    process). Returns the ``warbook`` logger."""
    logger = logging.getLogger(ROOT)
    for handler in list(logger.handlers):
        if isinstance(handler, TerminalHandler):
            logger.removeHandler(handler)
    handler = TerminalHandler()
    handler.setFormatter(logging.Formatter("%(message)s"))
    logger.addHandler(handler)
    logger.setLevel(level)
    logger.propagate = False  # shown once, here, whatever the root logger does
    return logger


def uninstall() -> None:
    """Take the handler away again and leave the ``warbook`` logger as Python made it (at
    the end of a command run in a process that goes on: a test, a script)."""
    logger = logging.getLogger(ROOT)
    for handler in list(logger.handlers):
        if isinstance(handler, TerminalHandler):
            logger.removeHandler(handler)
    logger.setLevel(logging.NOTSET)
    logger.propagate = True
