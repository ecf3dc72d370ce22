"""The Jinja environment every product renders with, and where templates are found.

One place makes template environments, so every product (``book``, ``components``,
``site``) finds its templates and stylesheets the same way: a file of the same name in the
content folder's ``templates/`` (``content/templates/site/_base.html.j2``) overrides the
shipped one (``templates/site/_base.html.j2``). Content is untrusted text, so every
environment is the bounded sandbox of :mod:`builder.sandbox` (templates see plain data,
run within limits, and fail with a located error), and every file of the content's
``templates/`` is read through the one resolver (:mod:`builder.contentpath`): a link that
leads out of the content folder is refused. The shipped files are found through
:mod:`builder.resources` (inside the installed package), never beside a checkout.
"""

from __future__ import annotations

from pathlib import Path

import jinja2

from .. import resources
from ..contentpath import resolve
from ..sandbox import environment as _bounded_environment
from ..sandbox import helper, macros

__all__ = ["environment", "helper", "macros", "overrides_of", "template_file",
           "read_template_file", "shipped"]


def shipped() -> Path:
    """The shipped templates folder (:func:`builder.resources.templates`: every file there,
    or an internal error naming the one missing)."""
    return resources.templates()


def __getattr__(name: str):
    """``TEMPLATES``, the shipped templates folder, looked up when it is first imported
    (the modules that import that name get it through :mod:`builder.resources`)."""
    if name == "TEMPLATES":
        return resources.templates()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def overrides_of(content_root: str | Path | None) -> Path | None:
    """The content's own templates folder (``<root>/templates``), if it has one (a link
    there is judged by the resolver when a file of it is read)."""
    if content_root is None:
        return None
    folder = Path(content_root) / "templates"
    return folder if folder.is_dir() or folder.is_symlink() else None


def environment(overrides: Path | None = None, **options) -> jinja2.Environment:
    """The bounded environment over the templates (``overrides``, the content's
    ``templates`` folder, first; then the shipped ones): autoescaped, strict about
    undefined names, with block tags trimmed. ``options`` are passed on (e.g.
    ``extensions``)."""
    return _bounded_environment(None if overrides is None else overrides.parent, **options)


def template_file(name: str, overrides: Path | None = None) -> Path:
    """The path of a template folder's file (a stylesheet, a script), e.g.
    ``book/book.css``: the content's own if it has one (its real path, inside the content
    folder, or a located error), else the shipped one."""
    if overrides is not None:
        path = overrides / name
        if path.is_symlink() or path.exists():
            import os

            from ..contentpath import rel
            from ..diagnostics import Diagnostic
            from ..yamlsrc import MAX_FILE_BYTES

            shown = rel(path, overrides.parent)
            real = resolve(overrides.parent, path, shown)
            if os.stat(real).st_size > MAX_FILE_BYTES:  # as every content file
                raise Diagnostic(shown, 1, 1, f"the file is larger than "
                                 f"{MAX_FILE_BYTES // (1024 * 1024)} MB")
            return real
    return shipped() / name


def read_template_file(name: str, overrides: Path | None = None) -> str:
    """The text of a template folder's file (see :func:`template_file`)."""
    if overrides is not None and ((overrides / name).is_symlink() or (overrides / name).exists()):
        from ..contentpath import rel
        from ..yamlsrc import read_text

        path = overrides / name
        return read_text(path, rel(path, overrides.parent), overrides.parent)
    return (shipped() / name).read_text(encoding="utf-8")
