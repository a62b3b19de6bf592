/* SPDX-License-Identifier: GPL-2.0 */
/* cut.h: ./cut, which turns a profile and rapido.conf into a bootable image. */
#ifndef RAPIDO_CUT_H
#define RAPIDO_CUT_H

#include "conf.h"
#include "kernel.h"
#include "profile.h"
#include "strv.h"

/* One -x or -f extra, in command-line order. */
struct cut_extra {
	int is_file;
	char *arg;	/* the command, or the file's path */
};

struct cut_opts {
	const char *profile;
	struct cut_extra *extras;
	size_t n_extras;
	const char *output;	/* -o; NULL: rapido_default_image() */
	int dry_run;
	int verbose;
	int ignore_kconfig;
	int no_cache;		/* --no-cache: neither read nor write the layer cache */
	int standalone;		/* --standalone: the layers go into the image file */
};

/* Everything resolved before dracut runs. */
struct cut_plan {
	struct conf conf;
	struct profile prof;
	struct kernel kern;
	char *rapido_dir;
	char *output;
	struct strv bins;	/* absolute host paths */
	struct strv modules;	/* to include and load at boot */
	struct strv extra_modules; /* included, loaded by the init when needed (9p) */
	struct strv helpers;	/* absolute paths of build/guest/rapido-NAME */
	struct strv includes;	/* SRC DEST pairs for dracut --include */
};

/* check.c: resolve the plan; reports every problem found, then dies if any. */
void cut_plan_or_die(const struct cut_opts *o, struct cut_plan *p);
void cut_plan_free(struct cut_plan *p);

/*
 * image.c: rapido's own archives. The head (rapido/vm.conf for ./vm, and
 * rapido/layers, the text naming the layers) starts the image; the tail
 * (env, modules to load, autorun scripts, extras, /init and the helpers)
 * ends it, after the layers, so its files win.
 */
int cut_write_head(const struct cut_plan *p, const char *layers, int fd, char **err);
int cut_write_tail(const struct cut_opts *o, const struct cut_plan *p, int fd, char **err);

/* dracut.c: the dracut command line for the plan, writing to out (see layer.h). */
enum cut_dracut_part { DRACUT_ALL, DRACUT_MODULES, DRACUT_BINS };
void cut_dracut_argv(const struct cut_opts *o, const struct cut_plan *p, const char *out,
		     enum cut_dracut_part part, const struct strv *libs, struct strv *argv);

/* list.c: ./cut --list */
int cut_list(void);

int cmd_cut(int argc, char **argv);

#endif
