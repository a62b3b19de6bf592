/* SPDX-License-Identifier: GPL-2.0 */
/* front.h: rapido, the one command: rapido SUBCOMMAND [ARGS] (or argv[0] says which). */
#ifndef RAPIDO_FRONT_H
#define RAPIDO_FRONT_H

/*
 * Run the subcommand argv[0] names (its basename, "rapido-" dropped: a
 * link named cut or rapido-cut runs cut), else the one argv[1] names, with
 * the arguments after it. Returns its exit status.
 */
int cmd_rapido(int argc, char **argv);

/* run.c: rapido run [PROFILE] [CUT OPTIONS] [-- CMD [ARG]...]: cut, boot, CMD's output and status. */
int cmd_run(int argc, char **argv);

/* deps.c: rapido deps [--install|--check] [PROFILE...]: host/install-deps, with this rapido */
int cmd_deps(int argc, char **argv);

/* RAPIDO_FRONT: this program's path, for what it runs (bisect, install-deps) */
int readlink_self_into_env(void);

#endif
