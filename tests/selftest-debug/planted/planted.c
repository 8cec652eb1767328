// SPDX-License-Identifier: GPL-2.0
/*
 * A module with a defect chosen when it is loaded, for the harness's test
 * of the debug kernel: the kernel's detectors must report the defect and
 * the harness must fail the case that loaded the module.
 *
 *   defect=none   nothing wrong
 *   defect=uaf    a read of a freed buffer (KASAN)
 *   defect=leak   buffers allocated and forgotten (kmemleak)
 */

#include <linux/compiler.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#define PLANTED_LEAKS	4
#define PLANTED_SIZE	192

static char *defect = "none";
module_param(defect, charp, 0444);
MODULE_PARM_DESC(defect, "none, uaf or leak");

static noinline int planted_uaf(void)
{
	u8 *buf = kmalloc(PLANTED_SIZE, GFP_KERNEL);
	u8 seen;

	if (!buf)
		return -ENOMEM;
	memset(buf, 0x5a, PLANTED_SIZE);
	kfree(buf);
	/* the compiler is not to see that the pointer is dead */
	OPTIMIZER_HIDE_VAR(buf);
	seen = READ_ONCE(buf[PLANTED_SIZE / 2]);
	pr_info("planted: read %#x from a freed buffer\n", seen);
	return 0;
}

static noinline int planted_leak(void)
{
	int i;

	for (i = 0; i < PLANTED_LEAKS; i++) {
		u8 *buf = kmalloc(PLANTED_SIZE, GFP_KERNEL);

		if (!buf)
			return -ENOMEM;
		/* contents, as a real leak has: kmemleak needs two scans */
		memset(buf, 0xa5, PLANTED_SIZE);
		OPTIMIZER_HIDE_VAR(buf);
	}
	pr_info("planted: %d buffers of %d bytes forgotten\n", PLANTED_LEAKS,
		PLANTED_SIZE);
	return 0;
}

static int __init planted_init(void)
{
	if (!strcmp(defect, "uaf"))
		return planted_uaf();
	if (!strcmp(defect, "leak"))
		return planted_leak();
	if (strcmp(defect, "none"))
		return -EINVAL;
	pr_info("planted: nothing wrong\n");
	return 0;
}
module_init(planted_init);

static void __exit planted_exit(void)
{
}
module_exit(planted_exit);

MODULE_DESCRIPTION("Planted defects for the harness's debug kernel test");
MODULE_LICENSE("GPL");
