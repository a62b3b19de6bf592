// SPDX-License-Identifier: GPL-2.0
/* dracut.c: the dracut command line, built as a vector so no value meets a shell. */
#include <stdlib.h>
#include <string.h>

#include "cut.h"
#include "err.h"

/* dracut takes space-separated lists; our names never contain blanks (checked). */
static void push_list(struct strv *argv, const char *opt, const struct strv *items)
{
	size_t len = 1;
	char *s, *p;

	if (!items->n)
		return;
	for (size_t i = 0; i < items->n; i++)
		len += strlen(items->v[i]) + 1;
	s = p = xmalloc(len);
	for (size_t i = 0; i < items->n; i++) {
		size_t l = strlen(items->v[i]);

		if (i)
			*p++ = ' ';
		memcpy(p, items->v[i], l);
		p += l;
	}
	*p = '\0';
	strv_push(argv, opt);
	strv_push(argv, s);
	free(s);
}

void cut_dracut_argv(const struct cut_opts *o, const struct cut_plan *p, const char *out,
		     const char *tmpdir, struct strv *argv)
{
	const char *dracut = conf_get(&p->conf, "DRACUT");

	if (p->sysroot) {
		/*
		 * A foreign sysroot: dracut would look for its own modules in
		 * it and run ldd on programs the host cannot run; the plan
		 * lists every library already (sysroot.c), so dracut's ldd
		 * is told to find none, and its test binary is our bash.
		 */
		strv_push(argv, "env");
		strv_push(argv, "dracutbasedir=/usr/lib/dracut");
		strv_push(argv, "DRACUT_LDD=true");
		strv_push(argv, "DRACUT_TESTBIN=/bin/bash");
	}
	strv_push(argv, dracut && *dracut ? dracut : "dracut");
	if (p->sysroot) {
		strv_push(argv, "--sysroot");
		strv_push(argv, p->sysroot);
	}
	/* a generic image, not one tailored to (or reading config from) this host */
	strv_push(argv, "--no-hostonly");
	strv_push(argv, "--no-hostonly-cmdline");
	strv_push(argv, "--no-compress");
	strv_push(argv, "--no-early-microcode");
	strv_push(argv, "--reproducible");
	/* the host's /etc/dracut.conf{,.d} must not change the image */
	strv_pushf(argv, "--confdir=%s/dracut.conf.d", p->rapido_dir);
	strv_push(argv, "--conf=/dev/null");
	/* bash alone: our init replaces dracut's, none of its hooks run */
	strv_push(argv, "--modules");
	strv_push(argv, "bash");
	strv_push(argv, "--kver");
	strv_push(argv, p->kern.release);
	if (p->kern.kmoddir_root) {
		strv_push(argv, "--kmoddir");
		strv_push(argv, p->kern.moddir);
	}
	if (p->modules.n || p->extra_modules.n) {
		struct strv all = STRV_INIT;

		strv_push_all(&all, &p->modules);
		strv_push_all(&all, &p->extra_modules);
		push_list(argv, "--drivers", &all);
		strv_free(&all);
	} else {
		strv_push(argv, "--no-kernel");
	}
	push_list(argv, "--install", &p->bins);
	/* with a sysroot, dracut finds files only in it: image.c packs the host's */
	for (size_t i = 0; !p->sysroot && i < p->helpers.n; i++) {
		const char *h = p->helpers.v[i];
		const char *base = strrchr(h, '/') + 1;

		strv_push(argv, "--include");
		strv_push(argv, h);
		if (!strcmp(base, "rapido-init"))
			strv_push(argv, "/init");
		else
			strv_pushf(argv, "/usr/bin/%s", base);
	}
	for (size_t i = 0; !p->sysroot && i + 1 < p->includes.n; i += 2) {
		strv_push(argv, "--include");
		strv_push(argv, p->includes.v[i]);
		strv_push(argv, p->includes.v[i + 1]);
	}
	/*
	 * dracut's tree goes where the image goes (default /var/tmp): cut
	 * removes it even after a kill, and a full disk is one disk
	 */
	if (tmpdir) {
		strv_push(argv, "--tmpdir");
		strv_push(argv, tmpdir);
	}
	if (!o->verbose)
		strv_push(argv, "--quiet");
	strv_push(argv, "--force");
	strv_push(argv, out);
}
