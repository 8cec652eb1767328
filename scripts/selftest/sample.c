// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture of the static-check self-test: a module that checkpatch --strict,
 * sparse and a W=1 build accept without a finding.  The self-test plants one
 * defect at a time into a copy of it (see scripts/static-check-selftest) and
 * expects the matching check to name the planted line.
 */

#include <linux/module.h>
#include <linux/kernel.h>

struct selftest_desc {
	__le32 len;
	__le16 flags;
};

static u32 selftest_len(const struct selftest_desc *desc)
{
	return le32_to_cpu(desc->len);
}

static int __init selftest_init(void)
{
	struct selftest_desc desc = { .len = cpu_to_le32(512) };
	u32 len;

	len = selftest_len(&desc);
	pr_info("static-check selftest: %u bytes\n", len);
	return 0;
}

static void __exit selftest_exit(void)
{
}

module_init(selftest_init);
module_exit(selftest_exit);
MODULE_DESCRIPTION("static-check self-test fixture");
MODULE_LICENSE("GPL");
