# SPDX-License-Identifier: GPL-2.0
"""Cases and suites: what a run can execute, and how a filter picks from it.

A suite is a directory tests/suites/<name>/ with a suite.py that sets

    WHERE       "guest" (cases run in a booted guest) or "host"
    MODULES     Debian modules the guest needs (their dependencies follow)
    TOOLS       host programs copied into the guest with their libraries
    QEMU_ARGS   extra emulator arguments, or a function ctx -> list
    APPEND      extra guest kernel command line words
    GUEST_FILES files for the initramfs: a function ctx -> [(src, dest)]
    HOST_CHECKS {name: function(ctx, *args) -> None or a problem}: checks
                a guest case asks the host to make (``@@host name args``)
    MEMORY, SMP guest size (defaults 1024 MiB, 2 CPUs)
    DEMO        True for a suite that only ``--demo`` runs
    BENCH       True for a suite that only ``--bench`` runs (benchmarks)
    KERNEL      "debug": the suite runs on the debug kernel whatever the
                run's --kernel (its cases are skipped when that kernel is
                not in the cache); default: the run's kernel
    BASE        the name of another suite whose settings (all of the above
                but WHERE, DEMO, BENCH, KERNEL) and scripts this one takes
                where it sets none of its own
    SCRIPTS     the directory the guest gets as /harness/suite, where the
                cases' scripts are (default: the suite's own, or BASE's)

and defines ``cases()`` returning a list of Case.  It may define
``host_setup(ctx)`` and ``host_teardown(ctx, state)``: helpers started
before the suite's first boot and stopped after its last (a target daemon,
say); state is what host_setup returned.

A directory of tests/suites without a suite.py holds suites of its own:
tests/suites/debug/bfa/suite.py is the suite "debug/bfa", its cases
debug/bfa/....  A suite that runs another suite's cases (on the debug
kernel, say) gives each case its own name and the other suite's as
guest_name, which is what the case's script sees as $HARNESS_CASE.
"""

import fnmatch
import importlib.util
import os
import re

DEFAULT_TIMEOUT = 120
NAME_RE = re.compile(r"^[A-Za-z0-9_.+-]+(/[A-Za-z0-9_.+-]+)+$")


class Case:
    """One named check: a script (in the suite directory) and its arguments."""

    def __init__(self, name, script, *args, timeout=DEFAULT_TIMEOUT,
                 guest_name=None, full=None):
        if not NAME_RE.match(name):
            raise ValueError(f"bad case name {name!r}")
        if guest_name is not None and not NAME_RE.match(guest_name):
            raise ValueError(f"bad case name {guest_name!r}")
        self.name = name
        self.guest_name = guest_name or name
        self.script = script
        self.args = [str(a) for a in args]
        self.timeout = int(timeout)
        # why the case is only for the nightly-size run (tests/run --full,
        # make check-full): None if make check runs it
        self.full = full
        self.suite = None

    def __repr__(self):
        return f"Case({self.name})"


class Suite:
    def __init__(self, name, path, module, root=None):
        self.name = name
        self.path = path
        base_name = getattr(module, "BASE", None)
        base = suite_module(base_name, root or SUITES_DIR) if base_name else None

        def setting(attr, default):
            return getattr(module, attr, getattr(base, attr, default))
        self.where = getattr(module, "WHERE", "guest")
        if self.where not in ("guest", "host"):
            raise ValueError(f"suite {name}: WHERE must be guest or host")
        self.modules = list(setting("MODULES", []))
        self.tools = list(setting("TOOLS", []))
        self.qemu_args = setting("QEMU_ARGS", [])
        self.append = list(setting("APPEND", []))
        self.guest_files = setting("GUEST_FILES", None)
        self.host_checks = dict(setting("HOST_CHECKS", {}))
        self.memory = int(setting("MEMORY", 1024))
        self.smp = int(setting("SMP", 2))
        self.demo = bool(getattr(module, "DEMO", False))
        self.bench = bool(getattr(module, "BENCH", False))
        self.host_setup = setting("host_setup", None)
        self.host_teardown = setting("host_teardown", None)
        self.kernel = getattr(module, "KERNEL", None)
        if self.kernel not in (None, "debug"):
            raise ValueError(f"suite {name}: KERNEL must be \"debug\" if set")
        self.scripts = getattr(module, "SCRIPTS",
                               os.path.dirname(base.__file__) if base else path)
        self.cases = list(module.cases())
        seen = set()
        for case in self.cases:
            if not case.name.startswith(name + "/"):
                raise ValueError(f"case {case.name} is not in suite {name}")
            if case.name in seen:
                raise ValueError(f"case {case.name} is defined twice")
            if not os.path.isfile(os.path.join(self.scripts, case.script)):
                raise ValueError(f"case {case.name}: no script {case.script}")
            seen.add(case.name)
            case.suite = self

    def extra_qemu_args(self, ctx):
        if callable(self.qemu_args):
            return list(self.qemu_args(ctx))
        return list(self.qemu_args)


SUITES_DIR = os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "suites")


def renamed(prefix, cases):
    """Another suite's cases under names of their own (prefix + name); the
    guest still knows each by its old name."""
    out = []
    for c in cases:
        r = Case(prefix + c.name, c.script, *c.args, timeout=c.timeout,
                 guest_name=c.name, full=c.full)
        if hasattr(c, "known"):
            r.known = c.known
        out.append(r)
    return out


def on_debug_kernel(base, check, full):
    """The cases of suite base named in check (make check runs them) and
    those matching a pattern of full (make check-full only), renamed
    debug/<name>, for a suite with KERNEL = "debug" and BASE = base."""
    out = []
    for c in suite_module(base).cases():
        if c.name in check:
            out.append(c)
        elif any(fnmatch.fnmatchcase(c.name, p) for p in full):
            c.full = "on the debug kernel"
            out.append(c)
    return renamed("debug/", out)


def suite_module(name, root=SUITES_DIR):
    """The suite.py of tests/suites/<name> as a module, for a suite (a demo
    or a benchmark, say) that boots another suite's guest."""
    spec_file = os.path.join(root, name, "suite.py")
    spec = importlib.util.spec_from_file_location(
        "suite_" + name.replace("/", "_"), spec_file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_suites(root, prefix=""):
    """Every suite under root (tests/suites), in name order; a directory
    without a suite.py is searched for suites named after it."""
    suites = []
    for entry in sorted(os.listdir(os.path.join(root, prefix))):
        name = prefix + entry
        path = os.path.join(root, name)
        if os.path.isfile(os.path.join(path, "suite.py")):
            suites.append(Suite(name, path, suite_module(name, root), root))
        elif os.path.isdir(path) and not entry.startswith((".", "_")):
            suites += load_suites(root, name + "/")
    return suites


def matches(name, pattern):
    """A pattern selects a case by glob, or by a prefix ending at a '/'."""
    if any(c in pattern for c in "*?["):
        return fnmatch.fnmatchcase(name, pattern)
    pattern = pattern.rstrip("/")
    return name == pattern or name.startswith(pattern + "/")


def select(suites, filters, demo=False, bench=False):
    """(suite, [cases]) pairs that the filters pick; no filter picks all."""
    picked = []
    for suite in suites:
        if suite.demo != demo or suite.bench != bench:
            continue
        cases = [c for c in suite.cases
                 if not filters or any(matches(c.name, f) for f in filters)]
        if cases:
            picked.append((suite, cases))
    return picked
