# SPDX-License-Identifier: GPL-2.0
"""Cases that run on the host: a script with a time bound and its own log.

Exit status 0 is a pass, 77 a skip (the reason on a line "SKIP: ..."), any
other a failure (the reason on the last line "FAIL: ...", if there is one).
"""

import os
import signal
import subprocess
import time


def last_line(text, prefix):
    found = ""
    for line in text.splitlines():
        if line.startswith(prefix):
            found = line[len(prefix):].strip()
    return found


def run_host_cases(cases, ctx, reporter):
    for case in cases:
        log = reporter.log_path(case)
        script = os.path.join(case.suite.path, case.script)
        start = time.monotonic()
        with open(log, "w") as out:
            proc = subprocess.Popen([script] + case.args, cwd=ctx.top,
                                    stdout=out, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL,
                                    start_new_session=True, env=ctx.env)
            try:
                rc = proc.wait(timeout=case.timeout)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                rc = None
        took = time.monotonic() - start
        with open(log, errors="replace") as f:
            text = f.read()
        if rc == 0:
            reporter.result(case, "pass", seconds=took)
        elif rc == 77:
            reporter.result(case, "skip", last_line(text, "SKIP:") or "skipped")
        elif rc is None:
            reporter.result(case, "fail",
                            f"timed out after {case.timeout}s", took)
        else:
            reason = last_line(text, "FAIL:") or f"exit status {rc}"
            reporter.result(case, "fail", reason, took)
