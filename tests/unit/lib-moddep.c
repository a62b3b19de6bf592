// SPDX-License-Identifier: GPL-2.0
/*
 * lib-moddep.c: the walk over modules.dep, modules.softdep, modules.alias
 * and modules.builtin (moddep.h) that the guest init loads by and ./cut
 * writes the modules layer from: modprobe's order, each module once,
 * softdeps through aliases, built-in and missing names.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "moddep.h"
#include "tap.h"

static const char dep[] =
	"kernel/fs/ext4/ext4.ko: kernel/fs/jbd2/jbd2.ko kernel/fs/mbcache.ko kernel/lib/crc16.ko\n"
	"kernel/fs/jbd2/jbd2.ko:\n"
	"kernel/fs/mbcache.ko:\n"
	"kernel/lib/crc16.ko:\n"
	"kernel/crypto/crc32c_generic.ko:\n"
	"kernel/arch/x86/crypto/crc32c-intel.ko:\n"
	"kernel/drivers/misc/pvpanic/pvpanic-mmio.ko: kernel/drivers/misc/pvpanic/pvpanic.ko\n"
	"kernel/drivers/misc/pvpanic/pvpanic.ko:\n"
	"kernel/drivers/usb/host/uhci-hcd.ko:\n"
	"kernel/drivers/usb/host/ehci-hcd.ko:\n"
	"kernel/drivers/usb/host/ohci-hcd.ko:\n";
static const char soft[] =
	"# Soft dependencies extracted from modules themselves.\n"
	"softdep ext4 pre: crypto-crc32c\n"
	"softdep cifs gcm\n"
	"softdep uhci-hcd pre: ehci-hcd post: ohci_hcd nowhere\n";
static const char alias[] =
	"alias crypto-crc32c crc32c_generic\n"
	"alias crypto-crc32c crc32c_intel\n"
	"alias pci:v00001AF4d*sv*sd*bc*sc*i* nothing_loadable\n";
static const char builtin[] = "kernel/fs/configfs/configfs.ko\n";

/* the walk's order as "a b c" */
static char *walk(struct moddep *d, const char *const *names, size_t n, struct strv *missing)
{
	size_t *order = NULL, norder = 0, len = 1;
	char *s;

	moddep_walk(d, names, n, &order, &norder, missing);
	for (size_t i = 0; i < norder; i++)
		len += strlen(d->v[order[i]].name) + 1;
	s = xcalloc(1, len);
	for (size_t i = 0; i < norder; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, d->v[order[i]].name);
	}
	free(order);
	return s;
}

int main(void)
{
	struct moddep d;
	struct strv missing = STRV_INIT;
	const char *ext4[] = { "ext4" };
	const char *again[] = { "jbd2", "pvpanic_mmio" };
	const char *names[] = { "configfs", "no_such_module", "uhci_hcd" };
	char *got;

	tap_plan(9);
	tap_ok(moddep_parse(&d, xstrdup(dep), soft, alias, builtin) == 0, "fixture parses");
	tap_ok(d.n == 11, "one module a line: %zu", d.n);
	tap_ok(moddep_find(&d, "pvpanic-mmio") >= 0 && moddep_find(&d, "pvpanic_mmio") >= 0 &&
	       moddep_find(&d, "pvpanic_mmio_x") < 0, "names found either way, '-' or '_'");

	got = walk(&d, ext4, 1, &missing);
	/* pre softdep through its alias (both modules), then the needs deepest first, then ext4 */
	tap_ok(!strcmp(got, "crc32c_generic crc32c_intel crc16 mbcache jbd2 ext4"),
	       "ext4: pre softdeps by alias, its needs last listed first, itself: %s", got);
	free(got);

	got = walk(&d, again, 2, &missing);
	tap_ok(!strcmp(got, "pvpanic pvpanic_mmio"), "a second walk loads nothing twice: %s", got);
	free(got);

	got = walk(&d, names, 3, &missing);
	tap_ok(!strcmp(got, "ehci_hcd uhci_hcd ohci_hcd"),
	       "pre softdep before, post after; a softdep found nowhere is left out: %s", got);
	free(got);
	tap_ok(missing.n == 1 && !strcmp(missing.v[0], "no_such_module"),
	       "only the name neither loadable nor built in is missing (%zu)", missing.n);

	moddep_reset(&d);
	got = walk(&d, again, 1, NULL);
	tap_ok(!strcmp(got, "jbd2"), "after a reset a module is walked again: %s", got);
	free(got);
	moddep_free(&d);

	{
		char *bad = xstrdup("kernel/a.ko\n");

		tap_ok(moddep_parse(&d, bad, NULL, NULL, NULL) == -EINVAL, "a line without ':' is refused");
		moddep_free(&d);
	}
	strv_free(&missing);
	return tap_done();
}
