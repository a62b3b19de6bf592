// SPDX-License-Identifier: GPL-2.0
/*
 * main.c: rapido-mkzonefs DEV, zonefs on a zoned disk as mkzonefs (zonefs-
 * tools, not in Debian 12) makes it: every sequential zone reset, then the
 * super block (zonefs.h) written at sector 0, which zonefs keeps for itself
 * with the first zone. Direct I/O: a sequential first zone takes only
 * writes at its write pointer, in whole blocks, with nothing cached.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/blkzoned.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <unistd.h>

#include "err.h"
#include "zonefs.h"

#define PROG "rapido-mkzonefs"

static const struct option longopts[] = {
	{ "label",	required_argument,	NULL, 'L' },
	{ "help",	no_argument,		NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void usage(void)
{
	printf("Usage:\n"
	       " %s [-L LABEL] DEVICE\n"
	       "\n"
	       "Make zonefs on the zoned block device DEVICE: reset its zones and write\n"
	       "the super block (a new UUID, no features: files owned by root, mode 0640).\n"
	       "\n"
	       "Options:\n"
	       " -L, --label LABEL  the volume label (at most 63 bytes)\n"
	       " -h, --help         display this help\n", PROG);
}

int main(int argc, char **argv)
{
	const char *label = "", *dev;
	struct blk_zone_range all = { 0 };
	uint8_t uuid[ZONEFS_UUID_SIZE];
	unsigned long long bytes;
	unsigned char *sb;
	int fd, c;

	err_prog = PROG;
	while ((c = getopt_long(argc, argv, "L:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'L':
			label = optarg;
			break;
		case 'h':
			usage();
			return 0;
		default:
			fprintf(stderr, "Try '%s --help' for more information.\n", PROG);
			return 1;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "%s: expected one DEVICE\nTry '%s --help' for more information.\n",
			PROG, PROG);
		return 1;
	}
	dev = argv[optind];
	if (strlen(label) >= ZONEFS_LABEL_LEN)
		die("label '%s' is longer than %d bytes", label, ZONEFS_LABEL_LEN - 1);
	if (getrandom(uuid, sizeof(uuid), 0) != (ssize_t)sizeof(uuid))
		die_errno("getrandom (the UUID)");
	/* a random (version 4) UUID */
	uuid[6] = (uuid[6] & 0x0f) | 0x40;
	uuid[8] = (uuid[8] & 0x3f) | 0x80;
	if (posix_memalign((void **)&sb, ZONEFS_SUPER_SIZE, ZONEFS_SUPER_SIZE))
		die("out of memory");
	if (zonefs_super_build(sb, label, uuid))
		die("cannot build the super block");
	fd = open(dev, O_RDWR | O_DIRECT | O_CLOEXEC | O_EXCL);
	if (fd < 0)
		die_errno("%s", dev);
	if (ioctl(fd, BLKGETSIZE64, &bytes) < 0)
		die_errno("%s: BLKGETSIZE64 (is it a block device?)", dev);
	/* the whole disk: the kernel resets every sequential zone, conventional ones stay */
	all.sector = 0;
	all.nr_sectors = bytes >> 9;
	if (ioctl(fd, BLKRESETZONE, &all) < 0) {
		if (errno == ENOTTY || errno == EOPNOTSUPP)
			die("%s is not a zoned block device (zonefs needs one)", dev);
		die_errno("%s: BLKRESETZONE", dev);
	}
	if (pwrite(fd, sb, ZONEFS_SUPER_SIZE, 0) != ZONEFS_SUPER_SIZE)
		die_errno("%s: writing the super block", dev);
	if (fsync(fd) < 0)
		die_errno("%s: fsync", dev);
	if (close(fd) < 0)
		die_errno("%s: close", dev);
	free(sb);
	return 0;
}
