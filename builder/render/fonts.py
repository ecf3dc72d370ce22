"""The book's typefaces, from the font files the package ships and the project's set-up
installs, or the content's own.

Text: EB Garamond, shipped in the package (``builder/fonts/``: Octavio Pardo's EB Garamond
12, cut from its variable fonts by ``scripts/text_fonts.py``, which says why not Debian's);
headings, tables and diagrams: Cabin (Debian's fonts-cabin). The CSS names the files
directly, so a rulebook never falls back to whatever fonts a machine happens to have: a
missing file stops the build with a clear message.

A project may set its own two typefaces (``book.fonts`` in its ``index.yaml``): font files
inside its content folder, one per face. :func:`use` puts them in place of the shipped
faces for the whole build (the stylesheets keep calling the two roles "EB Garamond" and
"Cabin"; the PDFs embed, and name, the content's own fonts).
"""

from __future__ import annotations

from pathlib import Path

from .errors import RenderError

FONT_DIRS = [Path(__file__).resolve().parent.parent / "fonts", Path("/usr/share/fonts/opentype/cabin"),
             Path("/usr/share/fonts/truetype/dejavu")]

#: (family, weight, style, file name)
FACES = [
    ("EB Garamond", 400, "normal", "EBGaramond-Regular.ttf"),
    ("EB Garamond", 400, "italic", "EBGaramond-Italic.ttf"),
    ("EB Garamond", 700, "normal", "EBGaramond-Bold.ttf"),
    ("Cabin", 400, "normal", "Cabin-Regular.otf"),
    ("Cabin", 400, "italic", "Cabin-Italic.otf"),
    ("Cabin", 500, "normal", "Cabin-Medium.otf"),
    ("Cabin", 600, "normal", "Cabin-SemiBold.otf"),
    ("Cabin", 700, "normal", "Cabin-Bold.otf"),
    ("Cabin", 700, "italic", "Cabin-BoldItalic.otf"),
    # the signs neither face has: suits (K♠ in running text) and arrows, from DejaVu Sans
    # (fonts-dejavu-core), named and embedded like the others rather than left to fall back
    ("Warbook Signs", 400, "normal", "DejaVuSans.ttf"),
    ("Warbook Signs", 700, "normal", "DejaVuSans-Bold.ttf"),
]


#: the content's own font files, by the shipped face's file name they replace
_REPLACED: dict[str, Path] = {}


def use(replacements: dict[str, str]) -> None:
    """Use the content's own font files (shipped face file name -> path) for this build."""
    _REPLACED.clear()
    _REPLACED.update({name: Path(path) for name, path in replacements.items()})


def replaced_files() -> list[Path]:
    return list(_REPLACED.values())


class FontMissing(RenderError):
    """A typeface file the books need is not installed."""


def find(name: str) -> Path:
    if name in _REPLACED:
        return _REPLACED[name]
    for d in FONT_DIRS:
        p = d / name
        if p.exists():
            return p
    raise FontMissing(
        f"font file {name} not found in {', '.join(map(str, FONT_DIRS))}; "
        f"run 'bash scripts/setup' (it installs fonts-cabin and fonts-dejavu-core)")


def font_face_css() -> str:
    rules = []
    for family, weight, style, name in FACES:
        rules.append(
            f'@font-face {{ font-family: "{family}"; font-weight: {weight}; font-style: {style}; '
            f'src: url("{find(name).as_uri()}"); }}')
    return "\n".join(rules)


def font_files() -> list[Path]:
    return [find(name) for *_, name in FACES]


def embeddable_files() -> list[Path]:
    """Every font file a PDF of this build may have embedded: the faces (:func:`font_files`)
    first, then the other files of the font folders (in case WeasyPrint's fontconfig picks a
    sibling of a named face), for
    :func:`builder.render.book.fontshare.share_fonts` to recognise the subsets by."""
    out = list(dict.fromkeys(font_files()))
    for d in FONT_DIRS:
        if d.is_dir():
            out += [p for p in sorted(d.iterdir())
                    if p.suffix.lower() in (".otf", ".ttf") and p not in out]
    return out


#: the start of a font folder's name (``font_configuration``), its maker's pid after it
FONT_FOLDER = "warbook-fonts-"


def sweep_font_folders(where: Path) -> int:
    """Remove the font folders in ``where`` (``warbook-fonts-<pid>-*``, this user's) whose
    maker is no longer running: a build killed by a signal leaves its folder behind.
    Returns how many were removed."""
    import os
    import shutil

    removed = 0
    try:
        entries = list(where.glob(f"{FONT_FOLDER}*-*"))
    except OSError:
        return 0
    for folder in entries:
        pid = folder.name[len(FONT_FOLDER):].split("-", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            if folder.stat().st_uid != os.getuid() or not folder.is_dir():
                continue
            os.kill(int(pid), 0)
        except ProcessLookupError:  # its maker is gone
            shutil.rmtree(folder, ignore_errors=True)
            removed += 1
        except OSError:  # running under another user, or not ours to read: left alone
            continue
    return removed


def font_configuration():
    """A WeasyPrint ``FontConfiguration`` whose font folder is removed when the process
    that made it ends. WeasyPrint copies each ``@font-face`` file into a folder in the
    temporary directory and removes it only when the configuration is collected, which a
    renderer held to the end of a build, or made in a forked child, never is: every build
    left 6.7 MB behind. The folder is made here (``warbook-fonts-*``) and removed when the
    configuration is collected or when the process that made it exits, the build itself
    or one of its forked children (``multiprocessing``'s finalizers run at both; a child
    forked after the folder was made shares it and leaves it to its parent). The folder's
    name carries its maker's process id, and the folders of makers that are gone (killed:
    no finalizer ran) are removed here (:func:`sweep_font_folders`)."""
    import os
    import shutil
    import tempfile
    from multiprocessing import util

    from weasyprint.text.fonts import FontConfiguration

    sweep_font_folders(Path(tempfile.gettempdir()))
    config = FontConfiguration()
    folder = Path(tempfile.mkdtemp(prefix=f"{FONT_FOLDER}{os.getpid()}-"))
    config._folder = folder  # WeasyPrint makes its own only when this is None
    util.Finalize(config, shutil.rmtree, args=(folder, True), exitpriority=0)
    return config
