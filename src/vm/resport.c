// SPDX-License-Identifier: GPL-2.0
/*
 * resport.c: --results as a device. The test records stream over a
 * virtio serial port: a write returns once qemu has taken the bytes, so a
 * later panic loses none of them. The files tests write go to DIR/files
 * over 9p, as plain files of ./vm's user (qopt_fsdev: a mapped security
 * model, no root needed, no setuid or device file). collect.c reads the port.
 */
#include <stdlib.h>

#include "devices.h"
#include "err.h"
#include "protocol.h"
#include "qopt.h"
#include "vm.h"

static void results_argv(const struct vm_launch *l, struct strv *argv)
{
	const struct vm_settings *s = l->s;
	char *files, *fsdev;

	if (!s->results_dir)
		return;
	files = xasprintf("%s/files", s->results_dir);
	fsdev = qopt_fsdev("resultsfs", files);
	strv_push(argv, "-chardev");
	strv_pushf(argv, "file,id=results,path=/dev/fd/%d", VM_FD_RESULTS);
	strv_push(argv, "-device");
	strv_push(argv, "virtserialport,chardev=results,name=" PORT_RESULTS);
	strv_push(argv, "-fsdev");
	strv_push(argv, fsdev);
	strv_push(argv, "-device");
	strv_push(argv, "virtio-9p-pci,fsdev=resultsfs,mount_tag=" PORT_RESULTS);
	free(fsdev);
	free(files);
}

static void results_kparams(const struct vm_launch *l, struct strv *k)
{
	const struct vm_settings *s = l->s;

	if (s->results_dir)
		strv_push(k, KP_RESULTS "1");
	if (s->shard_n)
		strv_pushf(k, KP_SHARD "%u/%u", s->shard_i, s->shard_n);
}

const struct vm_device vm_dev_results = {
	.name = "results",
	.argv = results_argv,
	.kparams = results_kparams,
};
