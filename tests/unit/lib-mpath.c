// SPDX-License-Identifier: GPL-2.0
/* lib-mpath.c: a multipath path rendered for qemu, for QMP and for vmN.mpath, from one description. */
#include <stdlib.h>
#include <string.h>

#include "mpath.h"
#include "tap.h"

int main(void)
{
	struct mpath_path p, q;
	char *s;

	tap_plan(8);
	mpath_path_init(&p, 1, 2, 3);
	TAP_EQ_STR(p.id, "mp1p2", "qdev id");
	TAP_EQ_INT(p.scsi_id, 5, "SCSI id: disk * paths + path");
	s = mpath_path_device_arg(&p);
	TAP_EQ_STR(s, "scsi-hd,bus=scsi0.0,drive=mp1,id=mp1p2,serial=RAPIDOMP1,wwn=0x5000c0de00000001,"
		   "scsi-id=5,lun=0,share-rw=on", "qemu -device");
	free(s);
	s = mpath_path_device_add_json(&p);
	TAP_EQ_STR(s, "{\"execute\": \"device_add\", \"arguments\": {\"driver\": \"scsi-hd\", \"bus\": \"scsi0.0\", "
		   "\"drive\": \"mp1\", \"id\": \"mp1p2\", \"serial\": \"RAPIDOMP1\", \"wwn\": 5764819582749507585, "
		   "\"scsi-id\": 5, \"lun\": 0, \"share-rw\": true}}", "QMP device_add: the same properties, WWN as a number");
	free(s);
	s = mpath_path_list_line(&p, 3, "/var/tmp/disk 1.img");
	TAP_EQ_STR(s, "mp1p2 1 2 3 /var/tmp/disk 1.img\n", "vmN.mpath line");
	tap_ok(mpath_path_parse_line(s, &q) == 0 && !memcmp(&p, &q, sizeof(p)), "parsed back to the same path");
	free(s);
	tap_ok(mpath_path_parse_line("mp1p3 1 3 3 /x", &q) < 0, "path beyond the path count refused");
	tap_ok(mpath_path_parse_line("mp9p0 1 0 3 /x", &q) < 0, "id that does not match its numbers refused");
	return tap_done();
}
