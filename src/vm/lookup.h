/* SPDX-License-Identifier: GPL-2.0 */
/* lookup.h: one lookup for every ./vm setting, with where its value came from (lookup.c). */
#ifndef RAPIDO_VM_LOOKUP_H
#define RAPIDO_VM_LOOKUP_H

#include "confget.h"
#include "err.h"
#include "settings.h"

/*
 * The option's value if given (opt names it), else KEY resolved through
 * confkeys[] (its value, else its default), either checked against KEY's
 * kind; a value the table refuses dies naming its source. Returns the
 * text, NULL when KEY is unset without a default; v holds it parsed.
 */
const char *vm_setting(const struct conf *c, const char *opt, const char *optval,
		       const char *key, struct vm_src *src, struct conf_value *v);
/* A number in the range confkeys[] gives KEY. */
unsigned int vm_number(const struct conf *c, const char *opt, const char *optval,
		       const char *key, struct vm_src *src);
/*
 * vm_setting() of KEY with the option that overrides it (its row in
 * vm_options[], options.h): the option's name and what it was given come
 * from the row, so a caller names the key alone.
 */
const char *vm_opt_setting(const struct conf *c, const struct vm_opts *o, const char *key,
			   struct vm_src *src, struct conf_value *v);
unsigned int vm_opt_number(const struct conf *c, const struct vm_opts *o, const char *key,
			   struct vm_src *src);
/* KEY's words, appended to out. */
void vm_split(const struct conf *c, const char *key, struct strv *out);
/* "SOURCE: what, got 'v'" and exit. */
noreturn void vm_die_src(const struct vm_src *src, const char *what, const char *v);
/* HOST:PORT for qemu's -netdev/-gdb, where a comma would start another option; dies naming opt. */
void vm_hostport_or_die(const char *opt, const char *v, char **host, unsigned int *port);

#endif
