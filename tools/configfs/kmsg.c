// SPDX-License-Identifier: GPL-2.0
/* kmsg.c: quote the kernel log lines that appeared since start (/dev/kmsg records). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cfs.h"

/* Enough for the lines one failed configfs operation leaves; more is noise. */
#define KMSG_MAX_LINES 60

int kmsg_open(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	/* /dev/kmsg: SEEK_END moves past every record already logged. */
	if (lseek(fd, 0, SEEK_END) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

/*
 * One record (Documentation/ABI/testing/dev-kmsg):
 *	"PRI,SEQ,USEC,FLAGS[,...];message\n"
 * followed by optional continuation lines " KEY=VALUE\n", which are skipped.
 */
static int print_record(const char *rec, size_t len, FILE *out, const char *indent,
			const char **header)
{
	const char *semi = memchr(rec, ';', len);
	unsigned long long usec;
	unsigned int pri;
	char head[64];

	if (!len || rec[0] == ' ')
		return 0;
	if (*header) {
		fprintf(out, "%s\n", *header);
		*header = NULL;
	}
	if (semi && (size_t)(semi - rec) < sizeof(head)) {
		memcpy(head, rec, (size_t)(semi - rec));
		head[semi - rec] = '\0';
		if (sscanf(head, "%u,%*u,%llu", &pri, &usec) == 2) {
			fprintf(out, "%s[%5llu.%06llu] %.*s\n", indent, usec / 1000000,
				usec % 1000000, (int)(len - (size_t)(semi - rec) - 1), semi + 1);
			return 1;
		}
	}
	fprintf(out, "%s%.*s\n", indent, (int)len, rec);
	return 1;
}

int kmsg_dump(int fd, FILE *out, const char *header, const char *indent)
{
	char buf[8192];
	int lines = 0, more = 0;

	if (fd < 0)
		return 0;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		size_t off = 0;

		if (n < 0) {
			/* EPIPE: records were overwritten under us; go on with the rest. */
			if (errno == EINTR || errno == EPIPE)
				continue;
			break;	/* EAGAIN: no more records */
		}
		if (n == 0)
			break;
		/* /dev/kmsg returns one record per read; a plain file, many lines. */
		while (off < (size_t)n) {
			const char *nl = memchr(buf + off, '\n', (size_t)n - off);
			size_t l = nl ? (size_t)(nl - (buf + off)) : (size_t)n - off;

			if (lines < KMSG_MAX_LINES)
				lines += print_record(buf + off, l, out, indent, &header);
			else if (l && buf[off] != ' ')
				more++;
			off += l + 1;
		}
	}
	if (more)
		fprintf(out, "%s... and %d more lines (dmesg)\n", indent, more);
	return lines + more;
}
