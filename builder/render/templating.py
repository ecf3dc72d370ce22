"""The Jinja environment every product renders with, and where templates are found.

One place makes template loaders, so every product (``book``, ``components``, ``site``)
finds its templates and stylesheets the same way.
"""

from __future__ import annotations

from pathlib import Path

import jinja2

#: the shipped templates and stylesheets (``templates/`` beside the package)
TEMPLATES = Path(__file__).resolve().parent.parent.parent / "templates"


def environment(**options) -> jinja2.Environment:
    """A Jinja environment over the templates: autoescaped, strict about undefined names,
    with block tags trimmed. ``options`` are passed on (e.g. ``extensions``)."""
    settings = dict(autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True,
                    lstrip_blocks=True)
    settings.update(options)
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), **settings)


def template_file(name: str) -> Path:
    """The path of a template folder's file (a stylesheet, a script), e.g. ``book/book.css``."""
    return TEMPLATES / name


def read_template_file(name: str) -> str:
    return template_file(name).read_text(encoding="utf-8")
