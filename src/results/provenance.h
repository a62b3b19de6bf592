/* SPDX-License-Identifier: GPL-2.0 */
/* provenance.h: what a run was, as DIR/run.json and JUnit properties (provenance.c). */
#ifndef RAPIDO_RESULTS_PROVENANCE_H
#define RAPIDO_RESULTS_PROVENANCE_H

#include "strv.h"

struct results_ctx;

/* Keys and their values, in run.json's order. */
struct prov {
	struct strv keys, vals;
};

/* Everything about the run of c, started at start (ISO 8601). */
void prov_collect(struct prov *p, const struct results_ctx *c, const char *start);
void prov_add(struct prov *p, const char *key, const char *value);
void prov_free(struct prov *p);
/* run.json's text: one flat object of strings (malloc'd). */
char *prov_json(const struct prov *p);
/* DIR/run.json, atomically: 0 or -errno with *err naming it. */
int prov_write(const struct prov *p, const char *dir, char **err);

#endif
