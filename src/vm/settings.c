// SPDX-License-Identifier: GPL-2.0
/*
 * settings.c: resolve ./vm's settings once (see settings.h). Each value is
 * looked up through setting(): the option if given, else the key from the
 * environment or rapido.conf through its confkeys[] entry (confget.h),
 * else the image's own need, else the table's default; its source goes
 * with it, so every error names the option, the FILE:LINE or the
 * environment, and says what the table allows.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "ifname.h"
#include "confget.h"
#include "num.h"
#include "rapido.h"
#include "results.h"
#include "shwords.h"
#include "vm.h"

extern char **environ;

const char *vm_src_str(const struct vm_src *s, char *buf, size_t len)
{
	switch (s->kind) {
	case SRC_OPTION:
		snprintf(buf, len, "%s", s->name);
		break;
	case SRC_ENV:
		snprintf(buf, len, "environment: %s", s->name);
		break;
	case SRC_FILE:
		snprintf(buf, len, "%s: %s", s->file, s->name);
		break;
	case SRC_IMAGE:
		snprintf(buf, len, "profile %s", s->name);
		break;
	default:
		snprintf(buf, len, "default");
		break;
	}
	return buf;
}

int vm_accel_parse(const char *s, enum vm_accel *out)
{
	if (!s || !*s || !strcasecmp(s, "auto"))
		*out = ACCEL_AUTO;
	else if (!strcasecmp(s, "kvm"))
		*out = ACCEL_KVM;
	else if (!strcasecmp(s, "tcg"))
		*out = ACCEL_TCG;
	else
		return -1;
	return 0;
}

/* The source of a resolved value: the option, the file's line, the environment or the default. */
static void value_src(const struct conf_value *v, struct vm_src *src)
{
	memset(src, 0, sizeof(*src));
	src->name = v->key;
	if (!v->set) {
		src->kind = SRC_DEFAULT;
	} else if (!strcmp(v->origin, "environment")) {
		src->kind = SRC_ENV;
	} else {
		src->kind = SRC_FILE;
		src->file = v->origin;	/* FILE:LINE */
	}
}

/*
 * The one lookup: the option's value if given, else KEY resolved through
 * confkeys[] (its value, else its default), either checked against KEY's
 * kind there; a value the table refuses dies naming its source. Returns
 * the value's text, NULL when KEY is unset and has no default; v holds it
 * parsed (v->n, v->word, v->addr).
 */
static const char *setting(const struct conf *c, const char *opt, const char *optval,
			   const char *key, struct vm_src *src, struct conf_value *v)
{
	const struct confkey *k = confkey_find(key);
	char *err;

	if (!k)
		die("internal error: %s is not in confkeys[]", key);
	if (optval) {
		memset(src, 0, sizeof(*src));
		src->kind = SRC_OPTION;
		src->name = opt;
		memset(v, 0, sizeof(*v));
		v->key = key;
		v->set = 1;
		v->origin = opt;
		if (confkey_parse(k, optval, v, &err))
			die("%s: %s", opt, err);
		return optval;
	}
	if (conf_resolve_as(c, k, key, v, &err) < 0)
		die("%s", err);
	value_src(v, src);
	return v->text;
}

static noreturn void die_src(const struct vm_src *src, const char *fmt, const char *v)
{
	char where[512];

	die("%s: %s, got '%s'", vm_src_str(src, where, sizeof(where)), fmt, v);
}

/* A number in the range confkeys[] gives KEY: one range for ./vm and --check-conf. */
static unsigned int number(const struct conf *c, const char *opt, const char *optval,
			   const char *key, struct vm_src *src)
{
	struct conf_value v;

	setting(c, opt, optval, key, src, &v);
	return (unsigned int)v.n;
}

/* KEY's words, appended to out */
static void split(const struct conf *c, const char *key, struct strv *out)
{
	char *err;

	if (conf_words(c, key, out, NULL, &err) < 0)
		die("%s", err);
}

static void resolve_machine(struct vm_settings *s, const struct vm_opts *o, const struct conf *c)
{
	struct vm_src src;
	struct conf_value v;

	/* the profile's own need comes before the table's default */
	s->cpus = number(c, "--cpus", o->cpus, "VM_CPUS", &s->cpus_src);
	if (s->cpus_src.kind == SRC_DEFAULT && s->im.cpus) {
		s->cpus = s->im.cpus;
		s->cpus_src.kind = SRC_IMAGE;
		s->cpus_src.name = s->im.profile;
	}
	setting(c, "--memory", o->memory, "VM_MEMORY", &s->memory_src, &v);
	s->memory = v.n;
	if (s->memory_src.kind == SRC_DEFAULT && s->im.memory) {
		s->memory = s->im.memory;
		s->memory_src.kind = SRC_IMAGE;
		s->memory_src.name = s->im.profile;
	}

	s->kvm_probe_secs = number(c, NULL, NULL, "KVM_PROBE_SECS", &src);
	s->max_vms = number(c, NULL, NULL, "VM_MAX", &src);
	split(c, "QEMU_EXTRA_KERNEL_PARAMS", &s->kparams);
	split(c, "QEMU_EXTRA_ARGS", &s->extra);
}

static void resolve_disks(struct vm_settings *s, struct vm_opts *o, const struct conf *c)
{
	struct vm_src src;
	struct conf_value cv;
	const char *v;

	/* options replace the key's list, they do not add to it */
	if (o->shares.n) {
		s->shares = o->shares;
		o->shares = (struct strv)STRV_INIT;
	} else if ((v = setting(c, NULL, NULL, "VIRTFS_SHARE_PATH", &src, &cv))) {
		strv_push(&s->shares, v);
	}
	for (size_t i = 0; i < s->shares.n; i++) {
		struct stat st;

		if (stat(s->shares.v[i], &st) < 0)
			die_errno("share directory %s", s->shares.v[i]);
		if (!S_ISDIR(st.st_mode))
			die("share directory %s is not a directory", s->shares.v[i]);
	}

	if (!o->mpath.n)
		split(c, "QEMU_MPATH_DISKS", &o->mpath);
	s->mpath_paths = number(c, "--mpath-paths", o->mpath_paths, "QEMU_MPATH_PATHS", &src);
	if (o->mpath.n && s->mpath_paths < 1)
		die("a multipath disk needs at least one path");
	if (o->mpath.n * s->mpath_paths > 256)
		die("%zu multipath disks x %u paths need more than the 256 SCSI targets of one "
		    "virtio-scsi controller", o->mpath.n, s->mpath_paths);
	s->n_mpath = o->mpath.n;
	s->mpath = xcalloc(s->n_mpath ? s->n_mpath : 1, sizeof(*s->mpath));
	for (size_t i = 0; i < o->mpath.n; i++) {
		s->mpath[i].file = xstrdup(o->mpath.v[i]);
		vm_mpath_check_or_die(o->mpath.v[i], &s->mpath[i].direct);
	}
}

/* HOST:PORT for qemu's -netdev/-gdb, where a comma would start another option. */
static void hostport_or_die(const char *opt, const char *v, char **host, unsigned int *port)
{
	char why[NUM_WHY_LEN];

	if (num_parse_hostport(v, host, port, why))
		die("%s: %s", opt, why);
	if (strchr(v, ',')) {
		free(*host);
		die("%s: '%s' contains a comma, which qemu would read as another option", opt, v);
	}
}

/* VM<n>_IP or VM<n>_IP<m>: 0 and the numbers, or -1 */
static int ip_key(const char *key, unsigned int *vm, unsigned int *nic)
{
	size_t digits;
	char num[16];

	/* "VM" first: a shorter name (the environment's "_") has no key + 2 */
	if (strncmp(key, "VM", 2))
		return -1;
	digits = strspn(key + 2, "0123456789");
	if (!digits || digits >= sizeof(num) || strncmp(key + 2 + digits, "_IP", 3))
		return -1;
	memcpy(num, key + 2, digits);
	num[digits] = '\0';
	if (num_parse_uint(num, 1, 100000, vm, NULL))
		return -1;
	*nic = 0;
	if (key[5 + digits] && num_parse_uint(key + 5 + digits, 0, 63, nic, NULL))
		return -1;
	return 0;
}

static void add_static_ip(struct vm_settings *s, const struct conf *c, const char *key)
{
	struct vm_static_ip ip;
	struct vm_src src;
	struct conf_value v;

	if (ip_key(key, &ip.vm, &ip.nic))
		return;
	for (size_t i = 0; i < s->n_ips; i++)
		if (s->ips[i].vm == ip.vm && s->ips[i].nic == ip.nic)
			return;		/* the environment and the file name it once */
	if (!setting(c, NULL, NULL, key, &src, &v))
		return;
	ip.addr = v.addr;
	s->ips = xrealloc(s->ips, (s->n_ips + 1) * sizeof(*s->ips));
	s->ips[s->n_ips++] = ip;
}

static void resolve_net(struct vm_settings *s, struct vm_opts *o, const struct conf *c)
{
	struct conf_value cv;
	const char *v;

	setting(c, "--net", o->net, "NET", &s->net_src, &cv);
	v = cv.word;
	/* unset: what the other options ask for, else the table's default */
	if (s->net_src.kind == SRC_DEFAULT && (o->tap || o->hostfwd.n))
		v = o->tap ? "tap" : "user";
	s->net = !strcmp(v, "tap") ? NET_TAP : !strcmp(v, "user") ? NET_USER : NET_NONE;

	s->tap = o->tap;
	if (s->tap && !ifname_valid(s->tap))
		die("--tap: '%s' is not a valid interface name (" IFNAME_RULE ")", s->tap);
	/* unset: VM N takes rapido-tapN (net.c), past the two ./netsetup makes by default */
	v = setting(c, NULL, NULL, "TAP_DEVS", &s->tap_devs_src, &cv);
	if (s->tap_devs_src.kind != SRC_DEFAULT) {
		char *err, where[512];

		if (tap_devs_parse(v, &s->tap_devs, &err))
			die("%s: %s", vm_src_str(&s->tap_devs_src, where, sizeof(where)), err);
	}

	if (o->hostfwd.n) {
		s->hostfwd = o->hostfwd;
		o->hostfwd = (struct strv)STRV_INIT;
	} else if (s->net == NET_USER) {
		split(c, "USER_HOSTFWD", &s->hostfwd);
	}
	for (size_t i = 0; i < s->hostfwd.n; i++)
		/* tcp:127.0.0.1:2222-:22, as qemu's hostfwd= */
		if (strchr(s->hostfwd.v[i], ',') || !strchr(s->hostfwd.v[i], '-'))
			die("port forward '%s': expected [tcp|udp]:[HOSTADDR]:HOSTPORT-[GUESTADDR]:GUESTPORT",
			    s->hostfwd.v[i]);

	setting(c, NULL, NULL, "BR_ADDR", &s->br_net_src, &cv);
	s->br_net = cv.addr;
	setting(c, NULL, NULL, "LINK_SUBNET", &s->link_net_src, &cv);
	s->link_net = cv.addr;

	/* every VM<n>_IP[<m>], the environment's first (it wins), checked now */
	for (char **e = environ; c->env_override && *e; e++) {
		char *key = xstrndup(*e, strcspn(*e, "="));

		add_static_ip(s, c, key);
		free(key);
	}
	for (size_t i = 0; i < c->n; i++)
		add_static_ip(s, c, c->e[i].key);

	s->links = xcalloc(o->links.n ? o->links.n : 1, sizeof(*s->links));
	for (size_t i = 0; i < o->links.n; i++) {
		struct vm_link *l = &s->links[s->n_links++];
		unsigned int port;
		char *host;

		l->listen = o->links.v[i][0] == 'L';
		l->hostport = xstrdup(o->links.v[i] + 1);
		hostport_or_die(l->listen ? "--link-listen" : "--link-connect", l->hostport, &host, &port);
		free(host);
	}
}

/* gdb's stub listens on loopback unless a host is given: a debug port is root on the guest */
static void resolve_debug(struct vm_settings *s, const struct vm_opts *o, const struct conf *c)
{
	struct vm_src src;
	struct conf_value v;

	if (o->gdb) {
		s->gdb = 1;
		s->gdb_wait = o->gdb_wait;
		if (!*o->gdb)
			s->gdb_host = xstrdup("127.0.0.1");
		else
			hostport_or_die("--gdb", o->gdb, &s->gdb_host, &s->gdb_port);
	} else if (o->gdb_wait) {
		die("--gdb-wait needs --gdb");
	}
	s->vmcore_keep = number(c, NULL, NULL, "VM_VMCORE_KEEP", &src);
	setting(c, NULL, NULL, "VM_VMCORE_FORMAT", &src, &v);
	s->vmcore_format = v.word;
}

static void resolve_dirs(struct vm_settings *s, const struct vm_opts *o, const struct conf *c)
{
	struct vm_src src;
	struct conf_value cv;
	const char *v;

	s->state_dir = rapido_state_dir_or_die(c);
	s->lock_dir = vm_lock_dir_or_die(c);
	v = setting(c, NULL, NULL, "VM_LOG_DIR", &src, &cv);
	s->log_dir = xstrdup(v ? v : s->state_dir);
	if (mkdir(s->log_dir, 0755) < 0 && errno != EEXIST)
		die_errno("cannot create log directory %s", s->log_dir);
	s->log = o->log;
}

/* mkdir -p: every missing directory of path */
static void mkdir_p_or_die(const char *what, const char *path)
{
	char *p = xstrdup(path), c;

	for (char *q = p + 1; ; q++) {
		if (*q != '/' && *q)
			continue;
		c = *q;
		*q = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST)
			die_errno("%s: cannot create %s", what, p);
		*q = c;
		if (!c)
			break;
	}
	free(p);
}

static void resolve_results(struct vm_settings *s, const struct vm_opts *o, const struct conf *c)
{
	struct vm_src src;
	struct conf_value cv;
	const char *v;
	char where[512], *files;

	v = setting(c, "--results", o->results, "VM_RESULTS_DIR", &s->results_src, &cv);
	if (v) {
		vm_src_str(&s->results_src, where, sizeof(where));
		if (strchr(v, ','))
			die_src(&s->results_src, "expected a directory without ',' (qemu's option syntax)", v);
		/* --dry-run creates nothing; a run clears DIR/files (collect.c) */
		files = xasprintf("%s/files", v);
		if (!s->dry_run)
			mkdir_p_or_die(where, files);
		free(files);
		s->results_dir = realpath(v, NULL);
		if (!s->results_dir && s->dry_run && errno == ENOENT) {
			char *cwd = getcwd(NULL, 0);

			if (!cwd)
				die_errno("getcwd");
			s->results_dir = *v == '/' ? xstrdup(v) : xasprintf("%s/%s", cwd, v);
			free(cwd);
		}
		if (!s->results_dir)
			die_errno("%s: %s", where, v);
	}
	v = setting(c, "--shard", o->shard, "VM_SHARD", &src, &cv);
	if (v) {
		char *i = xstrndup(v, strcspn(v, "/"));
		int bad = !v[strlen(i)] || num_parse_uint(i, 1, 10000, &s->shard_i, NULL) ||
			  num_parse_uint(v + strlen(i) + 1, s->shard_i, 10000, &s->shard_n, NULL);

		free(i);
		if (bad)
			die_src(&src, "expected I/N with 1 <= I <= N <= 10000, such as 2/4", v);
	}
	v = setting(c, "--splats", o->splats, "VM_SPLATS", &src, &cv);
	if (v) {
		char *err;

		if (splat_mask_parse(v, &s->splat_mask, &err)) {
			die("%s: %s", vm_src_str(&src, where, sizeof(where)), err);
		}
	}
}

/*
 * rapido.* on the kernel command line is ./vm's and the guest init's
 * (rapido.nonce, rapido.vm, rapido.batch, rapido.status, rapido.results,
 * ...): a second rapido.nonce= could forge the verdict's frame.
 */
static void kparams_own_or_die(const struct strv *k, size_t from, const char *what)
{
	for (size_t i = from; i < k->n; i++)
		if (!strncmp(k->v[i], "rapido.", 7))
			die("%s: '%s': the kernel's rapido.* parameters are set by ./vm (rapido.nonce=, "
			    "rapido.vm=, rapido.batch=, ...) and read by the guest init; use the "
			    "profile or rapido.conf instead", what, k->v[i]);
}

void vm_settings_resolve_or_die(struct vm_settings *s, struct vm_opts *o, const struct conf *c)
{
	struct vm_src src;
	struct conf_value cv;
	const char *v;
	char *err;

	memset(s, 0, sizeof(*s));
	s->batch = o->batch;
	s->dry_run = o->dry_run;
	/* first: --timeout covers every step from here, reading the image included */
	s->timeout = number(c, "--timeout", o->timeout, "VM_TIMEOUT", &s->timeout_src);
	vm_deadline_arm(s->timeout);
	vm_deadline_step("reading the image");
	/* what needs no image first: a typo must not hide behind a missing image */
	s->qemu = setting(c, NULL, NULL, "QEMU_BIN", &s->qemu_src, &cv);
	setting(c, "--accel", o->accel, "QEMU_ACCEL", &s->accel_src, &cv);
	if (vm_accel_parse(cv.word, &s->accel))
		die("internal error: QEMU_ACCEL=%s", cv.word);

	if (o->image) {
		s->image = xstrdup(o->image);
		s->image_src.kind = SRC_OPTION;
		s->image_src.name = "IMAGE";
	} else {
		s->image = rapido_default_image(c);
		setting(c, NULL, NULL, "DRACUT_OUT", &s->image_src, &cv);
	}
	if (vm_image_read(s->image, &s->im, &err))
		die("%s", err);
	/*
	 * VM_KERNEL: the kernel shipped next to an image cut on another
	 * machine (a CI artifact), where the recorded /boot path may not be
	 */
	v = setting(c, NULL, NULL, "VM_KERNEL", &src, &cv);
	if (v) {
		char where[512];

		if (access(v, R_OK) < 0)
			die_errno("%s: kernel %s", vm_src_str(&src, where, sizeof(where)), v);
		free(s->im.kernel);
		s->im.kernel = xstrdup(v);
	} else if (access(s->im.kernel, R_OK) < 0) {
		die_errno("kernel %s recorded in %s (an image cut elsewhere: set VM_KERNEL)",
			  s->im.kernel, s->image);
	}
	/* the image's architecture decides qemu's; QEMU_BIN still overrides it */
	if (!s->qemu)
		s->qemu = s->im.arch->qemu;
	if (s->accel == ACCEL_KVM && arch_foreign(s->im.arch)) {
		char buf[128];

		die("%s: kvm: the image %s is for %s, this host is %s; KVM runs only the host's "
		    "architecture (use tcg or auto)", vm_src_str(&s->accel_src, buf, sizeof(buf)),
		    s->image, s->im.arch->name, arch_host()->name);
	}
	/* a cached image's layers are checked now, before a VM number is taken */
	vm_deadline_step("putting the image together from the layer cache");
	if (vm_initrd_prepare(s->image, s->dry_run, &s->initrd, &err))
		die("%s", err);
	if (s->initrd.needs_cache)
		warn("%s takes its layers from ./cut's cache: qemu alone cannot boot it "
		     "(./cut --standalone writes one that it can)", s->image);

	vm_deadline_step("checking the settings");
	resolve_machine(s, o, c);
	resolve_disks(s, o, c);
	vm_rbd_resolve_or_die(s, o, c);
	resolve_net(s, o, c);
	/* the user's extra qemu arguments come after everything ./vm adds */
	strv_push_all(&s->extra, &o->extra);
	kparams_own_or_die(&s->kparams, 0, "QEMU_EXTRA_KERNEL_PARAMS");
	for (size_t i = 0; i < o->append.n; i++) {
		size_t from = s->kparams.n;

		if (shwords_split(o->append.v[i], &s->kparams, &err))
			die("--append: %s", err);
		kparams_own_or_die(&s->kparams, from, "--append");
	}
	resolve_debug(s, o, c);
	resolve_results(s, o, c);
	resolve_dirs(s, o, c);
}

void vm_settings_free(struct vm_settings *s)
{
	free(s->image);
	vm_image_free(&s->im);
	vm_initrd_free(&s->initrd);
	strv_free(&s->kparams);
	strv_free(&s->extra);
	strv_free(&s->shares);
	for (size_t i = 0; i < s->n_mpath; i++)
		free((char *)s->mpath[i].file);
	free(s->mpath);
	vm_rbd_free(&s->rbd);
	strv_free(&s->tap_devs);
	strv_free(&s->hostfwd);
	free(s->ips);
	for (size_t i = 0; i < s->n_links; i++)
		free((char *)s->links[i].hostport);
	free(s->links);
	free(s->gdb_host);
	free(s->results_dir);
	free(s->state_dir);
	free(s->lock_dir);
	free(s->log_dir);
	memset(s, 0, sizeof(*s));
}

void vm_opts_free(struct vm_opts *o)
{
	strv_free(&o->shares);
	strv_free(&o->mpath);
	strv_free(&o->rbd);
	strv_free(&o->hostfwd);
	strv_free(&o->links);
	strv_free(&o->extra);
	strv_free(&o->append);
}
