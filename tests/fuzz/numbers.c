// SPDX-License-Identifier: GPL-2.0
/*
 * numbers.c: fuzz the small parsers of numbers in options, keys and
 * files: num_parse (decimal and hex), parse_size, num_parse_hostport and a
 * vmN.mpath line (./vmctl reads it back). Properties: a number is taken
 * only from digits, and is what they say; an error explains itself with
 * the input; a size is its number times its unit; a host:port has a host
 * and a port from 1 to 65535; an mpath line names a path that exists
 * (disk * paths + path within the 256 SCSI ids, counted without wrapping)
 * and renders back to its own id; a shard I/N has 1 <= I <= N <= 10000
 * and reads back as I/N; a VM_SPLATS list counts some kind unless it says
 * none, and a refused one is named in its message.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>

#include "fuzz.h"
#include "mpath.h"
#include "num.h"
#include "size.h"
#include "splatkind.h"

static void number(const char *s, int base)
{
	char why[NUM_WHY_LEN] = "", *end;
	uint64_t v = 0;
	int rc = num_parse_base(s, base, 0, UINT64_MAX, &v, why);

	if (rc) {
		fuzz_assert(rc == -EINVAL || rc == -ERANGE, "rc %d", rc);
		fuzz_assert(strstr(why, "expected") && strstr(why, "got '"), "why \"%s\"", why);
		return;
	}
	fuzz_assert(*s, "an empty number");
	for (const char *p = s; *p; p++)
		fuzz_assert(base == 16 ? isxdigit((unsigned char)*p) : isdigit((unsigned char)*p),
			    "\"%s\" taken as a base-%d number", s, base);
	errno = 0;
	fuzz_assert(strtoull(s, &end, base) == v && !errno, "\"%s\" read as %" PRIu64, s, v);
}

static void size(const char *s)
{
	static const char units[] = "kmgtp";
	uint64_t v, n;
	size_t digits = strspn(s, "0123456789");
	char *num;
	int rc = parse_size(s, &v), shift = 0;

	if (rc) {
		fuzz_assert(rc == -EINVAL || rc == -ERANGE, "rc %d", rc);
		return;
	}
	fuzz_assert(digits > 0, "\"%s\": a size without digits", s);
	num = strndup(s, digits);
	if (!num)
		abort();
	fuzz_assert(!num_parse(num, 0, UINT64_MAX, &n, NULL), "\"%s\": its number", s);
	free(num);
	if (s[digits]) {
		const char *u = strchr(units, tolower((unsigned char)s[digits]));

		fuzz_assert(u && *u, "\"%s\": unit", s);
		shift = 10 * (int)(u - units + 1);
	}
	fuzz_assert(shift == 0 || n <= UINT64_MAX >> shift, "\"%s\" overflows", s);
	fuzz_assert(v == n << shift, "\"%s\" is %" PRIu64 ", not %" PRIu64, s, v, n << shift);
}

static void hostport(const char *s)
{
	char why[NUM_WHY_LEN] = "", *host = NULL;
	unsigned int port = 0;
	int rc = num_parse_hostport(s, &host, &port, why);

	if (rc) {
		fuzz_assert(rc == -EINVAL && why[0], "rc %d, why \"%s\"", rc, why);
		return;
	}
	fuzz_assert(host && *host && port >= 1 && port <= 65535, "\"%s\": host %s port %u", s,
		    host ? host : "(null)", port);
	fuzz_assert(!strncmp(s, host, strlen(host)) && s[strlen(host)] == ':', "\"%s\": host %s", s, host);
	free(host);
}

static void mpath_line(const char *s)
{
	unsigned int disk, path, paths;
	struct mpath_path p;
	char *line;

	if (mpath_path_parse_line(s, &p))
		return;
	fuzz_assert(sscanf(s, "%*s %u %u %u", &disk, &path, &paths) == 3, "\"%s\"", s);
	fuzz_assert((uint64_t)disk * paths + path <= 255 && p.scsi_id == disk * paths + path,
		    "\"%s\": disk %u * %u paths + path %u is SCSI id %u", s, disk, paths, path,
		    p.scsi_id);
	line = mpath_path_list_line(&p, 1, "f");
	fuzz_assert(!strncmp(line, p.id, strlen(p.id)), "\"%s\" renders as \"%s\"", s, line);
	free(line);
}

static void shard(const char *s)
{
	char why[NUM_WHY_LEN] = "", back[32];
	unsigned int i = 0, n = 0;

	if (num_parse_shard(s, &i, &n, why)) {
		fuzz_assert(strstr(why, "expected I/N"), "\"%s\": why \"%s\"", s, why);
		return;
	}
	fuzz_assert(i >= 1 && i <= n && n <= NUM_SHARD_MAX, "\"%s\" is %u/%u", s, i, n);
	/* digits, '/', digits (leading zeros as num_parse takes them) */
	fuzz_assert(strspn(s, "0123456789") > 0 && s[strspn(s, "0123456789")] == '/',
		    "\"%s\" taken as a shard", s);
	snprintf(back, sizeof(back), "%u/%u", i, n);
	fuzz_assert(strtoul(s, NULL, 10) == i && strtoul(strchr(s, '/') + 1, NULL, 10) == n &&
		    strspn(strchr(s, '/') + 1, "0123456789") == strlen(strchr(s, '/') + 1),
		    "\"%s\" read as %s", s, back);
}

static void splats(const char *s)
{
	unsigned int mask = 0;
	char *err = NULL;

	if (splat_mask_parse(s, &mask, &err)) {
		fuzz_assert(err && *err, "\"%s\": refused without a message", s);
		free(err);
		return;
	}
	fuzz_assert(!err && !(mask & ~SPLAT_ALL), "\"%s\": mask %#x", s, mask);
	fuzz_assert(mask || strstr(s, "none"), "\"%s\": no kind counts, and it does not say none", s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size_)
{
	char *s = fuzz_cstr(data, size_);

	number(s, 10);
	number(s, 16);
	size(s);
	hostport(s);
	mpath_line(s);
	shard(s);
	splats(s);
	free(s);
	return 0;
}
