// SPDX-License-Identifier: GPL-2.0
/*
 * execout.c: rapido run -- CMD (watch.h). CMD goes on the kernel command
 * line (rapido.exec=NONCE,CRC,BASE64: the guest library runs it through
 * rapido-exec after the autorun, as its last part); its stdout and stderr
 * come back in frames on the console (src/proto/execframe.h, keyed by
 * this boot's nonce), which here alone go to ./vm's stdout and stderr:
 * the boot's and the profile's lines stay in the log. The exit status
 * is the verdict's, as for any batch run: CMD's, unless the kernel
 * reported a problem or the guest never reported.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices.h"
#include "err.h"
#include "execframe.h"
#include "io.h"
#include "protocol.h"
#include "status.h"
#include "vm.h"
#include "watch.h"

static void execout_kparams(const struct vm_launch *l, struct strv *k)
{
	const char *cmd = l->s->exec;
	size_t len;
	char *b64;

	if (!cmd)
		return;
	len = strlen(cmd);
	b64 = xmalloc(BASE64_LEN(len) + 1);
	b64[base64_encode(b64, cmd, len)] = '\0';
	/* the frames' nonce: this boot's, whose first digits are as good as any */
	strv_pushf(k, KP_EXEC "%.*s,%08x,%s", EXECFRAME_NONCE_LEN, l->nonce,
		   crc32_buf(0, cmd, len), b64);
	free(b64);
}

const struct vm_device vm_dev_execout = {
	.name = "execout",
	.kparams = execout_kparams,
};

void vm_execout_start(struct vm_watch *w)
{
	char nonce[EXECFRAME_NONCE_LEN + 1];

	if (!w->l->s->exec)
		return;
	if (!w->exec)
		w->exec = xmalloc(sizeof(*w->exec));
	snprintf(nonce, sizeof(nonce), "%.*s", EXECFRAME_NONCE_LEN, w->l->nonce);
	execframe_reader_init(w->exec, nonce);
}

/* One frame of CMD's output, to where CMD wrote it. */
static void execout_write(const struct execframe *f, void *arg)
{
	(void)arg;
	/* a closed stdout (| head) must not stop the run: the verdict still counts */
	(void)write_all(f->kind == EXECFRAME_OUT ? 1 : 2, f->data, f->len);
}

/* The one place rapido run's stdout is written: CMD's bytes, nothing else. */
void vm_execout_feed(struct vm_watch *w, const char *buf, size_t n)
{
	if (w->exec)
		execframe_reader_feed(w->exec, buf, n, execout_write, NULL);
}

int vm_execout_end(struct vm_watch *w)
{
	struct execframe_reader *r = w->exec;

	if (!r || r->state == EXECFRAME_DONE)
		return 0;
	if (r->state == EXECFRAME_FAILED) {
		warn("vm%u: the command's output did not come whole: %s (console log: %s)", w->l->vm,
		     r->err, w->l->console_log);
		return 0;
	}
	if (r->state == EXECFRAME_RUNNING)
		warn("vm%u: the command did not finish (console log: %s)", w->l->vm,
		     w->l->console_log);
	else
		warn("vm%u: the command never started: the profile failed or the guest stopped "
		     "first (console log: %s)", w->l->vm, w->l->console_log);
	return 1;
}
