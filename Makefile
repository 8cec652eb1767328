# SPDX-License-Identifier: GPL-2.0
#
# Builds the drivers of this tree out of tree against the installed Debian
# kernel (kbuild itself reads ./Kbuild) and runs the test bed.
#
#   make              build every module under drivers/
#   make check        static checks, build, and every test suite;
#                     T=<filter> selects cases, e.g. T=dif or T=dif/readcap
#   make demo         boot a guest and show what an administrator looks at
#   make bench        the benchmarks: our drivers against their peers
#   make qemu         build (or find in the cache) the project's QEMU
#   make clean
#
# KVER selects the installed kernel release (default: the newest Debian one
# with both an image and headers; never the running kernel); KDIR overrides
# the build directory.  Every target installs what it needs (scripts/deps).

KVER ?= $(shell scripts/kver)
KDIR ?= /lib/modules/$(KVER)/build
T ?=
TESTFLAGS ?=

.PHONY: all modules deps qemu check demo bench clean

all: modules

deps:
	@scripts/deps

modules: deps
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# The project's qemu-system-x86_64, cached outside the checkout.
qemu: deps
	@tests/qemu/build

check: modules qemu
	tests/run --kver $(KVER) --qemu $$(tests/qemu/build -q) \
		$(if $(T),-T '$(T)') $(TESTFLAGS)

demo: modules qemu
	tests/run --kver $(KVER) --qemu $$(tests/qemu/build -q) --demo

bench: modules qemu
	tests/run --kver $(KVER) --qemu $$(tests/qemu/build -q) --bench \
		$(if $(T),-T '$(T)')

clean:
	if [ -d "$(KDIR)" ]; then $(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
