// SPDX-License-Identifier: GPL-2.0
/* args.c: ./vm command line. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "rapido.h"
#include "verdict.h"
#include "version.h"
#include "vm.h"

static void usage(void)
{
	printf("Usage:\n"
	       " vm [options] [IMAGE] [-- QEMU-ARGS...]\n"
	       "\n"
	       "Boot IMAGE (default: the last ./cut output) in qemu and exit with the\n"
	       "guest's status.\n"
	       "\n"
	       "Options:\n"
	       " -b, --batch            run the autorun scripts and power off (no shell)\n"
	       " -t, --timeout SECS     end after SECS seconds from ./vm's start, qemu killed,\n"
	       "                          whatever step is stuck (default VM_TIMEOUT)\n"
	       " -n, --dry-run          print the qemu command line, one argument per line\n"
	       "     --accel MODE       auto, kvm or tcg (default QEMU_ACCEL, else auto)\n"
	       "     --cpus N           virtual CPUs (default: VM_CPUS, the profile, 1)\n"
	       "     --memory SIZE      memory, e.g. 1G (default: VM_MEMORY, the profile, 512M)\n"
	       "     --log PATH         also write the console to PATH\n"
	       "                          (default VM_LOG_DIR/vmN.log)\n"
	       "     --share DIR        share host DIR with the guest (9p) at /host\n"
	       "                          (default VIRTFS_SHARE_PATH)\n"
	       "     --mpath FILE       attach FILE as a multipath disk: one SCSI LUN seen\n"
	       "                          through several paths (repeatable; default\n"
	       "                          QEMU_MPATH_DISKS)\n"
	       "     --mpath-paths N    paths per multipath disk (default QEMU_MPATH_PATHS, 2)\n"
	       "     --rbd POOL/IMAGE   attach a Ceph RBD image as a virtio disk (serial rbdN)\n"
	       "                          through qemu's rbd driver, with CEPH_CONF and\n"
	       "                          CEPH_KEYRING (repeatable; default QEMU_RBD_DISKS)\n"
	       "     --net MODE         eth0: tap (bridge, TAP_DEVS), user (no root) or none\n"
	       "                          (default NET, else none)\n"
	       "     --tap NAME         use TAP device NAME for eth0 (implies --net tap)\n"
	       "     --hostfwd SPEC     user mode: forward a host port, e.g.\n"
	       "                          tcp:127.0.0.1:2222-:22 (implies --net user)\n"
	       "     --link-listen HOST:PORT   VM-to-VM link: wait for a peer on HOST:PORT\n"
	       "     --link-connect HOST:PORT  VM-to-VM link: connect to a listening peer\n"
	       "     --append ARGS      add ARGS to the kernel command line (after\n"
	       "                          QEMU_EXTRA_KERNEL_PARAMS; printk.time=1 comes last;\n"
	       "                          the whole line at most 2047 bytes, no rapido.* keys)\n"
	       "     --gdb[=HOST:PORT]  gdb stub (default 127.0.0.1, port 1233+N for VM N);\n"
	       "                          turns KASLR off and prints the gdb command\n"
	       "     --gdb-wait         with --gdb: stop the CPUs until gdb continues\n"
	       "     --results DIR      per-test results in DIR: junit.xml, results.tap (KTAP),\n"
	       "                          results.txt (records as they came), console.log,\n"
	       "                          files/ (the guest's $RAPIDO_RESULTS_DIR, over 9p,\n"
	       "                          emptied first) (default VM_RESULTS_DIR)\n"
	       "     --shard I/N        run shard I of N of the profile's tests (default VM_SHARD)\n"
	       "     --splats LIST      kernel report kinds that fail a passing run: all,\n"
	       "                          kinds, -KIND to leave one out, e.g. all,-warning;\n"
	       "                          none (only that word) turns detection off, an\n"
	       "                          empty or all-negative list is refused\n"
	       "                          (default VM_SPLATS, else all); a report while a\n"
	       "                          test runs fails that test, naming its first line\n"
	       "                          and its lines in console.log\n"
	       "     --splats-allow FILE  kernel reports that fail nothing but are listed:\n"
	       "                          lines of REGEX # REASON, REGEX (POSIX extended)\n"
	       "                          matched against a report's first line\n"
	       "                          (default VM_SPLATS_ALLOW)\n"
	       "     --test-timeout SECS  with --results: a test running longer gets the\n"
	       "                          guest's blocked and all task stacks (sysrq w, t)\n"
	       "                          in its output and is an error (no progress after\n"
	       "                          SECS s); the VM is stopped, the planned tests not\n"
	       "                          yet run are errors too, and without a plan a\n"
	       "                          failed testcase says later tests may not have run\n"
	       "                          (default VM_TEST_TIMEOUT, else the profile's\n"
	       "                          #@ test-timeout, else 0: none)\n"
	       "     --test-timeout-dump  with --test-timeout: first write a vmcore of the\n"
	       "                          guest (DIR/vmcore; default VM_TEST_TIMEOUT_DUMP)\n"
	       "     --jobs N           with --batch and --results DIR: the tests as N shards\n"
	       "                          (--shard I/N) in N VMs at once, each with its own VM\n"
	       "                          number, results in DIR/shard-I, merged into DIR as\n"
	       "                          --merge-results does; N x the memory must fit in\n"
	       "                          MemAvailable; exits 0 only if every shard ran and\n"
	       "                          passed, else the highest shard's status (at least\n"
	       "                          1); SIGINT/SIGTERM stop every VM, exit 128+SIG\n"
	       "                          (default VM_JOBS, 0: one VM)\n"
	       "     --serial-tests FILE  with --jobs: tests (names or globs, one a line, '#'\n"
	       "                          comments) run in one VM after the others, in\n"
	       "                          DIR/serial, as xfstests' unreliable_in_parallel\n"
	       "                          group always is (default VM_SERIAL_TESTS)\n"
	       "     --compare-results A B  alias of rapido results compare (kept for a while):\n"
	       "                          print the tests whose verdict changed from result\n"
	       "                          directory A to B; exits 1 if B regressed (must be\n"
	       "                          the first option)\n");
	known_help(stdout);
	printf(	       "     --merge-results OUT DIR...  alias of rapido results merge (kept for a while):\n"
	       "                          merge result directories (shards) into OUT:\n"
	       "                          junit.xml, results.tap, summary.txt; exits 1 if any\n"
	       "                          run failed, its status is unknown or a shard of\n"
	       "                          its split is missing (must be the first option;\n"
	       "                          it takes the known-failure options too, before OUT)\n"
	       "     --version          print the version, and dracut's and qemu's\n"
	       " -h, --help             display this help\n"
	       "\n");
	verdict_help(stdout);
	printf("\n"
	       "Interactive consoles: Ctrl-a x quits qemu, Ctrl-a c toggles its monitor.\n");
}

enum {
	OPT_ACCEL = CHAR_MAX + 1,
	OPT_CPUS,
	OPT_MEMORY,
	OPT_LOG,
	OPT_SHARE,
	OPT_MPATH,
	OPT_MPATH_PATHS,
	OPT_RBD,
	OPT_NET,
	OPT_TAP,
	OPT_HOSTFWD,
	OPT_LINK_LISTEN,
	OPT_LINK_CONNECT,
	OPT_APPEND,
	OPT_GDB,
	OPT_GDB_WAIT,
	OPT_RESULTS,
	OPT_SHARD,
	OPT_SPLATS,
	OPT_JOBS,
	OPT_SERIAL_TESTS,
	OPT_SPLATS_ALLOW,
	OPT_TEST_TIMEOUT,
	OPT_TEST_TIMEOUT_DUMP,
	OPT_KNOWN,	/* KNOWN_NOPTS of them (known.h) */
};

void vm_parse_args(int argc, char **argv, struct vm_opts *o)
{
	static const struct option longopts[] = {
		{ "batch", no_argument, NULL, 'b' },
		{ "timeout", required_argument, NULL, 't' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "accel", required_argument, NULL, OPT_ACCEL },
		{ "cpus", required_argument, NULL, OPT_CPUS },
		{ "memory", required_argument, NULL, OPT_MEMORY },
		{ "log", required_argument, NULL, OPT_LOG },
		{ "share", required_argument, NULL, OPT_SHARE },
		{ "mpath", required_argument, NULL, OPT_MPATH },
		{ "mpath-paths", required_argument, NULL, OPT_MPATH_PATHS },
		{ "rbd", required_argument, NULL, OPT_RBD },
		{ "net", required_argument, NULL, OPT_NET },
		{ "tap", required_argument, NULL, OPT_TAP },
		{ "hostfwd", required_argument, NULL, OPT_HOSTFWD },
		{ "link-listen", required_argument, NULL, OPT_LINK_LISTEN },
		{ "link-connect", required_argument, NULL, OPT_LINK_CONNECT },
		{ "append", required_argument, NULL, OPT_APPEND },
		{ "gdb", optional_argument, NULL, OPT_GDB },
		{ "gdb-wait", no_argument, NULL, OPT_GDB_WAIT },
		{ "results", required_argument, NULL, OPT_RESULTS },
		{ "shard", required_argument, NULL, OPT_SHARD },
		{ "splats", required_argument, NULL, OPT_SPLATS },
		{ "jobs", required_argument, NULL, OPT_JOBS },
		{ "serial-tests", required_argument, NULL, OPT_SERIAL_TESTS },
		{ "splats-allow", required_argument, NULL, OPT_SPLATS_ALLOW },
		{ "test-timeout", required_argument, NULL, OPT_TEST_TIMEOUT },
		{ "test-timeout-dump", no_argument, NULL, OPT_TEST_TIMEOUT_DUMP },
		KNOWN_LONGOPTS(OPT_KNOWN),
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, split = argc;

	/* everything after the first "--" goes to qemu untouched */
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			split = i;
			break;
		}
	for (int i = split + 1; i < argc; i++)
		strv_push(&o->extra, argv[i]);
	argc = split;

	while ((c = getopt_long(argc, argv, "bt:nh", longopts, NULL)) != -1) {
		switch (c) {
		case 'b':
			o->batch = 1;
			break;
		case 't':
			o->timeout = optarg;	/* checked with the other settings */
			break;
		case 'n':
			o->dry_run = 1;
			break;
		case OPT_ACCEL:
			o->accel = optarg;
			break;
		case OPT_CPUS:
			o->cpus = optarg;
			break;
		case OPT_MEMORY:
			o->memory = optarg;
			break;
		case OPT_LOG:
			o->log = path_arg_or_die("--log", optarg);
			break;
		case OPT_SHARE:
			strv_push(&o->shares, path_arg_or_die("--share", optarg));
			break;
		case OPT_MPATH:
			strv_push(&o->mpath, optarg);
			break;
		case OPT_MPATH_PATHS:
			o->mpath_paths = optarg;
			break;
		case OPT_RBD:
			strv_push(&o->rbd, optarg);
			break;
		case OPT_NET:
			o->net = optarg;
			break;
		case OPT_TAP:
			o->tap = optarg;
			break;
		case OPT_HOSTFWD:
			strv_push(&o->hostfwd, optarg);
			break;
		case OPT_LINK_LISTEN:
		case OPT_LINK_CONNECT:
			o->links = xrealloc(o->links, (o->n_links + 1) * sizeof(*o->links));
			o->links[o->n_links].listen = c == OPT_LINK_LISTEN;
			o->links[o->n_links++].hostport = optarg;
			break;
		case OPT_APPEND:
			strv_push(&o->append, optarg);
			break;
		case OPT_GDB:
			o->gdb = optarg ? optarg : "";
			break;
		case OPT_GDB_WAIT:
			o->gdb_wait = 1;
			break;
		case OPT_RESULTS:
			o->results = path_arg_or_die("--results", optarg);
			break;
		case OPT_SHARD:
			o->shard = optarg;
			break;
		case OPT_SPLATS:
			o->splats = optarg;
			break;
		case OPT_JOBS:
			o->jobs = optarg;
			break;
		case OPT_SERIAL_TESTS:
			o->serial_tests = path_arg_or_die("--serial-tests", optarg);
			break;
		case OPT_SPLATS_ALLOW:
			o->splats_allow = path_arg_or_die("--splats-allow", optarg);
			break;
		case OPT_TEST_TIMEOUT:
			o->test_timeout = optarg;
			break;
		case OPT_TEST_TIMEOUT_DUMP:
			o->test_timeout_dump = "yes";
			break;
		case OPT_KNOWN ... OPT_KNOWN + KNOWN_NOPTS - 1:
			known_cli_opt(&o->known, c, OPT_KNOWN, optarg);
			break;
		case 'V':
			version_print("vm");
			exit(0);
		case 'h':
			usage();
			close_stdout();
			exit(0);
		default:
			usage_die(VM_EXIT_FAILED, NULL);
		}
	}
	if (optind < argc)
		o->image = path_arg_or_die("IMAGE", argv[optind++]);
	if (optind < argc) {
		usage_die(VM_EXIT_FAILED, "unexpected argument '%s' (qemu arguments go after --)",
			  argv[optind]);
	}
}
