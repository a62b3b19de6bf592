// SPDX-License-Identifier: GPL-2.0
/* arch.c: the table of guest architectures, and which one a run is for. */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "confget.h"
#include "err.h"
#include "protocol.h"
#include "rapido.h"

static const struct arch arches[] = {
	{
		.name = "amd64", .uname = "x86_64", .triplet = "x86_64-linux-gnu",
		.kbuild = "x86", .kernel_image = "arch/x86/boot/bzImage",
		.elf_machine = EM_X86_64,
		.qemu = "qemu-system-x86_64", .qemu_pkg = "qemu-system-x86",
		.machine = "pc",
		/*
		 * every feature TCG can emulate, so more kernel code paths get
		 * exercised, but for ERMS and FSRM: with them the kernel copies
		 * and clears memory with "rep movsb"/"rep stosb", which TCG
		 * runs a byte at a time; without, 8 bytes a move. Unpacking
		 * the initramfs alone takes half the time (64 MiB: 0.3 s, not
		 * 0.6 s), and every page the guest's tests touch is cleared.
		 */
		.tcg_cpu = "max,-erms,-fsrm",
		.console = "ttyS0", .status_port = NULL, .pvpanic = "pvpanic",
		/*
		 * ttyS2 at 0x3e8, on IRQ 5: the legacy IRQ 4 is ttyS0's, and
		 * qemu does not share an ISA IRQ line between two devices
		 */
		.shell_tty = "ttyS2",
		/*
		 * Under TCG on a busy host the kernel's IO-APIC timer check can
		 * miss its ticks and panic ("IO-APIC + timer doesn't work!").
		 * There too the kernel's TSC calibration times a PIT loop the
		 * host may stall: it "deviates from HPET" and is trusted all
		 * the same (6.1 and 6.12 seen at 50 and 538 MHz for a 2.6 GHz
		 * TSC). Time on tsc-early then runs that many times fast, and
		 * the switch to the refined tsc clocksource jumps it: an RCU
		 * stall report and Call Trace in a boot that did nothing
		 * wrong. tsc=unstable keeps the kernel's time on the HPET (a
		 * clock qemu keeps from the host's), and costs no boot time.
		 */
		.tcg_kparams = "no_timer_check tsc=unstable",
	},
	{
		.name = "arm64", .uname = "aarch64", .triplet = "aarch64-linux-gnu",
		.kbuild = "arm64", .kernel_image = "arch/arm64/boot/Image",
		.elf_machine = EM_AARCH64,
		.qemu = "qemu-system-aarch64", .qemu_pkg = "qemu-system-arm",
		.machine = "virt,gic-version=3",
		/*
		 * max, but with qemu's own pointer authentication algorithm:
		 * emulating the architected QARMA one costs several times the
		 * boot time under TCG
		 */
		.tcg_cpu = "max,pauth-impdef=on",
		.console = "ttyAMA0", .status_port = PORT_STATUS, .pvpanic = "pvpanic-pci",
		.shell_tty = NULL,
		.tcg_kparams = "",
	},
};

#define N_ARCHES (sizeof(arches) / sizeof(arches[0]))

const struct arch *arch_find(const char *name)
{
	for (size_t i = 0; i < N_ARCHES; i++)
		if (!strcmp(name, arches[i].name) || !strcmp(name, arches[i].uname) ||
		    !strcmp(name, arches[i].kbuild))
			return &arches[i];
	return NULL;
}

const struct arch *arch_host(void)
{
#if defined(__x86_64__)
	return arch_find("amd64");
#elif defined(__aarch64__)
	return arch_find("arm64");
#else
#error "rapido: add this host's architecture to arches[] in src/conf/arch.c"
#endif
}

int arch_foreign(const struct arch *a)
{
	return a != arch_host();
}

const char *arch_names(void)
{
	static char buf[128];

	if (!buf[0])
		for (size_t i = 0; i < N_ARCHES; i++) {
			if (i)
				strcat(buf, ", ");
			strcat(buf, arches[i].name);
		}
	return buf;
}

int arch_from_conf(const struct conf *c, const struct arch **out, char **err)
{
	const char *v = conf_str(c, "ARCH", NULL);

	*err = NULL;
	if (!v || !*v) {
		*out = arch_host();
		return 0;
	}
	*out = arch_find(v);
	if (*out)
		return 0;
	*err = xasprintf("%s: ARCH=%s: unknown architecture (known: %s)", conf_origin(c, "ARCH"), v,
			 arch_names());
	return -EINVAL;
}

char *arch_sysroot(const struct conf *c, const struct arch *a)
{
	const char *v = conf_str(c, "SYSROOT", NULL);
	char *cache, *dir;

	if (v && *v)
		return xstrdup(v);
	cache = rapido_cache_dir();
	if (!cache)
		return NULL;
	dir = xasprintf("%s/%s/sysroot", cache, a->name);
	free(cache);
	return dir;
}
