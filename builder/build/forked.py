"""The fork helper: a piece of the build run in a forked child process.

:class:`Forked` runs a function in a child (on the machine's other core) that shares what
the parent has loaded, and hands back its result or the error that stopped it as a
:class:`~builder.build.errors.BuildError`; the child ends with its parent and never holds
the output's lock.
"""

from __future__ import annotations

import os
import sys
import traceback

from .. import children as child_processes
from .. import faults, lock, machine
from ..diagnostics import Diagnostic
from ..render.errors import RenderError
from .errors import BuildError


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
        #: what ``join`` found, once: ("result", value) or ("failed", the BuildError)
        self._outcome: tuple | None = None

    def join(self):
        """The child's result; raises :class:`BuildError` if it failed. A second call
        says the same again (the result, or the same error) without waiting."""
        if self._outcome is None:
            self._outcome = self._collect()
        kind, value = self._outcome
        if kind == "failed":
            raise value
        return value

    def _collect(self) -> tuple:
        try:
            sent = self._receive.recv()
        except EOFError:  # the child ended before sending anything
            sent = None
        self.process.join()
        code = self.process.exitcode
        if code == 0 and sent is not None and sent[0] == "result":
            return "result", sent[1]
        if sent is not None and sent[0] == "located":
            return "failed", BuildError(sent[1], located=True)
        if sent is not None and sent[0] in ("error", "internal"):
            return "failed", BuildError(f"{self.name}: {sent[1]}",
                                        internal=sent[0] == "internal")
        if code is not None and code < 0:
            why = f"stopped by signal {-code}"
        else:
            why = f"the process ended with exit status {code} and sent no result"
        return "failed", BuildError(f"{self.name}: {why}")

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
        elif faults.from_exception(e) is not None:  # a fault of a game's own code
            kind, message = "located", str(faults.from_exception(e))
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
