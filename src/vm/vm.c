// SPDX-License-Identifier: GPL-2.0
/* vm.c: ./vm: resolve the settings, then boot one VM (boot.c) or N at once (--jobs, jobs.c). */
#include <string.h>
#include <sys/stat.h>

#include "err.h"
#include "jobs.h"
#include "rapido.h"
#include "verbs.h"
#include "vm.h"

/*
 * An image nobody else may read holds a secret (./cut writes it 0600 for
 * a `#@ secret:` value); what the guest prints may repeat it (xfstests
 * prints cephfs' MOUNT_OPTIONS, key included), so everything this run
 * writes (console log, results, the state files) is kept as private.
 */
static void private_outputs(const char *image)
{
	struct stat st;

	if (!image || stat(image, &st) < 0 || (st.st_mode & 077))
		return;
	umask(umask(077) | 077);
}

int cmd_vm(int argc, char **argv)
{
	return cmd_vm_exec(argc, argv, NULL);
}

int cmd_vm_exec(int argc, char **argv, const char *cmd)
{
	struct vm_opts o = { .exec = cmd };
	struct vm_settings s;
	struct conf c;
	int rc;

	err_prog = "vm";
	err_exit_status = VM_EXIT_FAILED;
	vm_errout_init();
	if (argc > 1 && !strcmp(argv[1], "--merge-results"))
		return cmd_results_merge(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "--compare-results"))
		return cmd_results_compare(argc - 1, argv + 1);
	vm_parse_args(argc, argv, &o);
	rapido_conf_load_or_die(&c);
	vm_settings_resolve_or_die(&s, &o, &c);
	private_outputs(s.image);
	rc = s.jobs ? vm_jobs_run(&s) : vm_boot(&s);
	vm_settings_free(&s);
	vm_opts_free(&o);
	conf_free(&c);
	return rc;
}
