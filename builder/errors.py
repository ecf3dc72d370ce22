"""The one error root: every error warbook shows to a user is a :class:`WarbookError`.

An error of this family means the user can act on it (their content, their engine, their
machine, a flag); its message is shown as is and the command exits with its ``exit_code``
(1). The command line (:mod:`builder.cli`) is the only module that prints one and sets the
exit status, with a single ``except WarbookError``. Anything else that escapes is a bug in
warbook: exit status 2 and "internal error".

Stages raise their own subclasses (``Diagnostic`` for a located problem in a content file,
``RenderError`` for the render stage, ...); none of them prints.
"""

from __future__ import annotations


class WarbookError(Exception):
    """A problem the user can act on; ``str(error)`` is the whole message shown."""

    #: the process's exit status when this error ends a command
    exit_code: int = 1


class InternalError(WarbookError):
    """A bug in warbook found and named where it happens (a missing packaged resource, a
    broken invariant): shown as an internal error, exit status 2."""

    exit_code = 2
