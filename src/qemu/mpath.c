// SPDX-License-Identifier: GPL-2.0
/* mpath.c: a multipath path's identity and its qemu/QMP renderings (see mpath.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "mpath.h"
#include "num.h"
#include "qmp.h"

/* virtio-scsi allows target ids 0..255: disks x paths is checked by ./vm */
void mpath_path_init(struct mpath_path *p, unsigned int disk, unsigned int path, unsigned int paths)
{
	memset(p, 0, sizeof(*p));
	p->disk = disk;
	p->path = path;
	snprintf(p->id, sizeof(p->id), "mp%up%u", disk, path);
	snprintf(p->node, sizeof(p->node), "mp%u", disk);
	snprintf(p->serial, sizeof(p->serial), "RAPIDOMP%u", disk);
	/*
	 * Without a WWN, qemu's scsi-hd reports only a vendor-specific
	 * designator, which the kernel's sysfs wwid attribute and multipath's
	 * udev-free mode cannot use.
	 */
	snprintf(p->wwn, sizeof(p->wwn), "0x5000c0de%08x", disk);
	p->scsi_id = disk * paths + path;
}

char *mpath_path_device_arg(const struct mpath_path *p)
{
	return xasprintf("scsi-hd,bus=scsi0.0,drive=%s,id=%s,serial=%s,wwn=%s,scsi-id=%u,lun=0,"
			 "share-rw=on", p->node, p->id, p->serial, p->wwn, p->scsi_id);
}

char *mpath_path_device_add_json(const struct mpath_path *p)
{
	uint64_t wwn = 0;

	/* QMP takes the WWN as a number, the command line as hex text (ours: "0x5000c0de" + 8 digits) */
	num_parse_base(p->wwn + 2, 16, 0, UINT64_MAX, &wwn, NULL);
	return qmp_command_text(json_pack("{s:s, s:{s:s, s:s, s:s, s:s, s:s, s:I, s:i, s:i, s:b}}",
		"execute", "device_add", "arguments", "driver", "scsi-hd", "bus", "scsi0.0",
		"drive", p->node, "id", p->id, "serial", p->serial, "wwn", (json_int_t)wwn,
		"scsi-id", (int)p->scsi_id, "lun", 0, "share-rw", 1));
}

char *mpath_path_list_line(const struct mpath_path *p, unsigned int paths, const char *file)
{
	return xasprintf("%s %u %u %u %s\n", p->id, p->disk, p->path, paths, file);
}

int mpath_path_parse_line(const char *line, struct mpath_path *p)
{
	unsigned int disk, path, paths;
	char id[24];

	if (sscanf(line, "%23s %u %u %u", id, &disk, &path, &paths) != 4 || !paths ||
	    path >= paths || disk >= 256 || (unsigned long long)disk * paths + path > 255)
		return -EINVAL;
	mpath_path_init(p, disk, path, paths);
	return strcmp(id, p->id) ? -EINVAL : 0;
}
