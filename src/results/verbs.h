/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verbs.h: rapido results VERB: what is done with finished runs' results,
 * no VM booted (verbs.c). Each cmd_results_VERB takes argv[0] as the verb's
 * name ("merge"), or as ./vm's alias option ("--merge-results"), which its
 * messages and usage then name.
 */
#ifndef RAPIDO_RESULTS_VERBS_H
#define RAPIDO_RESULTS_VERBS_H

/* rapido results merge|compare|known ARGS (argv[0] is "results"); the exit status. */
int cmd_results(int argc, char **argv);
/* merge.c: merge [known-failure options] OUT DIR...: 1 if a run failed or is missing. */
int cmd_results_merge(int argc, char **argv);
/* merge.c: known [known-failure options] DIR...: merge's verdict, no OUT written. */
int cmd_results_known(int argc, char **argv);
/* compare.c: compare A B: 1 if B regressed. */
int cmd_results_compare(int argc, char **argv);
/*
 * What a verb's usage line puts before argv0: "vm " for an alias option,
 * else "rapido results " (inline: the verbs use it, and verbs.c uses them).
 */
static inline const char *results_verb_prog(const char *argv0)
{
	return argv0[0] == '-' ? "vm " : "rapido results ";
}

#endif
