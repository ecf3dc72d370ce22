"""The Jinja environment every product renders with, and where templates are found.

One place makes template loaders, so every product (``book``, ``components``, ``site``)
finds its templates and stylesheets the same way: a file of the same name in the content
folder's ``templates/`` (``content/templates/site/_base.html.j2``) overrides the shipped
one (``templates/site/_base.html.j2``). Content is untrusted text, so an environment that
may load the content's templates is Jinja's sandbox, which keeps a template from reaching
Python objects' internals.
"""

from __future__ import annotations

from pathlib import Path

import jinja2
from jinja2.sandbox import SandboxedEnvironment

#: the shipped templates and stylesheets (``templates/`` beside the package)
TEMPLATES = Path(__file__).resolve().parent.parent.parent / "templates"


def overrides_of(content_root: str | Path | None) -> Path | None:
    """The content's own templates folder, if it has one."""
    if content_root is None:
        return None
    folder = Path(content_root) / "templates"
    return folder if folder.is_dir() else None


def environment(overrides: Path | None = None, **options) -> jinja2.Environment:
    """A Jinja environment over the templates (``overrides`` first, then the shipped ones):
    autoescaped, strict about undefined names, with block tags trimmed. ``options`` are
    passed on (e.g. ``extensions``)."""
    settings = dict(autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True,
                    lstrip_blocks=True)
    settings.update(options)
    shipped = jinja2.FileSystemLoader(str(TEMPLATES))
    if overrides is None:
        return jinja2.Environment(loader=shipped, **settings)
    loader = jinja2.ChoiceLoader([jinja2.FileSystemLoader(str(overrides)), shipped])
    return SandboxedEnvironment(loader=loader, **settings)


def template_file(name: str, overrides: Path | None = None) -> Path:
    """The path of a template folder's file (a stylesheet, a script), e.g.
    ``book/book.css``: the content's own if it has one, else the shipped one."""
    if overrides is not None and (overrides / name).is_file():
        return overrides / name
    return TEMPLATES / name


def read_template_file(name: str, overrides: Path | None = None) -> str:
    return template_file(name, overrides).read_text(encoding="utf-8")
