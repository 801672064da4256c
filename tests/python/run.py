#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Run unittest modules and print TAP, one line per test, so that
tests/check.sh counts each. usage: run.py tests/python/test_X.py ...
Exit status 0 only if every test passed (skips count as passes)."""
import importlib.util
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
# The module from the build tree (README.md, "Python").
sys.path.insert(0, os.path.join(TOP, "build", "python"))
sys.path.insert(0, HERE)


class TapResult(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.n = 0

    def _line(self, ok, test, note=""):
        self.n += 1
        print("%s %d - %s%s" % ("ok" if ok else "not ok", self.n, test.id(), note), flush=True)

    def addSuccess(self, test):
        super().addSuccess(test)
        self._line(True, test)

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._line(True, test, " # SKIP %s" % reason)

    def _fail(self, test, err, kind):
        text = self._exc_info_to_string(err, test)
        for line in text.rstrip().splitlines():
            print("# " + line)
        self._line(False, test, " (%s)" % kind)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._fail(test, err, "failure")

    def addError(self, test, err):
        super().addError(test, err)
        self._fail(test, err, "error")

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._line(True, test, " # TODO expected failure")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._line(False, test, " (unexpected success)")


def main(paths):
    suite = unittest.TestSuite()
    loader = unittest.TestLoader()
    for path in paths:
        name = os.path.splitext(os.path.basename(path))[0]
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
        suite.addTests(loader.loadTestsFromModule(mod))
    result = TapResult()
    suite.run(result)
    # An error in setUpModule/setUpClass is reported as one failed "test".
    print("1..%d" % result.n)
    return 0 if result.wasSuccessful() and result.n > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
