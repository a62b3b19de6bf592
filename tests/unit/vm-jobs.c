// SPDX-License-Identifier: GPL-2.0
/*
 * vm-jobs.c: ./vm --jobs before anything boots: the --serial-tests file,
 * MemAvailable, the memory N VMs need, and the kernel parameters that
 * tell a shard and the serial VM their part.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "jobs.h"
#include "tap.h"
#include "vm.h"

static const char meminfo[] =
	"MemTotal:        2000000 kB\n"
	"MemFree:          100000 kB\n"
	"MemAvailable:    1536000 kB\n"
	"Buffers:           10000 kB\n";

/* The kernel command line a VM of s gets. */
static char *append_of(struct vm_settings *s)
{
	struct vm_launch l = {
		.s = s, .accel = ACCEL_TCG, .vm = 2, .console_log = "/s/vm2.log",
		.qmp_path = "/s/vm2.qmp", .nonce = "0123456789abcdef0123456789abcdef",
		.hvc_path = "/s/vm2.hvc",
	};
	struct strv argv = STRV_INIT;
	char *out = NULL;

	vm_qemu_argv(&l, &argv);
	for (size_t i = 0; i + 1 < argv.n; i++)
		if (!strcmp(argv.v[i], "-append"))
			out = strdup(argv.v[i + 1]);
	strv_free(&argv);
	return out;
}

int main(void)
{
	struct strv v = STRV_INIT;
	char text[] = "# tests that fail beside others\n"
		      "  generic/336  \n"
		      "\n"
		      "fixture/b*   # the b ones: a comment after a blank\n"
		      "odd#name\n"
		      "with space\t\n";
	char quote[] = "ok/1\nbad\"name\n", ctl[] = "a\x01b\n", *err = NULL, *ap;
	uint64_t avail = 0;
	struct vm_settings s = {
		.qemu = "qemu-system-x86_64", .cpus = 1, .memory = 512ULL << 20,
		.im = { .kernel = "/boot/vmlinuz-x", .arch = arch_find("amd64") }, .image = "/i/img",
		.batch = 1, .results_dir = "/r/shard-1", .shard_i = 1, .shard_n = 2,
	};

	tap_plan(17);
	TAP_EQ_INT(serial_tests_parse("st", text, &v, &err), 0, "a --serial-tests file parses");
	tap_ok(v.n == 4 && !strcmp(v.v[0], "generic/336") && !strcmp(v.v[1], "fixture/b*") &&
	       !strcmp(v.v[2], "odd#name") && !strcmp(v.v[3], "with space"),
	       "names and globs, blanks and comments dropped, '#' inside a name kept (%zu)", v.n);
	strv_free(&v);
	TAP_EQ_INT(serial_tests_parse("st", quote, &v, &err), -EINVAL, "a '\"' is refused");
	TAP_EQ_STR(err, "st:2: 'bad\"name': a test name cannot hold '\"' (the kernel command line "
		   "carries it)", "the error names FILE:LINE and the name");
	free(err);
	strv_free(&v);
	TAP_EQ_INT(serial_tests_parse("st", ctl, &v, &err), -EINVAL, "a control character is refused");
	free(err);
	strv_free(&v);

	TAP_EQ_INT(meminfo_available(meminfo, &avail), 0, "MemAvailable is read");
	TAP_EQ_INT(avail, 1536000ULL * 1024, "in bytes");
	TAP_EQ_INT(meminfo_available("MemTotal: 5 kB\n", &avail), -EINVAL, "no MemAvailable: -EINVAL");
	TAP_EQ_INT(meminfo_available("MemAvailable: lots\n", &avail), -EINVAL, "a garbled one too");

	TAP_EQ_INT(jobs_memory_check(3, 512ULL << 20, 1536ULL << 20, &err), 0, "3 x 512M fit in 1536M");
	TAP_EQ_INT(jobs_memory_check(4, 512ULL << 20, 1536ULL << 20, &err), -ENOMEM, "4 do not");
	TAP_EQ_STR(err, "4 VMs of 512 MiB need 2048 MiB, and MemAvailable is 1536 MiB: at most 3 fit",
		   "the error says what fits");
	free(err);
	TAP_EQ_INT(jobs_memory_check(1, 2048ULL << 20, 1536ULL << 20, &err), -ENOMEM, "1 x 2G in 1536M");
	TAP_EQ_STR(err, "1 VMs of 2048 MiB need 2048 MiB, and MemAvailable is 1536 MiB: not one fits",
		   "not one fits");
	free(err);

	ap = append_of(&s);
	tap_ok(ap && strstr(ap, " rapido.shard=1/2") && !strstr(ap, "rapido.serial"),
	       "a --shard VM: no serial parameters (%s)", ap);
	free(ap);
	s.serial = SERIAL_DEFER;
	strv_push(&s.serial_tests, "generic/336");
	strv_push(&s.serial_tests, "with space");
	ap = append_of(&s);
	tap_ok(ap && strstr(ap, " rapido.shard=1/2 rapido.serial=defer rapido.serial-test=generic/336 "
			    "rapido.serial-test=with%20space"),
	       "a --jobs shard: defer, and each serial test one escaped word (%s)", ap);
	free(ap);
	s.serial = SERIAL_ONLY;
	s.shard_i = s.shard_n = 0;
	ap = append_of(&s);
	tap_ok(ap && strstr(ap, " rapido.serial=only rapido.serial-test=generic/336") &&
	       !strstr(ap, "rapido.shard="), "the serial VM: only, no shard (%s)", ap);
	free(ap);
	strv_free(&s.serial_tests);
	return tap_done();
}
