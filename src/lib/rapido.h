/* SPDX-License-Identifier: GPL-2.0 */
/* rapido.h: where things live: the checkout, rapido.conf, the state dir, images. */
#ifndef RAPIDO_RAPIDO_H
#define RAPIDO_RAPIDO_H

#include "conf.h"

/* Directory holding the running ./cut or ./vm (RAPIDO_DIR in the environment wins). */
const char *rapido_dir(void);

/*
 * Load rapido.conf: $RAPIDO_CONF if set (it must exist), else
 * RAPIDO_DIR/rapido.conf if present, else defaults only. Variables of the
 * environment override the file's values. Dies with FILE:LINE on errors;
 * warns about each key of the file that no program or profile reads.
 */
void rapido_conf_load_or_die(struct conf *c);

/* VM_STATE_DIR, or $XDG_RUNTIME_DIR/rapido, or /tmp/rapido-UID; created 0700. */
char *rapido_state_dir_or_die(const struct conf *c);

/* DRACUT_OUT, or RAPIDO_DIR/initrds/myinitrd. */
char *rapido_default_image(const struct conf *c);

/* Exit codes of ./vm besides the guest's own status (documented in README). */
enum {
	VM_EXIT_SPLAT = 121,		/* the scripts passed, the kernel reported a splat */
	VM_EXIT_HOST_STOPPED = 122,	/* stopped from the host (QMP quit, signal to qemu) */
	VM_EXIT_NO_STATUS = 123,	/* guest died without reporting: panic, crash */
	VM_EXIT_TIMEOUT = 124,		/* --timeout expired, qemu killed */
	VM_EXIT_FAILED = 125,		/* vm or qemu failed to start */
};

#endif
