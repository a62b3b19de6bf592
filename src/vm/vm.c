// SPDX-License-Identifier: GPL-2.0
/* vm.c: ./vm: resolve options, rapido.conf and the image into a qemu launch. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "io.h"
#include "rapido.h"
#include "shwords.h"
#include "size.h"
#include "vm.h"

/* A number from --opt or KEY in rapido.conf, with the place it came from in errors. */
static unsigned long conf_number(const struct conf *c, const char *key, const char *opt,
				 unsigned long def, unsigned long max)
{
	const char *v = opt ? opt : conf_get(c, key);
	unsigned long n;
	char *end;

	if (!v || !*v)
		return def;
	n = strtoul(v, &end, 10);
	if (*end || v[0] == '-' || n > max) {
		if (opt)
			die("expected a number up to %lu, got '%s'", max, v);
		die("%s:%d: %s: expected a number up to %lu, got '%s'",
		    c->path ? c->path : "environment", conf_line(c, key), key, max, v);
	}
	return n;
}

static void split_or_die(const struct conf *c, const char *key, struct strv *out)
{
	const char *v = conf_get(c, key);
	char *err;

	if (!v)
		return;
	if (shwords_split(v, out, &err))
		die("%s:%d: %s: %s", c->path ? c->path : "environment", conf_line(c, key), key, err);
}

static uint64_t memory_or_die(const struct conf *c, const struct vm_opts *o, uint64_t profile)
{
	const char *v = o->memory ? o->memory : conf_get(c, "VM_MEMORY");
	uint64_t m;

	if (!v || !*v)
		return profile ? profile : 512ULL << 20;
	if (parse_size(v, &m) || m < (64ULL << 20)) {
		if (o->memory)
			die("--memory: expected a size of at least 64M such as 512M or 2G, got '%s'", v);
		die("%s:%d: VM_MEMORY: expected a size of at least 64M such as 512M or 2G, got '%s'",
		    c->path ? c->path : "environment", conf_line(c, "VM_MEMORY"), v);
	}
	return m;
}

static enum vm_accel choose_accel(const struct conf *c, const struct vm_opts *o,
				  const char *state_dir, int *auto_accel)
{
	const char *v = o->accel ? o->accel : conf_get(c, "QEMU_ACCEL");
	enum vm_accel a;
	const char *why;
	int rc;

	if (vm_accel_parse(v, &a))
		die("%s: expected auto, kvm or tcg, got '%s'",
		    o->accel ? "--accel" : "QEMU_ACCEL", v);
	*auto_accel = a == ACCEL_AUTO;
	if (a != ACCEL_AUTO)
		return a;
	rc = vm_kvm_usable(&why);
	if (rc) {
		if (rc != -ENOENT)
			warn("KVM: %s: %s; using TCG", why, strerror(-rc));
		return ACCEL_TCG;
	}
	if (vm_kvm_known_broken(state_dir)) {
		warn("KVM failed earlier on this host boot (%s/kvm-unusable); using TCG", state_dir);
		return ACCEL_TCG;
	}
	return ACCEL_KVM;
}

static void check_share(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) < 0)
		die_errno("share directory %s", dir);
	if (!S_ISDIR(st.st_mode))
		die("share directory %s is not a directory", dir);
}

/* vmN.mpath tells ./vmctl which paths exist: "mp0p1 SERIAL WWN SCSI-ID FILE" per line */
static void write_mpath_list(const char *state, const struct vm_launch *l)
{
	char *path = xasprintf("%s/vm%u.mpath", state, l->vm);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int rc;

	if (!f)
		die_errno("open_memstream");
	for (size_t d = 0; d < l->n_mpath; d++) {
		char *serial = vm_mpath_serial(d), *wwn = vm_mpath_wwn(d);

		for (unsigned int p = 0; p < l->mpath_paths; p++)
			fprintf(f, "mp%zup%u %s %s %zu %s\n", d, p, serial, wwn,
				vm_mpath_scsi_id(d, p, l->mpath_paths), l->mpath[d].file);
		free(serial);
		free(wwn);
	}
	fclose(f);
	rc = write_file_atomic(path, text, len, 0644);
	if (rc)
		die_err(rc, "%s", path);
	free(text);
	free(path);
}

int cmd_vm(int argc, char **argv)
{
	struct vm_opts o = { 0 };
	struct vm_image im;
	struct vm_initrd ird;
	struct vm_launch l = { 0 };
	struct conf c;
	struct strv kparams = STRV_INIT, extra = STRV_INIT, qargv = STRV_INIT;
	struct strv extra_net = STRV_INIT;
	struct vm_mpath_disk *mpath;
	char *mpath_list;
	char *image, *state, *log_dir, *log, *status_path, *qmp, *err;
	const char *v;
	unsigned int timeout, probe, max_vms;
	int lock_fd, auto_accel, rc;

	err_prog = "vm";
	err_exit_status = VM_EXIT_FAILED;
	vm_parse_args(argc, argv, &o);
	rapido_conf_load_or_die(&c);
	{
		const char *a = o.accel ? o.accel : conf_get(&c, "QEMU_ACCEL");
		enum vm_accel dummy;

		if (vm_accel_parse(a, &dummy))
			die("%s: expected auto, kvm or tcg, got '%s'", o.accel ? "--accel" : "QEMU_ACCEL", a);
	}

	image = o.image ? xstrdup(o.image) : rapido_default_image(&c);
	if (vm_image_read(image, &im, &err))
		die("%s", err);
	if (access(im.kernel, R_OK) < 0)
		die_errno("kernel %s recorded in %s", im.kernel, image);

	l.qemu = conf_get(&c, "QEMU_BIN");
	if (!l.qemu || !*l.qemu)
		l.qemu = "qemu-system-x86_64";
	l.cpus = (unsigned int)conf_number(&c, "VM_CPUS", o.cpus, im.cpus ? im.cpus : 1, 1024);
	if (!l.cpus)
		die("the VM needs at least one CPU");
	l.memory = memory_or_die(&c, &o, im.memory);
	timeout = o.timeout_set ? o.timeout : (unsigned int)conf_number(&c, "VM_TIMEOUT", NULL, 0, 7 * 24 * 3600);
	probe = (unsigned int)conf_number(&c, "KVM_PROBE_SECS", NULL, 10, 3600);
	max_vms = (unsigned int)conf_number(&c, "VM_MAX", NULL, 64, 100000);
	split_or_die(&c, "QEMU_EXTRA_KERNEL_PARAMS", &kparams);
	split_or_die(&c, "QEMU_EXTRA_ARGS", &extra);
	strv_push_all(&extra, &o.extra);
	v = conf_get(&c, "VIRTFS_SHARE_PATH");
	if (!o.shares.n && v && *v)
		strv_push(&o.shares, v);
	for (size_t i = 0; i < o.shares.n; i++)
		check_share(o.shares.v[i]);
	if (!o.mpath.n)
		split_or_die(&c, "QEMU_MPATH_DISKS", &o.mpath);
	l.mpath_paths = (unsigned int)conf_number(&c, "QEMU_MPATH_PATHS", o.mpath_paths, 2, 16);
	if (o.mpath.n && l.mpath_paths < 1)
		die("a multipath disk needs at least one path");
	if (o.mpath.n * l.mpath_paths > 256)
		die("%zu multipath disks x %u paths need more than the 256 SCSI targets of one "
		    "virtio-scsi controller", o.mpath.n, l.mpath_paths);
	mpath = xcalloc(o.mpath.n, sizeof(*mpath));
	for (size_t i = 0; i < o.mpath.n; i++) {
		mpath[i].file = o.mpath.v[i];
		vm_mpath_check_or_die(o.mpath.v[i], &mpath[i].direct);
	}
	l.mpath = mpath;
	l.n_mpath = o.mpath.n;

	state = rapido_state_dir_or_die(&c);
	rc = vm_slot_take(state, max_vms, &l.vm, &lock_fd);
	if (rc == -EBUSY)
		die("all %u VM numbers are taken (VM_MAX in rapido.conf)", max_vms);
	if (rc)
		die_err(rc, "cannot take a VM number in %s", state);
	l.accel = choose_accel(&c, &o, state, &auto_accel);

	v = conf_get(&c, "VM_LOG_DIR");
	log_dir = v && *v ? xstrdup(v) : xstrdup(state);
	if (mkdir(log_dir, 0755) < 0 && errno != EEXIST)
		die_errno("cannot create log directory %s", log_dir);
	log = o.log ? xstrdup(o.log) : xasprintf("%s/vm%u.log", log_dir, l.vm);
	status_path = xasprintf("%s/vm%u.status", state, l.vm);
	qmp = xasprintf("%s/vm%u.qmp", state, l.vm);
	mpath_list = xasprintf("%s/vm%u.mpath", state, l.vm);
	vm_net_plan(&c, &o, l.vm, &extra_net, &kparams);
	/* NICs before the user's extra arguments, which may refer to them */
	strv_push_all(&extra_net, &extra);
	strv_free(&extra);
	extra = extra_net;
	l.kernel = im.kernel;
	if (vm_initrd_prepare(image, o.dry_run, &ird, &err))
		die("%s", err);
	if (ird.needs_cache)
		warn("%s takes its layers from ./cut's cache: qemu alone cannot boot it "
		     "(./cut --standalone writes one that it can)", image);
	l.initrd = ird.path;
	l.batch = o.batch;
	l.console_log = log;
	l.status_path = status_path;
	l.qmp_path = qmp;
	l.kernel_params = &kparams;
	l.shares = &o.shares;
	l.extra = &extra;

	if (o.dry_run) {
		vm_qemu_argv(&l, &qargv);
		strv_print_quoted(stdout, &qargv);
		close_stdout();
		rc = 0;
	} else {
		/* a stale log must not pass for this run's console, nor a stale socket block qemu */
		if (truncate(log, 0) < 0 && errno != ENOENT)
			die_errno("cannot truncate console log %s", log);
		unlink(qmp);
		write_mpath_list(state, &l);
		rc = vm_run(&l, timeout, probe, auto_accel, state, lock_fd);
		unlink(qmp);
		unlink(mpath_list);
	}
	close(lock_fd);
	strv_free(&qargv);
	strv_free(&kparams);
	strv_free(&extra);
	strv_free(&o.shares);
	strv_free(&o.mpath);
	strv_free(&o.hostfwd);
	strv_free(&o.links);
	free(mpath);
	strv_free(&o.extra);
	vm_image_free(&im);
	vm_initrd_free(&ird);
	conf_free(&c);
	free(image);
	free(state);
	free(log_dir);
	free(log);
	free(status_path);
	free(qmp);
	free(mpath_list);
	return rc;
}
