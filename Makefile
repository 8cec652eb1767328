# SPDX-License-Identifier: GPL-2.0
#
# Builds the drivers of this tree out of tree against the installed Debian
# kernel (kbuild itself reads ./Kbuild) and runs the test bed.
#
#   make              build every module under drivers/
#   make check        static checks, build, and every test suite;
#                     T=<filter> selects cases, e.g. T=dif or T=dif/readcap;
#                     KERNEL=debug boots the guests with the debug kernel;
#                     the debug/ cases run on it when it is in the cache
#   make check-full   make debug-kernel, then make check with the
#                     nightly-size cases too (tests/run --full): the fault
#                     suite at full length, on the debug kernel as well,
#                     and the mainline drivers' results beside ours
#   make debug-kernel build (or find in the cache) the guests' debug kernel
#                     (KASAN, lockdep, kmemleak, ...) and our drivers for it
#   make demo         boot a guest and show what an administrator looks at
#   make bench        the benchmarks: our drivers against their peers
#   make qemu         build (or find in the cache) the project's QEMU
#   make series       export the tree as a kernel patch series on Debian's
#                     linux-source-6.1: a branch, patches, a pull request
#   make series-check build every commit of it in the kernel tree and run
#                     the tree's checkpatch.pl on every patch
#   make clean
#
# KVER selects the installed kernel release (default: the newest Debian one
# with both an image and headers; never the running kernel); KDIR overrides
# the build directory.  Every target installs what it needs (scripts/deps).

KVER ?= $(shell scripts/kver)
KDIR ?= /lib/modules/$(KVER)/build
T ?=
KERNEL ?=
TESTFLAGS ?=

.PHONY: all modules deps qemu debug-kernel series series-check check \
	check-full demo bench clean

all: modules

deps:
	@scripts/deps

modules: deps
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# The project's qemu-system-x86_64, cached outside the checkout.
qemu: deps
	@tests/qemu/build

# The debug kernel and our drivers built against it, cached outside the
# checkout; the first build takes long (see README.md).
debug-kernel: deps
	@scripts/debug-kernel

# The series for the kernel tree; its repository and build tree are cached
# outside the checkout, its patches go to results/series/.
series: deps
	@scripts/series

series-check: deps
	@scripts/series-check

check: modules qemu
	tests/run --kver $(KVER) --qemu $$(tests/qemu/build -q) \
		$(if $(KERNEL),--kernel $(KERNEL)) $(if $(T),-T '$(T)') $(TESTFLAGS)

check-full: debug-kernel
	$(MAKE) check TESTFLAGS="--full $(TESTFLAGS)"

demo: modules qemu
	tests/run --kver $(KVER) --qemu $$(tests/qemu/build -q) --demo

bench: modules qemu
	tests/run --kver $(KVER) --qemu $$(tests/qemu/build -q) --bench \
		$(if $(T),-T '$(T)')

clean:
	if [ -d "$(KDIR)" ]; then $(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
