// SPDX-License-Identifier: GPL-2.0
/* args.c: ./vm command line, parsed by the option table (options.c). */
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "options.h"
#include "rapido.h"
#include "vm.h"

void vm_parse_args(int argc, char **argv, struct vm_opts *o)
{
	int split = argc;

	/* everything after the first "--" goes to qemu untouched */
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			split = i;
			break;
		}
	/*
	 * vng's habit, ./vm -- CMD: qemu would take CMD for a disk image and
	 * fail on CMD's options after the boot began. A lone word that names
	 * no file is a command: say where commands go, before qemu runs.
	 */
	if (split + 1 < argc && argv[split + 1][0] != '-' && access(argv[split + 1], F_OK) < 0)
		usage_die(VM_EXIT_FAILED, "'%s' after --: the words after -- are qemu's arguments "
			  "(a lone word is a disk image); to run a command in the guest: "
			  "rapido run -- %s ... (./run in a checkout), or ./cut PROFILE -x 'CMD' "
			  "then ./vm --batch", argv[split + 1], argv[split + 1]);
	for (int i = split + 1; i < argc; i++)
		strv_push(&o->extra, argv[i]);
	argc = split;

	optind = vm_options_parse(vm_options, argc, argv, o);
	if (optind < argc)
		o->image = path_arg_or_die("IMAGE", argv[optind++]);
	if (optind < argc) {
		usage_die(VM_EXIT_FAILED, "unexpected argument '%s' (qemu arguments go after --)",
			  argv[optind]);
	}
}
