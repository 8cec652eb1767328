# SPDX-License-Identifier: GPL-2.0
"""TAP output, per-case logs and the closing summary of a run."""

import os
import sys

LOG_TAIL = 20


class Reporter:
    def __init__(self, results, total, out=sys.stdout):
        self.results = results
        self.out = out
        self.number = 0
        self.counts = {"pass": 0, "fail": 0, "skip": 0, "known": 0}
        self.figures = []
        self.notes = []
        self.failed = []
        self._print("TAP version 13")
        self._print(f"1..{total}")

    def _print(self, line):
        print(line, file=self.out, flush=True)

    def log_path(self, case):
        path = os.path.join(self.results, "cases", case.name + ".log")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        return path

    def result(self, case, status, reason="", seconds=None):
        """Record one case: status is pass, fail or skip.  A case whose
        known attribute names a defect it shows (a mainline driver's, run
        for comparison) is reported as TAP's TODO: its failure is counted
        apart and does not fail the run; its passing is news."""
        self.number += 1
        known = getattr(case, "known", None)
        if known and status == "fail":
            status = "known"
        self.counts[status] += 1
        if status == "pass":
            self._figures(case)
        took = f" ({seconds:.1f}s)" if seconds is not None else ""
        if known and status == "pass":
            self._print(f"ok {self.number} - {case.name}{took} # TODO {known}"
                        " (passed: the defect may be gone)")
        elif status == "known":
            self._print(f"not ok {self.number} - {case.name}{took} # TODO "
                        f"{known}")
            for line in reason.splitlines()[:8]:
                self._print(f"# {line}")
        elif status == "pass":
            self._print(f"ok {self.number} - {case.name}{took}")
            for line in reason.splitlines():
                self._print(f"# note: {line}")
                self.notes.append(f"{case.name}: {line}")
        elif status == "skip":
            self._print(f"ok {self.number} - {case.name} # SKIP {reason}")
        else:
            self.failed.append(case.name)
            self._print(f"not ok {self.number} - {case.name}{took}")
            if reason:
                for line in reason.splitlines():
                    self._print(f"# {line}")
            log = self.log_path(case)
            if os.path.exists(log):
                with open(log, errors="replace") as f:
                    tail = f.read().splitlines()[-LOG_TAIL:]
                for line in tail:
                    self._print(f"#   | {line}")
                self._print(f"#   log: {os.path.relpath(log)}")

    def _figures(self, case):
        """The "figure: ..." lines of a passed case's log, for the summary:
        what a fault case survived and measured."""
        log = self.log_path(case)
        if not os.path.exists(log):
            return
        with open(log, errors="replace") as f:
            for line in f:
                if line.startswith("figure: "):
                    self.figures.append(f"{case.name}: {line[8:].rstrip()}")

    def summary(self):
        c = self.counts
        if self.figures:
            self._print("# figures:")
            for line in self.figures:
                self._print(f"#   {line}")
        for line in self.notes:
            self._print(f"# note: {line}")
        if self.failed:
            self._print("# failed: " + " ".join(self.failed))
        self._print(f"# results: {os.path.relpath(self.results)}")
        line = f"{c['pass']} passed, {c['fail']} failed"
        if c["skip"]:
            line += f", {c['skip']} skipped"
        if c["known"]:
            line += f", {c['known']} known failures"
        self._print(line)
        return c["fail"] == 0
