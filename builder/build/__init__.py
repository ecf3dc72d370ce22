"""Stage 3's driver: render a passing check into the output folder.

- :mod:`.pipeline`: :func:`build` and :func:`up_to_date`, the build as a short pipeline
  (figures, products, manifest, publication);
- :mod:`.products`: the products (rulebooks, compendium, component sheets, deck,
  print-shop copies, website) behind one interface, each declaring its parts and their
  inputs for the incremental manifest;
- :mod:`.publication`: the staging folder and its atomic exchange with the output;
- :mod:`.forked`: a piece of the build run in a forked child process;
- :mod:`.errors`: :class:`BuildError`.
"""

from __future__ import annotations

from .errors import BuildError
from .pipeline import build, render_into, up_to_date
from .products import render_pdfs

__all__ = ["BuildError", "build", "render_into", "render_pdfs", "up_to_date"]
