"""The one door to the files warbook ships: its templates, stylesheets and site assets.

``templates/`` stays at the top of the repository (where a designer looks for it) and ships
inside the package as ``builder/templates``: in a checkout that name is a link to
``../templates`` (so an editable install reads the files being edited), in a built wheel it
is a folder of copies (``[tool.setuptools.package-data]`` in pyproject.toml follows the
link). Either way the files are found here, through :mod:`importlib.resources`, never by a
path relative to a checkout.

A distribution that lost some of them (a packaging slip: a glob that left out ``*.js``, a
wheel built without the folder) must not render a half-styled book: the first command that
renders or checks templates asks for them here and stops at once with an
:class:`~builder.errors.InternalError` that names the first file missing.
"""

from __future__ import annotations

import importlib.resources
from pathlib import Path

from .errors import InternalError

#: the package whose folder holds ``templates`` (and the package's own modules)
PACKAGE = "builder"

#: every file the package ships under ``templates/`` (tests/build/test_packaging.py holds this
#: list to the repository's folder, so a new template is listed here or the tests fail)
SHIPPED = (
    "book/_diagram_print.html.j2", "book/_game.html.j2", "book/_numbers.html.j2",
    "book/book.css", "book/book.html.j2", "book/front.html.j2", "book/index.html.j2",
    "book/quickref.html.j2",
    "cards/_card.svg.j2", "cards/back.svg.j2", "cards/face.svg.j2",
    "components/components.css", "components/cover.html.j2", "components/sheets.html.j2",
    "components/texts.html.j2",
    "new/example.yaml.j2", "new/engine/engine.py.j2", "new/engine/game.yaml.j2",
    "new/engine/glossary.yaml", "new/engine/rules.md",
    "new/engine/examples/01-a-few-turns.yaml.j2", "new/engine/examples/02-going-out.yaml.j2",
    "new/deck/cards.csv", "new/deck/game.yaml.j2", "new/deck/face.svg.j2.j2", "new/deck/rules.md",
    "new/deck/examples/01-a-few-turns.yaml.j2", "new/deck/examples/02-going-out.yaml.j2",
    "new/game/game.yaml.j2", "new/game/glossary.yaml",
    "new/game/rules.md", "new/game/examples/01-a-plain-trick.yaml.j2",
    "shared/_diagram.html.j2",
    "site/404.html.j2", "site/_base.html.j2", "site/_numbers.html.j2", "site/_table.html.j2",
    "site/game.html.j2", "site/index.html.j2", "site/lunr.LICENSE", "site/lunr.min.js",
    "site/mark.svg", "site/search.html.j2", "site/search.js", "site/site.css", "site/site.js",
    "site/theme.js",
)

#: where to look instead of the installed package (tests point it at an empty folder)
_override: Path | None = None
_checked: Path | None = None


def package_folder() -> Path:
    """The installed package's own folder (``.../builder``), as a file-system path: its
    modules are hashed for the incremental manifest and the lab's figure cache."""
    return Path(str(importlib.resources.files(PACKAGE)))


def templates() -> Path:
    """The shipped templates folder, every file of :data:`SHIPPED` checked to be there
    (once a process); an :class:`InternalError` naming the first one missing."""
    global _checked
    folder = _override if _override is not None else (package_folder() / "templates").resolve()
    if _checked == folder:
        return folder
    for name in SHIPPED:
        if not (folder / name).is_file():
            raise InternalError(
                f"the installed warbook is incomplete: its resource templates/{name} is "
                f"missing (looked in {folder}); this is a packaging fault, not a problem "
                f"with your content: reinstall warbook from a complete wheel or checkout")
    _checked = folder
    return folder


def look_in(folder: Path | None) -> None:
    """Find the templates in ``folder`` instead of the package (None: the package again).
    For tests: an empty folder stands for a wheel built without its templates."""
    global _override, _checked
    _override, _checked = (None if folder is None else Path(folder)), None
