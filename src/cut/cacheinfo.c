// SPDX-License-Identifier: GPL-2.0
/* cacheinfo.c: ./cut --cache-info: where the cache is, how big, what it holds. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "err.h"
#include "io.h"
#include "layer.h"
#include "rapido.h"

int cut_cache_info(void)
{
	struct conf conf;
	struct cut_entry *v;
	uint64_t total = 0, cap;
	time_t now = time(NULL);
	char *dir;
	size_t n;

	rapido_conf_load_or_die(&conf);
	cut_cache_conf(&conf, &cap, &dir);
	if (!dir) {
		printf("cache: none (CUT_CACHE_DIR, XDG_CACHE_HOME and HOME are unset)\n");
		conf_free(&conf);
		return 0;
	}
	v = cut_cache_entries(dir, &n, 0, 1);
	for (size_t i = 0; i < n; i++)
		total += v[i].size;
	printf("cache: %s%s\n", dir, cap ? "" : " (not used: CUT_CACHE_SIZE=0)");
	printf("size:  %.1f MiB of %.1f MiB (CUT_CACHE_SIZE), %zu layer%s\n", (double)total / 1048576,
	       (double)cap / 1048576, n, n == 1 ? "" : "s");
	if (n)
		printf("%-8s %10s %10s  %-12s %s\n", "KIND", "MIB", "USED", "KEY", "WHAT");
	for (size_t i = n; i-- > 0;) {
		long long age = (long long)(now - v[i].used.tv_sec);
		char ago[32];

		if (age < 120)
			snprintf(ago, sizeof(ago), "%llds ago", age);
		else if (age < 7200)
			snprintf(ago, sizeof(ago), "%lldm ago", age / 60);
		else if (age < 172800)
			snprintf(ago, sizeof(ago), "%lldh ago", age / 3600);
		else
			snprintf(ago, sizeof(ago), "%lldd ago", age / 86400);
		printf("%-8s %10.1f %10s  %-12.12s %s\n", v[i].kind ? v[i].kind : "?",
		       (double)v[i].size / 1048576, ago, v[i].key, v[i].desc ? v[i].desc : "?");
	}
	cut_cache_entries_free(v, n);
	free(dir);
	conf_free(&conf);
	close_stdout();
	return 0;
}
