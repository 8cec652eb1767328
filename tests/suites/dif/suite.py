# SPDX-License-Identifier: GPL-2.0
"""dif/: T10 protection information through Debian's sd and scsi_debug.

Every configuration of DIF type (0-3), DIX (0, 1), guard (CRC, IP checksum)
and logical block size (512, 4096) gets the READ CAPACITY(16), integrity
profile, data and CDB cases; the type 2 configurations the direct 32-byte
CDB cases; the protected ones (DIF type != 0, DIX 1) the corruption and
injection cases; types 1 and 2 the reference tag cases.
"""

from cases import Case

WHERE = "guest"
MODULES = ["scsi_debug", "sd_mod", "sg"]
TOOLS = ["sg_readcap", "sg_raw", "lsscsi", "dd", "cmp", "stat", "blockdev"]

BAD_PARAMS = [
    ("dif-4", "dif=4", "dif must be 0, 1, 2 or 3"),
    ("dif-minus-1", "dif=-1", "dif must be 0, 1, 2 or 3"),
    ("dif-word", "dif=two", "`two' invalid for parameter `dif'"),
    ("guard-2", "guard=2", "guard must be 0 or 1"),
    ("guard-minus-1", "guard=-1", "`-1' invalid for parameter `guard'"),
]


def configs():
    for dif in (0, 1, 2, 3):
        for dix in (0, 1):
            for guard in (0, 1):
                for ss in (512, 4096):
                    yield dif, dix, guard, ss


def name(dif, dix, guard, ss):
    return f"dif{dif}-dix{dix}-{'ip' if guard else 'crc'}-{ss}"


def cases():
    out = []
    for cfg in configs():
        dif, dix = cfg[0], cfg[1]
        n = name(*cfg)
        out += [Case(f"dif/readcap/{n}", "readcap.sh", *cfg, timeout=60),
                Case(f"dif/integrity/{n}", "integrity.sh", *cfg, timeout=60),
                Case(f"dif/data/{n}", "data.sh", *cfg, timeout=300),
                Case(f"dif/cdb/{n}", "cdb.sh", *cfg, timeout=60)]
        if dif == 2:
            out += [Case(f"dif/read32/{n}", "read32.sh", *cfg, timeout=60),
                    Case(f"dif/malformed32/{n}", "malformed32.sh", *cfg,
                         timeout=60)]
        if dif and dix:
            out += [Case(f"dif/stale-guard/{n}", "stale-guard.sh", *cfg,
                         timeout=60),
                    Case(f"dif/inject-dif-err/{n}", "inject.sh", "dif", *cfg,
                         timeout=60),
                    Case(f"dif/inject-dix-err/{n}", "inject.sh", "dix", *cfg,
                         timeout=60)]
        if dif in (1, 2) and dix:
            out += [Case(f"dif/stale-ref/{n}", "stale-ref.sh", *cfg,
                         timeout=60),
                    Case(f"dif/refwrap/{n}", "refwrap.sh", *cfg, timeout=120)]
    for n, param, message in BAD_PARAMS:
        out.append(Case(f"dif/badparam/{n}", "badparam.sh", param, message,
                        timeout=60))
    return out
