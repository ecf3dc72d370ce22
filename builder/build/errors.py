"""The build's error: what stopped a build that therefore published nothing."""

from __future__ import annotations

from ..errors import WarbookError


class BuildError(WarbookError):
    """The build failed and published nothing; the message says why (shown by the CLI).
    ``internal`` marks a bug in warbook (an unexpected exception in a forked stage), which
    the CLI reports like one in its own process: as an internal error, exit status 2."""

    def __init__(self, message: str, internal: bool = False, located: bool = False):
        super().__init__(message)
        self.internal = internal
        self.exit_code = 2 if internal else 1
        #: the message is a located diagnostic (``path:line:col: error: ...``), shown as is
        self.located = located
