"""Make the books' text faces, builder/fonts/EBGaramond-{Regular,Italic,Bold}.ttf.

They are static instances of EB Garamond's variable fonts (Octavio Pardo's EB Garamond 12,
as Google Fonts publishes it, version 1.003), taken from the PyPI package
``fontpkg-eb-garamond`` and cut at weights 400 and 700 with fontTools' instancer. The
package ships them, so a build needs neither the variable fonts nor this script; it is kept
to say where the files come from and to make them again:

    .venv/bin/pip download --no-deps -d /tmp/ebg fontpkg-eb-garamond==1.3
    .venv/bin/python scripts/text_fonts.py /tmp/ebg/fontpkg_eb_garamond-1.3-py3-none-any.whl

Why not Debian's fonts-ebgaramond: its EBGaramond12-Bold.otf is an unfinished cut of 127
glyphs, so fontconfig (which ranks language coverage before weight) set every bold word in
a regular face, and chose the 08 cut for the text. The fonts are under the SIL Open Font
Licence 1.1 (builder/fonts/OFL.txt).
"""

from __future__ import annotations

import io
import sys
import zipfile
from pathlib import Path

from fontTools.ttLib import TTFont
from fontTools.varLib import instancer

OUT = Path(__file__).resolve().parent.parent / "builder" / "fonts"
CUTS = [("EBGaramond[wght].ttf", 400, "EBGaramond-Regular.ttf"),
        ("EBGaramond-Italic[wght].ttf", 400, "EBGaramond-Italic.ttf"),
        ("EBGaramond[wght].ttf", 700, "EBGaramond-Bold.ttf")]


def main(wheel: str) -> None:
    with zipfile.ZipFile(wheel) as z:
        files = {Path(n).name: n for n in z.namelist()}
        for source, weight, name in CUTS:
            font = TTFont(io.BytesIO(z.read(files[source])))
            cut = instancer.instantiateVariableFont(font, {"wght": weight}, updateFontNames=True)
            cut.save(OUT / name)
            print(f"{name}: {cut['name'].getDebugName(4)}, weight {cut['OS/2'].usWeightClass}, "
                  f"{len(cut.getGlyphOrder())} glyphs")
        (OUT / "OFL.txt").write_bytes(z.read(files["LICENSE"]))


if __name__ == "__main__":
    main(sys.argv[1])
