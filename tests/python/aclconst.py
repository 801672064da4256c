# SPDX-License-Identifier: MIT
"""The ACL constants the Python tests and samples use, read from the C
headers (include/acl/*.h) so that there is one definition of each: enum
members (counted as C counts them), "static const int NAME = V" error
codes and integer #defines. pyACL itself exports no constants: CANN's
samples define the ones they need, as this module does for ours."""
import os
import re

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_HEADERS = os.path.join(TOP, "include", "acl")


def _strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def parse(path, values=None):
    """The integer constants of the C header at @path, added to @values."""
    values = {} if values is None else values
    with open(path, encoding="utf-8") as f:
        text = _strip_comments(f.read())
    for m in re.finditer(r"static\s+const\s+int\s+(\w+)\s*=\s*(-?\d+)\s*;", text):
        values[m.group(1)] = int(m.group(2))
    for m in re.finditer(r"#define\s+([A-Z][A-Z0-9_]+)\s+\(?(-?(?:0x[0-9a-fA-F]+|\d+))[uUlL]*\)?\s*$", text, re.M):
        values[m.group(1)] = int(m.group(2), 0)
    for m in re.finditer(r"\benum\s*\w*\s*\{(.*?)\}", text, re.S):
        nxt = 0
        for item in m.group(1).split(","):
            item = item.strip()
            if not item:
                continue
            em = re.match(r"(\w+)\s*(?:=\s*(.+))?$", item, re.S)
            if not em:
                continue
            if em.group(2) is not None:
                expr = em.group(2).strip()
                try:
                    nxt = int(expr, 0)
                except ValueError:
                    nxt = values.get(expr, nxt)
            values[em.group(1)] = nxt
            nxt += 1
    return values


def _parse():
    values = {}
    for name in sorted(os.listdir(_HEADERS)):
        if name.endswith(".h"):
            parse(os.path.join(_HEADERS, name), values)
    return values


globals().update(_parse())
