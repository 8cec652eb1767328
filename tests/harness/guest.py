# SPDX-License-Identifier: GPL-2.0
"""Boot the guest kernel (Debian's, or the debug kernel) under QEMU and run a
suite's cases inside it.

The guest speaks on its second serial port (ttyS1) in lines:

    @@ready <release>            the runner has started
    @@begin <case>               a case starts; its output follows
    @@end <case> <status> <seconds> [reason]
    @@reboot <why>               the kernel is tainted by a failure: power off
    @@done                       every listed case has run

The kernel's console (ttyS0) is kept as console.log.  The guest runner fails a
case whose window of the kernel log has an oops, BUG, WARN, lockdep or
hung-task report (on the debug kernel KASAN, kmemleak and DEBUG_OBJECTS too),
and then asks for a fresh boot.  If the guest dies or stops
answering, the case that was running fails with the console's account of it,
and the cases not yet run go to a new boot.
"""

import json
import os
import re
import shlex
import socket
import shutil
import subprocess
import tempfile
import time

import ckio
from initramfs import BuildError, Initramfs, concatenate

HERE = os.path.dirname(os.path.abspath(__file__))
GUEST_DIR = os.path.join(os.path.dirname(HERE), "guest")
BOOT_TIMEOUT = int(os.environ.get("HARNESS_BOOT_TIMEOUT", "300"))
CASE_GRACE = 60          # beyond a case's own bound, for the runner's checks
IDLE_TIMEOUT = 120       # between cases
MAX_BOOTS = 12
CONSOLE_TAIL = 30
KERNEL_TROUBLE = re.compile(
    r"BUG:|WARNING:|Oops|general protection fault|Kernel panic|kernel BUG at|"
    r"blocked for more than|detected stall|possible circular locking|"
    r"possible recursive locking|inconsistent lock state|suspicious RCU usage|"
    r"KASAN|UBSAN|kmemleak|ODEBUG|refcount_t:|list_add corruption|"
    r"list_del corruption|segfault at")


def build_base(suite, ctx, workdir):
    """The suite's initramfs, less the list of cases."""
    fs = Initramfs(os.path.join(workdir, "root"))
    for prog in ["busybox", "dash", "kmod", "modprobe", "insmod", "rmmod",
                 "lsmod", "modinfo", "depmod"] + suite.tools:
        fs.add_program(prog)
    fs.add_modules(ctx.release, suite.modules, ctx.our_modules,
                   root=ctx.module_root)
    fs.add_file(os.path.join(GUEST_DIR, "init"), "/init", 0o755)
    fs.add_file(os.path.join(GUEST_DIR, "runner"), "/harness/runner", 0o755)
    fs.add_file(os.path.join(GUEST_DIR, "lib.sh"), "/harness/lib.sh", 0o644)
    fs.add_file(os.path.join(GUEST_DIR, "kernel-known"),
                "/harness/kernel-known", 0o644)
    fs.add_file(*ckio.guest_file(ctx, workdir), 0o755)
    fs.add_tree(suite.scripts, "/harness/suite")
    for src, dest in (suite.guest_files(ctx) if suite.guest_files else []):
        fs.add_file(src, dest)
    fs.add_text("/etc/passwd", "root:x:0:0:root:/root:/bin/sh\n")
    fs.add_text("/etc/group", "root:x:0:\n")
    out = os.path.join(workdir, "base.cpio")
    fs.write(out)
    return out


def case_timeout(case, ctx):
    """A case's time bound on the kernel the guest boots."""
    return int(case.timeout * ctx.timeout_scale)


def case_list(cases, ctx, workdir):
    fs = Initramfs(os.path.join(workdir, "list"))
    lines = []
    for c in cases:
        lines.append(" ".join([c.guest_name, str(case_timeout(c, ctx)),
                               shlex.quote(c.script)]
                              + [shlex.quote(a) for a in c.args]))
    fs.add_text("/harness/cases", "\n".join(lines) + "\n")
    out = os.path.join(workdir, "list.cpio")
    fs.write(out)
    return out


def qemu_command(suite, ctx, initrd, bootdir):
    cmdline = " ".join([
        "console=ttyS0,115200", "loglevel=7", "log_buf_len=16M",
        "panic=-1", "mitigations=off", "printk.time=1",
    ] + ctx.kernel_append + ctx.append + suite.append)
    return [ctx.qemu, "-nodefaults", "-no-reboot", "-display", "none",
            "-machine", f"pc,accel={ctx.accel}", "-cpu", ctx.cpu,
            "-smp", str(suite.smp),
            "-m", str(suite.memory + ctx.kernel_memory),
            "-kernel", ctx.kernel, "-initrd", initrd, "-append", cmdline,
            "-chardev", f"file,id=console,path={bootdir}/console.log",
            "-serial", "chardev:console",
            "-chardev", f"file,id=harness,path={bootdir}/channel.log",
            "-serial", "chardev:harness",
            "-monitor", "none",
            "-qmp", f"unix:{bootdir}/qmp.sock,server=on,wait=off",
            # ttyS2: the host's answers to @@sync (see Boot.sync)
            "-chardev", f"socket,id=hostack,path={bootdir}/ack.sock,"
            "server=on,wait=off",
            "-serial", "chardev:hostack",
            ] + suite.extra_qemu_args(ctx)


def console_excerpt(bootdir, case_name):
    """The kernel's console from the start of the case (or its tail)."""
    try:
        with open(os.path.join(bootdir, "console.log"), errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    start = 0
    for i, line in enumerate(lines):
        if case_name and f"harness: begin {case_name} #" in line:
            start = i
    section = lines[start:]
    trouble = [ln for ln in section if KERNEL_TROUBLE.search(ln)]
    return trouble[:10] + ["--- console tail:"] + section[-CONSOLE_TAIL:]


class Qmp:
    """The emulator's QMP socket, for cases that change the machine while
    they run (``@@qmp {json}`` on the channel; see tests/guest/lib.sh)."""

    def __init__(self, path):
        self.path = path
        self.sock = None
        self.buf = b""

    def _recv(self):
        while b"\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise OSError("QMP connection closed")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def _reply(self):
        while True:
            msg = self._recv()
            if "return" in msg or "error" in msg:
                return msg

    def execute(self, command):
        if self.sock is None:
            self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.sock.settimeout(10)
            self.sock.connect(self.path)
            self._recv()                                # greeting
            self.sock.sendall(b'{"execute": "qmp_capabilities"}\n')
            self._reply()
        self.sock.sendall(json.dumps(command).encode() + b"\n")
        return self._reply()

    def close(self):
        if self.sock:
            self.sock.close()


class Boot:
    """One guest boot: follow the channel until the guest is done or dead."""

    def __init__(self, suite, cases, ctx, reporter, bootdir, initrd, live):
        self.suite = suite
        # the guest knows a case by its guest_name
        self.by_name = {c.guest_name: c for c in cases}
        self.ctx = ctx
        self.reporter = reporter
        self.bootdir = bootdir
        self.initrd = initrd
        self.live = live            # print case output as it comes (demo)
        self.done = set()
        self.booted = False
        self.current = None
        self.current_log = None
        self.started = None
        self.reboot_asked = False
        self.qmp = Qmp(os.path.join(bootdir, "qmp.sock"))
        self.host_failures = []
        self.ack = None

    def run(self):
        cmd = qemu_command(self.suite, self.ctx, self.initrd, self.bootdir)
        with open(os.path.join(self.bootdir, "qemu.cmd"), "w") as f:
            f.write(shlex.join(cmd) + "\n")
        qemu_log = open(os.path.join(self.bootdir, "qemu.log"), "w")
        proc = subprocess.Popen(cmd, stdout=qemu_log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL)
        channel = os.path.join(self.bootdir, "channel.log")
        deadline = time.monotonic() + BOOT_TIMEOUT
        buf = b""
        pos = 0
        finished = False
        why = None
        try:
            while True:
                exited = proc.poll() is not None
                try:
                    with open(channel, "rb") as f:
                        f.seek(pos)
                        chunk = f.read()
                except FileNotFoundError:
                    chunk = b""
                pos += len(chunk)
                buf += chunk
                *lines, buf = buf.split(b"\n")
                for raw in lines:
                    line = raw.decode(errors="replace").rstrip("\r")
                    deadline = self.handle(line, deadline)
                    if line.startswith("@@done"):
                        finished = True
                if finished or self.reboot_asked:
                    try:
                        proc.wait(timeout=30)
                    except subprocess.TimeoutExpired:
                        pass
                    break
                if exited:
                    why = f"the guest exited (QEMU status {proc.returncode})"
                    break
                if time.monotonic() > deadline:
                    what = (f"case {self.current}" if self.current
                            else "the guest")
                    why = f"{what} gave no sign of life in time: guest stopped"
                    break
                time.sleep(0.1)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            qemu_log.close()
            self.qmp.close()
            if self.ack:
                self.ack.close()
            if self.current_log:
                self.current_log.close()
        if self.current is not None:
            case = self.by_name[self.current]
            excerpt = console_excerpt(self.bootdir, self.current)
            took = time.monotonic() - self.started
            self.reporter.result(case, "fail", "\n".join(
                [why or "the guest went away during the case"] + excerpt), took)
            self.done.add(self.current)
            self.current = None
        return why

    def sync(self, token):
        """Tell the guest (on its ttyS2) that every channel line before
        ``@@sync TOKEN`` has been acted on."""
        try:
            if self.ack is None:
                self.ack = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.ack.settimeout(10)
                self.ack.connect(os.path.join(self.bootdir, "ack.sock"))
            self.ack.sendall(f"synced {token}\n".encode())
            if self.current_log:
                self.current_log.write(f"harness: answered sync {token}\n")
        except OSError as e:
            if self.current_log:
                self.current_log.write(f"harness: cannot answer sync: {e}\n")

    def host_check(self, words):
        """A check of the case that only the host can make (the backing
        files of the guest's disks, say): the suite's HOST_CHECKS[name].
        A failed check fails the case whatever the guest reports."""
        checks = self.suite.host_checks
        name, args = (words[0], words[1:]) if words else ("", [])
        if name not in checks:
            problem = f"no host check named {name!r}"
        else:
            try:
                problem = checks[name](self.ctx, *args)
            except Exception as e:          # a broken check fails the case
                problem = f"host check {name} raised {e!r}"
        verdict = f"FAIL: {problem}" if problem else "ok"
        self.current_log.write(f"host {' '.join(words)}: {verdict}\n")
        self.current_log.flush()
        if problem:
            self.host_failures.append(f"host check {name}: {problem}")

    def handle(self, line, deadline):
        now = time.monotonic()
        if line.startswith("@@ready"):
            self.booted = True
            return now + IDLE_TIMEOUT
        if line.startswith("@@begin "):
            name = line.split()[1]
            if name not in self.by_name:
                return deadline
            self.current = name
            self.started = now
            self.current_log = open(self.reporter.log_path(self.by_name[name]), "w")
            return (now + case_timeout(self.by_name[name], self.ctx)
                    + CASE_GRACE)
        if line.startswith("@@end "):
            parts = line.split(" ", 4)
            name = parts[1]
            if name != self.current or len(parts) < 4:
                return deadline
            status, seconds = parts[2], float(parts[3])
            reason = parts[4] if len(parts) > 4 else ""
            self.current_log.close()
            self.current_log = None
            self.current = None
            self.done.add(name)
            if status not in ("pass", "fail", "skip"):
                status, reason = "fail", f"runner said {status}: {reason}"
            if self.host_failures:
                status = "fail"
                reason = "; ".join(self.host_failures + [reason]).strip("; ")
                self.host_failures = []
            self.reporter.result(self.by_name[name], status, reason, seconds)
            return now + IDLE_TIMEOUT
        if line.startswith("@@reboot"):
            self.reboot_asked = True
            return deadline
        if line.startswith("@@sync "):
            self.sync(line[7:].strip())
            return deadline
        if line.startswith("@@host ") and self.current_log:
            self.host_check(line[7:].split())
            return deadline
        if line.startswith("@@qmp ") and self.current_log:
            try:
                reply = self.qmp.execute(json.loads(line[6:]))
            except (OSError, ValueError) as e:
                reply = {"error": {"desc": f"harness: {e}"}}
            self.current_log.write(f"qmp: {line[6:]} -> {json.dumps(reply)}\n")
            self.current_log.flush()
            return deadline
        if line.startswith("@@"):
            return deadline
        if self.current_log:
            self.current_log.write(line + "\n")
            self.current_log.flush()
        if self.live:
            print(line, flush=True)
        return deadline


def run_guest_suite(suite, cases, ctx, reporter, live=False):
    suite_dir = os.path.join(ctx.results, suite.name)
    os.makedirs(suite_dir, exist_ok=True)
    flat = suite.name.replace("/", "-")
    work = tempfile.mkdtemp(prefix=f"harness-{flat}-")
    try:
        try:
            base = build_base(suite, ctx, work)
        except (BuildError, subprocess.CalledProcessError, OSError) as e:
            for case in cases:
                reporter.result(case, "fail", f"initramfs: {e}")
            return
        pending = list(cases)
        for boot_no in range(1, MAX_BOOTS + 1):
            bootdir = os.path.join(suite_dir, f"boot{boot_no}")
            os.makedirs(bootdir, exist_ok=True)
            listdir = os.path.join(work, f"list{boot_no}")
            os.makedirs(listdir)
            initrd = os.path.join(work, f"initrd{boot_no}.cpio")
            concatenate([base, case_list(pending, ctx, listdir)], initrd)
            boot = Boot(suite, pending, ctx, reporter, bootdir, initrd, live)
            why = boot.run()
            os.unlink(initrd)
            pending = [c for c in pending if c.guest_name not in boot.done]
            if not pending:
                return
            if boot.booted and not boot.done:
                for case in pending:
                    reporter.result(case, "fail",
                                    f"the guest runner did not run it: {why}")
                return
            if not boot.booted:
                excerpt = console_excerpt(bootdir, None)
                for case in pending:
                    reporter.result(case, "fail", "\n".join(
                        [f"the guest did not boot: {why}"] + excerpt))
                return
        for case in pending:
            reporter.result(case, "fail", f"not run: {MAX_BOOTS} boots used up")
    finally:
        shutil.rmtree(work, ignore_errors=True)
