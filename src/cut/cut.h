/* SPDX-License-Identifier: GPL-2.0 */
/* cut.h: ./cut, which turns a profile and rapido.conf into a bootable image. */
#ifndef RAPIDO_CUT_H
#define RAPIDO_CUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdnoreturn.h>
#include <string.h>
#include <sys/types.h>

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
	struct strv bins;	/* --bins: host programs added to the profile's (CUT_EXTRA_BINS too) */
	int dry_run;
	int verbose;
	int quiet;		/* -q: no progress lines, no closing line; errors and warnings only */
	int ignore_kconfig;
	int no_cache;		/* --no-cache: neither read nor write the layer cache */
	int standalone;		/* --standalone: the layers go into the image file */
	int dracut_modules;	/* --dracut-modules: dracut writes the modules layer (kmods.c otherwise) */
};

/* A "#@ files:" entry resolved: the host's SRC, copied to DEST as a tree layer (tree.c). */
struct cut_tree {
	char *src;		/* absolute */
	char *dest;
	/*
	 * SRC is a secret key's value (${CEPH_KEYRING}): written into the
	 * image's own part, after the tail, never into a cached layer (a
	 * cache may be shared)
	 */
	int secret;
};

/* Everything resolved before dracut runs. */
struct cut_plan {
	struct conf conf;
	struct profile prof;
	struct kernel kern;
	const struct arch *arch;	/* ARCH: the guest's architecture */
	char *sysroot;		/* a foreign ARCH's sysroot (dracut --sysroot); NULL: the host's */
	char *rapido_dir;
	char *output;
	struct strv bins;	/* absolute host paths; with a sysroot, paths in it and every library */
	struct strv modules;	/* to include and load at boot */
	/* included, loaded by the init on every boot (pvpanic) or by the profile */
	struct strv extra_modules;
	/*
	 * the init loads these when the kernel command line asks (9p for
	 * rapido.shares=, guestmods.h): the modules layer's modules.dep names
	 * them, their files are in a layer only such a boot gets (kmods.c)
	 */
	struct strv ondemand_modules;
	int modprobe;		/* the image needs kmod's modprobe (check.c says when) */
	char *busybox;		/* the host's static busybox for GUEST_BUSYBOX_DIR (guestpath.h); NULL: none */
	char *static_bash;	/* the host's static bash as the guest's bash (bash.c); NULL: the dynamic one */
	struct strv helpers;	/* absolute paths of build/guest/rapido-NAME (build/ARCH/ when foreign) */
	struct cut_tree *trees;	/* the profile's files: entries, those of unset keys left out */
	size_t n_trees;
	int secret;		/* holds a value of a key the profile marks secret */
	int make_outdir;	/* the default initrds/ directory is missing: create it */
};

/* A -f script larger than this is refused (it is read whole into the image). */
#define CUT_EXTRA_MAX (16 << 20)

/* locate.c: rapido_dir(), or die saying why it cannot be found. */
const char *cut_rapido_dir(void);
/* locate.c: load autorun/NAME.sh of the rapido directory DIR, or die saying why. */
void cut_profile_load_or_die(const char *dir, const char *name, struct profile *prof);
/*
 * NAME, or the profile upstream Rapido's name NAME stands for (profalias.h)
 * when no profile is called NAME: then its settings are put into the
 * environment, which overrides rapido.conf, and what it maps to is said
 * (unless QUIET: -q).
 */
const char *cut_profile_resolve(const char *name, int quiet);
/*
 * helpers.c: 1 when the busybox layer links an applet of this name in
 * GUEST_BUSYBOX_DIR: not busybox itself, init or linuxrc (the image's
 * /init is the guest init), nor a path.
 */
int cut_busybox_applet_linked(const char *name);
/* check.c: resolve the plan; reports every problem found, then dies if any. */
void cut_plan_or_die(const struct cut_opts *o, struct cut_plan *p);
void cut_plan_free(struct cut_plan *p);

/*
 * bash.c: which bash the guest gets, by CUT_BASH (auto, static, dynamic;
 * NULL: auto). What is known of the host's bash-static: its path (NULL:
 * none), why it cannot serve (NULL: a static ELF), the first line of its
 * --version and of the dynamic bash's.
 */
struct cut_bash_facts {
	int foreign;		/* a foreign ARCH's sysroot: its own bash */
	char *path;
	const char *unfit;
	char *static_version, *version;
};
/*
 * 1: the static bash; 0: the dynamic one, *msg (malloc'd) saying why when
 * auto found a bash-static it cannot use; -errno: CUT_BASH's value is
 * wrong or static was asked for and cannot be had, *msg says why.
 */
int cut_bash_pick(const char *mode, const struct cut_bash_facts *f, char **msg);
/*
 * cut_bash_pick on the host's facts (bash-static in PATH; bash: the
 * dynamic bash's path, for its version); *path: the static bash on 1.
 */
int cut_bash_resolve(const char *mode, const char *bash, int foreign, char **path, char **msg);
struct cpio_writer;
/*
 * The host's program at path (a regular file: a FIFO or a device is
 * refused) into w as name, mode 0755: 0, or -errno with *err naming what
 * ("helper ", "" ...) and path; from_make adds make's hints (helpers.c).
 */
int cut_add_program(struct cpio_writer *w, const char *name, const char *path, const char *what,
		    int from_make, char **err);
/* prepare.c: run the profile's "#@ prepare KEY:" program when KEY is unset, or die. */
void cut_prepare(struct cut_plan *p);

/*
 * image.c: rapido's own archives. The head (rapido/vm.conf for ./vm, and
 * rapido/layers, the text naming the layers) starts the image; the tail
 * (env, modules to load, autorun scripts, extras) ends it, after the
 * layers, so its files win.
 */
int cut_write_head(const struct cut_plan *p, const char *layers, int fd, char **err);
int cut_write_tail(const struct cut_opts *o, const struct cut_plan *p, int fd, char **err);

/*
 * dracut.c: the dracut command line for the plan, writing to out (see
 * layer.h); tmpdir may be NULL. sink (NULL: none) is where dracut's
 * "compressor" writes the archive instead (cut_dracut_sink_ok): out is
 * then left empty.
 */
enum cut_dracut_part { DRACUT_ALL, DRACUT_MODULES, DRACUT_BINS };
void cut_dracut_argv(const struct cut_opts *o, const struct cut_plan *p, const char *out,
		     enum cut_dracut_part part, const struct strv *libs, const char *tmpdir,
		     const char *sink, struct strv *argv);
/*
 * Whether path can be a sink: dracut splits its --compress value into
 * words (and globs them), so a path with a blank or a glob character
 * cannot.
 */
int cut_dracut_sink_ok(const char *path);
/*
 * The ldd dracut should run: build/rapido-ldd (src/ldd, ldd's answers with
 * fewer programs run) when it is there, the user set no DRACUT_LDD and the
 * image is the host's own (a foreign sysroot's dracut runs no ldd); NULL:
 * dracut's default. Malloc'd.
 */
char *cut_dracut_ldd(const struct cut_plan *p);

/*
 * libpick.c: which of the nlibs library texts a batch autorun needs
 * (picked[i] = 1): those defining a word of the texts, or of another
 * picked library.
 */
void cut_lib_pick(const char *const *texts, size_t ntexts, const char *const *libs, size_t nlibs,
		  int *picked);

/* check.c: "a directory", "a character device"... for what stat() said */
const char *cut_file_type(mode_t mode);

/*
 * sysroot.c, for a foreign ARCH: the guest path in p->sysroot of a program
 * (looked up in /usr/sbin, /usr/bin, /sbin, /bin) or of an absolute name;
 * NULL if missing.
 */
char *cut_sysroot_find(const struct cut_plan *p, const char *name);
/* How to get the missing program NAME into the sysroot (which package), malloc'd. */
char *cut_sysroot_bin_hint(const struct cut_plan *p, const char *name);
/*
 * Add the libraries the program at guest path `guest` needs to p->bins;
 * 0, or -errno with *err saying what is wrong or missing (and its package).
 */
int cut_sysroot_libs(struct cut_plan *p, const char *guest, const char *what, char **err);

/* work.c: a cut's private directory IMAGE.cut-XXXXXX, locked while its run lives */
struct cut_work {
	char *dir;
	int fd;		/* the directory, flock()ed; not close-on-exec */
};
int cut_work_create(struct cut_work *w, const char *image);
char *cut_work_path(const struct cut_work *w, const char *name);
/* A new file WHAT.XXXXXX in the directory (it goes with it), open on *fd; dies if it cannot. */
char *cut_work_file_or_die(const struct cut_work *w, const char *what, int *fd);
/* Writing PATH failed with -err: die saying so; on a full disk, which disk and how full. */
noreturn void cut_die_write(int err, const char *what, const char *path);
/* "no space left on device" for ENOSPC, "disk quota exceeded" for EDQUOT */
const char *cut_space_text(int err);
/* Remove the directory and what is in it; returns 0 or the first -errno. */
int cut_work_remove(struct cut_work *w);
/* Remove the IMAGE.cut-* that no live process holds (warns for each). */
void cut_work_reap_stale(const char *image);

/* child.c: run dracut so that a signal to cut stops every process of it */
struct cut_child_result {
	int status;	/* dracut's wait status */
	int stop_sig;	/* SIGTERM, SIGINT or SIGHUP that cut received, or 0 */
	int space_err;	/* ENOSPC or EDQUOT when dracut's output reports it */
	char *tail;	/* the end of dracut's output, NUL-terminated */
	size_t len;
	int truncated;	/* tail is not all of it */
};
/* Take SIGINT, SIGTERM, SIGHUP through a signalfd from now on; become a subreaper. */
void cut_signals_take(void);
/* A stop signal received since (and not yet returned), or 0. */
int cut_signal_pending(void);
/* Run cleanup, then die of sig (the caller's shell sees 128+sig). */
noreturn void cut_die_signal(int sig, void (*cleanup)(void));
/* Run argv, output captured (and copied to stderr when verbose). 0 or -errno. */
int cut_child_run(char *const argv[], int verbose, struct cut_child_result *r);
/*
 * Start argv[0] (a path) beside the next dracut run, stdin, stdout and
 * stderr /dev/null: SIGKILLed and reaped when that run ends (or cut
 * dies), whatever it was doing. Its pid, or -errno.
 */
pid_t cut_child_spawn(char *const argv[]);
/* Exit path: SIGKILL a dracut run (and a helper) still going and reap it. */
void cut_child_kill(void);
void cut_child_result_free(struct cut_child_result *r);

/* list.c: ./cut --list; ./cut --kconfig PROFILE (the kernel config fragment) */
int cut_list(void);
int cut_kconfig(const char *profile);
/* ./cut --locate PROFILE: the file it is read from (an alias: its profile's) */
int cut_locate(const char *profile);

/*
 * progress.c: what the cut is doing, on stderr when it is a terminal and
 * not -q. cut_progress lines are held back while the cut is young (a
 * re-cut from the cache says nothing); cut_progress_slow starts a step
 * that takes time and shows them all.
 */
void cut_progress_init(int quiet);
void cut_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cut_progress_slow(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cut_progress_done(void);
/* seconds since cut_progress_init */
double cut_progress_secs(void);
/* "12.3 MiB" (or KiB below 1 MiB), malloc'd */
char *cut_mib(uint64_t bytes);

/* checkconf.c: ./cut --check-conf; returns the exit status */
int cut_check_conf(void);

int cmd_cut(int argc, char **argv);
/*
 * rapido run's pipe: when not -1, cmd_cut writes the absolute path of the
 * image it built there, NUL-terminated, so that what boots is what was
 * cut, never what a record in the state dir says (which may be older).
 */
extern int cut_image_fd;

/* NAME is DIR or a path under it */
static inline int cut_path_under(const char *name, const char *dir)
{
	size_t l = strlen(dir);

	return !strncmp(name, dir, l) && (name[l] == '/' || !name[l]);
}

#endif
