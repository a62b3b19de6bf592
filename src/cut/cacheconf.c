// SPDX-License-Identifier: GPL-2.0
/* cacheconf.c: the cache's settings, read from rapido.conf in one place. */
#include <stdlib.h>

#include "confget.h"
#include "err.h"
#include "layer.h"
#include "rapido.h"

void cut_cache_conf(const struct conf *conf, uint64_t *cap, char **dir)
{
	char *err;

	*cap = 0;
	if (conf_size(conf, "CUT_CACHE_SIZE", cap, NULL, &err) < 0)
		die("%s", err);
	*dir = rapido_cut_cache_dir(conf);
}
