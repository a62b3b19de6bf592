// SPDX-License-Identifier: GPL-2.0
/*
 * profalias.c: upstream Rapido's profile names (its cut/NAME.sh) that a
 * profile here does the job of, with the settings that make it the same
 * job. ./cut takes them (saying what it cuts), ./cut --list and the
 * completion show them. A Rapido profile with no row here has no
 * equivalent yet; one with the same name here (cephfs, lio_local, ...)
 * needs none.
 */
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "profalias.h"
#include "strbuf.h"

const struct profalias profaliases[] = {
	{ "simple_example", "simple", { NULL } },
	{ "simple_network", "net", { NULL } },
	{ "fstests_btrfs", "fstests_local", { "FSTESTS_FS=btrfs", NULL } },
	{ "fstests_xfs", "fstests_local", { "FSTESTS_FS=xfs", NULL } },
	{ "fstests_ext4", "fstests_local", { "FSTESTS_FS=ext4", NULL } },
	/* Rapido has these three; it has no fstests_f2fs */
	{ "fstests_exfat", "fstests_local", { "FSTESTS_FS=exfat", NULL } },
	{ "fstests_udf", "fstests_local", { "FSTESTS_FS=udf", NULL } },
	{ "fstests_ntfs3", "fstests_local", { "FSTESTS_FS=ntfs3", NULL } },
	{ "fstests_btrfs_zoned", "fstests_local",
	  { "FSTESTS_FS=btrfs", "FSTESTS_ZONED=null_blk", NULL } },
	{ "fstests_ovl_xfs", "fstests_local", { "FSTESTS_FS=xfs", "FSTESTS_OVERLAY=1", NULL } },
	{ "uring_xfs", "uring", { "URING_FS=xfs", NULL } },
	{ "uring_btrfs", "uring", { "URING_FS=btrfs", NULL } },
	{ "unionmount_testsuite", "unionmount", { NULL } },
	{ "blktests_zram", "blktests", { "BLKTESTS_DEVS=zram", NULL } },
	{ "kselftests", "kselftest", { NULL } },
	{ "nvme_local", "nvmet_local", { NULL } },
	{ "nfsd_btrfs", "nfs_local", { "NFS_FS=btrfs", NULL } },
	{ "ksmbd_btrfs", "ksmbd_local", { "KSMBD_FS=btrfs", NULL } },
	{ "samba_xfs", "samba_local", { "SAMBA_FS=xfs", NULL } },
	{ "usbip_host_stub", "usbip", { "USBIP_MODE=stub", NULL } },
	{ "usbip_vhci_client", "usbip", { NULL } },
	{ "usbip_vudc_zram", "usbip", { "USBIP_MODE=vudc", NULL } },
	{ NULL, NULL, { NULL } },
};

static int same_name(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (*a != *b && !(strchr("-_", *a) && strchr("-_", *b)))
			return 0;
	return !*a && !*b;
}

const struct profalias *profalias_find(const char *name)
{
	for (const struct profalias *a = profaliases; a->name; a++)
		if (same_name(a->name, name))
			return a;
	return NULL;
}

char *profalias_describe(const struct profalias *a)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s", a->profile);
	for (size_t i = 0; i < PROFALIAS_SETS && a->set[i]; i++)
		strbuf_addf(&sb, "%s%s", i ? " " : " with ", a->set[i]);
	return sb.s;
}
