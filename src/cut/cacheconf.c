// SPDX-License-Identifier: GPL-2.0
/* cacheconf.c: the cache's settings, read from rapido.conf in one place. */
#include <stdlib.h>

#include "err.h"
#include "layer.h"
#include "size.h"

#define DEFAULT_CAP (4ULL << 30)

void cut_cache_conf(const struct conf *conf, uint64_t *cap, char **dir)
{
	const char *v = conf_get(conf, "CUT_CACHE_SIZE");

	*cap = DEFAULT_CAP;
	if (v && *v && parse_size(v, cap))
		die("%s: CUT_CACHE_SIZE: expected a size such as 4G, or 0 for no cache, got '%s'",
		    conf_origin(conf, "CUT_CACHE_SIZE"), v);
	v = conf_get(conf, "CUT_CACHE_DIR");
	if (v && *v)
		*dir = xstrdup(v);
	else if ((v = getenv("XDG_CACHE_HOME")) && v[0] == '/')
		*dir = xasprintf("%s/rapido", v);
	else if ((v = getenv("HOME")) && v[0] == '/')
		*dir = xasprintf("%s/.cache/rapido", v);
	else
		*dir = NULL;
}
