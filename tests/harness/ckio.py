# SPDX-License-Identifier: GPL-2.0
"""The host's half of tests/guest/ckio.c: the tool built for the guest, and
the check that a LUN's backing file holds what the guest's ckio run says
the medium must hold (its settle digest), with every block's checksum
right."""

import os
import struct
import subprocess
import zlib

BLK = 4096
MAGIC = b"ckio-v1\0"
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "guest",
                   "ckio.c")


def guest_file(ctx, workdir):
    """(host path, guest path) of the tool, built static for the guest."""
    out = os.path.join(workdir, "ckio")
    subprocess.run(["cc", "-O2", "-Wall", "-Wextra", "-Werror", "-static",
                    "-pthread", "-o", out, SRC], check=True)
    return (out, "/harness/ckio")


def image_check(path, first, count, run, blocks, digest):
    """None if blocks [first, first + count) of the file at path hold the
    run's data as its settle saw it (blocks written, CRC-32 digest of
    their numbers and generations), else what differs."""
    first, count, blocks = int(first), int(count), int(blocks)
    run, digest = int(run, 16), int(digest, 16)
    seen = crc = bad = wrong = 0
    where = []
    with open(path, "rb") as f:
        f.seek(first * BLK)
        for block in range(first, first + count):
            data = f.read(BLK)
            if len(data) != BLK:
                return f"{path}: ends before block {block}"
            if data[:8] != MAGIC:
                continue
            number, owner, gen, stored = struct.unpack_from("<QIII", data, 8)
            if owner != run:
                continue
            zeroed = data[:24] + b"\0\0\0\0" + data[28:]
            if zlib.crc32(zeroed) != stored:
                bad += 1
                where.append(f"{block} (checksum)")
                continue
            if number != block:
                wrong += 1
                where.append(f"{block} (holds {number})")
                continue
            seen += 1
            crc = zlib.crc32(struct.pack("<QI", block, gen), crc)
    if bad or wrong or seen != blocks or crc != digest:
        return (f"{os.path.basename(path)} blocks {first}+{count}: {seen} "
                f"blocks of run {run:08x} (guest: {blocks}), digest "
                f"{crc:08x} (guest: {digest:08x}), {bad} with a wrong "
                f"checksum, {wrong} holding another block"
                + (f": {', '.join(where[:10])}" if where else ""))
    return None
