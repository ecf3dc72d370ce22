"""The one error family of the render stage.

Every product (rulebooks, print-and-play sheets, the website) raises a :class:`RenderError`
subclass when it cannot make its output from a passing check; the build turns any of them
into a failed build that publishes nothing, and the command line prints it. Render never
imports the build or the command line: errors go forward as exceptions (a
:class:`~builder.errors.WarbookError`, so the command line shows them as they are), progress
as log records (``logging.getLogger("warbook.render...")``).
"""

from __future__ import annotations

from ..errors import WarbookError


class RenderError(WarbookError):
    """Something the render stage cannot do; its message is shown to the user as is."""
