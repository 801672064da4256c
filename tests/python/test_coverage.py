# SPDX-License-Identifier: MIT
"""Which C functions the acl module binds: every function libascendcl
exports is bound (a binding's doc string starts with its C name) or listed
in README.md's "Python" section as not bound, and nothing else."""
import os
import re
import subprocess
import unittest

import acl
import aclconst as C

LIB = os.path.join(C.TOP, "build", "lib", "libascendcl.so.1")
README = os.path.join(C.TOP, "README.md")


def exported():
    out = subprocess.run(["nm", "-D", "--defined-only", LIB], capture_output=True, text=True, check=True).stdout
    names = set()
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] == "T" and f[2].startswith("acl"):
            names.add(f[2].split("@")[0])
    return names


def bound():
    names = {}
    for mod in (acl, acl.rt, acl.op, acl.mdl, acl.util, acl.media):
        for py in dir(mod):
            f = getattr(mod, py)
            m = re.match(r"(acl\w+)", getattr(f, "__doc__", None) or "")
            if callable(f) and m:
                names.setdefault(m.group(1), []).append("%s.%s" % (mod.__name__, py))
    return names


def readme_not_bound():
    with open(README, encoding="utf-8") as f:
        text = f.read()
    sec = re.search(r"^## Python\n(.*?)(?=^## )", text, re.S | re.M)
    assert sec, "README.md has no \"## Python\" section"
    part = re.search(r"Not bound:(.*?)\n\n", sec.group(1), re.S)
    assert part, "README.md's Python section has no \"Not bound:\" paragraph"
    return set(re.findall(r"`(acl\w+)`", part.group(1)))


class Coverage(unittest.TestCase):
    def test_every_export_bound_or_listed(self):
        exp, b, nb = exported(), bound(), readme_not_bound()
        self.assertGreater(len(exp), 150)
        self.assertEqual(sorted(exp - set(b) - nb), [], "exported, neither bound nor listed as not bound")
        self.assertEqual(sorted(nb & set(b)), [], "listed as not bound but bound")
        self.assertEqual(sorted(set(b) - exp), [], "bound but not exported")
        self.assertEqual(sorted(nb - exp), [], "listed but not exported")

    def test_readme_count(self):
        with open(README, encoding="utf-8") as f:
            m = re.search(r"bind (\d+) of the (\d+) functions", f.read())
        self.assertTrue(m, "README.md does not say how many functions are bound")
        exp = exported()
        self.assertEqual((int(m.group(1)), int(m.group(2))), (len(exp & set(bound())), len(exp)))

    def test_allocator_family(self):
        for name in ("allocator_create_desc", "allocator_set_obj_to_desc", "allocator_set_alloc_func_to_desc",
                     "allocator_set_get_addr_from_block_func_to_desc", "allocator_set_free_func_to_desc",
                     "allocator_set_alloc_advise_func_to_desc", "allocator_register", "allocator_get_by_stream",
                     "allocator_unregister", "allocator_destroy_desc"):
            self.assertTrue(callable(getattr(acl.rt, name)), name)


if __name__ == "__main__":
    unittest.main()
