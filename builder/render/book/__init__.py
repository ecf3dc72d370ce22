"""The PDF rulebooks: one per game (``pdf``), laid out once with page references filled in
after layout (``pagerefs``), the worked examples' diagrams drawn into the written PDF
(``stamp``, with words set by ``glyphs``), and the compendium bound from the written books
(``bind``). Hands on the written files and their page counts (``pdf.BookInfo``)."""
