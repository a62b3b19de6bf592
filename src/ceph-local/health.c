// SPDX-License-Identifier: GPL-2.0
/*
 * health.c: which of `ceph health detail`'s checks a throwaway test cluster
 * may mute rather than wait out. Debian 13's Ceph 18.2 manager cannot load
 * its Python modules built on PyO3 in subinterpreters (pyo3 issue 576): it
 * raises MGR_MODULE_DEPENDENCY for good, naming balancer, status, volumes
 * and ten more, and the cluster never reaches HEALTH_OK. Nothing a test
 * here does goes through those modules: the monitor, the OSDs and the MDS
 * serve RBD and CephFS (made with `fs new`, not the volumes module). Every
 * other check is waited for as before.
 */
#include <stdlib.h>
#include <string.h>

#include "ceph-local.h"
#include "err.h"

static const struct {
	const char *code, *why;
} mutable_checks[] = {
	{ "MGR_MODULE_DEPENDENCY", "manager modules that cannot load here, which no test uses" },
};

/* Why the check CODE (LEN bytes) may be muted, or NULL: it may not. */
static const char *mutable_why(const char *code, size_t len)
{
	for (size_t i = 0; i < sizeof(mutable_checks) / sizeof(mutable_checks[0]); i++)
		if (strlen(mutable_checks[i].code) == len && !strncmp(mutable_checks[i].code, code, len))
			return mutable_checks[i].why;
	return NULL;
}

const char *cl_health_mute_why(const char *code)
{
	return mutable_why(code, strlen(code));
}

/*
 * Each check of DETAIL is a line "[WRN] CODE: summary" (or [ERR]); its
 * detail lines are indented under it. The codes found, space-separated,
 * go to *codes (NULL when there is none); 1 when there is at least one
 * and every one is a warning that may be muted, else 0.
 */
int cl_health_mutable(const char *detail, char **codes)
{
	size_t cap = 1, len = 0;
	int all = 1, found = 0;
	const char *line = detail;

	*codes = NULL;
	while (line && *line) {
		const char *nl = strchr(line, '\n');

		int error = !strncmp(line, "[ERR] ", 6);

		if (error || !strncmp(line, "[WRN] ", 6)) {
			const char *code = line + 6, *end = code;

			while ((*end >= 'A' && *end <= 'Z') || (*end >= '0' && *end <= '9') ||
			       *end == '_')
				end++;
			if (end > code && *end == ':') {
				size_t n = (size_t)(end - code);

				found = 1;
				if (error || !mutable_why(code, n))
					all = 0;
				cap += n + 1;
				*codes = xrealloc(*codes, cap);
				if (len)
					(*codes)[len++] = ' ';
				memcpy(*codes + len, code, n);
				len += n;
				(*codes)[len] = '\0';
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	return found && all;
}
