#!/usr/bin/env python3
"""Regenerates `TextWidth.wideRanges` in Sources/TerminalUI/TextWidth.swift.

The table is the East Asian Width W and F code points of Unicode 17.0.0 (EastAsianWidth.txt), as
the `wcwidth` Python package 0.7.0 ships them (`wcwidth.table_wide.WIDE_EASTASIAN["17.0.0"]`),
plus the planes 2 and 3 that EastAsianWidth.txt gives the default W even where unassigned, and
the wide spacing marks U+302E-U+302F and U+16FF0-U+16FF1 that wcwidth leaves out.

How to run it (from the package root):

    pip install wcwidth==0.7.0
    python3 Scripts/generate-wide-table.py

It rewrites the lines between `// BEGIN GENERATED wideRanges` and `// END GENERATED wideRanges`.
Then run `swift test --filter TextWidthReferenceTests`, which compares every code point with
glibc's wcwidth and lists the deliberate differences.
"""
import pathlib
import re

import wcwidth
from wcwidth.table_wide import WIDE_EASTASIAN

VERSION = "17.0.0"
assert wcwidth.__version__ == "0.7.0", f"expected wcwidth 0.7.0, found {wcwidth.__version__}"

ranges = [list(r) for r in WIDE_EASTASIAN[VERSION]]
# wcwidth leaves out the W code points that are spacing marks (it counts them 0); EastAsianWidth.txt,
# glibc and terminals count them 2: the Hangul tone marks and the Vietnamese reading marks.
ranges.append([0x302E, 0x302F])
ranges.append([0x16FF0, 0x16FF1])
ranges.append([0x20000, 0x2FFFD])
ranges.append([0x30000, 0x3FFFD])
ranges.sort()
merged = []
for low, high in ranges:
    if merged and low <= merged[-1][1] + 1:
        merged[-1][1] = max(merged[-1][1], high)
    else:
        merged.append([low, high])

items = [f"0x{low:X}...0x{high:X}," for low, high in merged]
lines, line = [], "       "
for item in items:
    if len(line) + 1 + len(item) > 104:
        lines.append(line)
        line = "       "
    line += " " + item
lines.append(line)
table = "\n".join(lines)

path = pathlib.Path(__file__).resolve().parent.parent / "Sources/TerminalUI/TextWidth.swift"
source = path.read_text()
pattern = re.compile(r"(// BEGIN GENERATED wideRanges[^\n]*\n).*?([ \t]*// END GENERATED wideRanges)", re.S)
if not pattern.search(source):
    raise SystemExit("markers not found in " + str(path))
source = pattern.sub(lambda m: m.group(1) + table + "\n" + m.group(2), source)
path.write_text(source)
print(f"{len(merged)} ranges from EastAsianWidth {VERSION} written to {path}")
