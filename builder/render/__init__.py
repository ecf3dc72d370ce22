"""Stage 3: the renderers, which turn a passing check's report into products.

Each product is a package: ``book/`` writes the PDF rulebooks and binds the compendium,
``pnp/`` the print-and-play component sheets, the printable deck and their PNG exports,
``site/`` the static rules website. What they share sits here: ``present`` (the view
objects every product renders: rules, examples, diagrams), ``markup`` (rule Markdown),
``cards`` (the French 52's art, as SVG), ``faces`` (every deck's faces and backs: the
French 52's from ``cards``, a game's own decks' from templates), ``fetch`` (card art
served to WeasyPrint), ``fonts`` (the typefaces), ``templating`` (the one Jinja
environment and where templates are found) and ``errors`` (the stage's one error family,
:class:`~builder.render.errors.RenderError`).

Render reads the report (and the balance lab's figures, ``lab.figures.BookFigures``) and
writes files into the folder it is given, on the paper and ink of the build's
:class:`~builder.settings.Settings`; it never imports the build or the command line, and
reports progress through logging (``warbook.render.<module>``).
"""
