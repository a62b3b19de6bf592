// SPDX-License-Identifier: GPL-2.0
/*
 * ksmbd-ipc.c: preloaded into Debian 12's ksmbd.mountd (ksmbd-tools 3.4.7)
 * so that the kernel takes its share configurations.
 *
 * ksmbd.mountd answers the kernel's KSMBD_EVENT_SHARE_CONFIG_REQUEST with a
 * struct ksmbd_share_config_response followed by the share's veto list and
 * path, but 3.4.7 leaves the struct's payload_sz at 0 (later ksmbd-tools
 * set it). Since "ksmbd: validate response sizes in ipc_validate_msg()"
 * (CVE-2026-31707; Debian's 6.1.192) the kernel drops a response whose
 * size is not sizeof(struct) + payload_sz, so every tree connect, IPC$'s
 * too, fails with STATUS_BAD_NETWORK_NAME and the cifs mount with ENOENT.
 * Here the response's payload_sz is set to the bytes that follow the
 * struct, as ksmbd-tools 3.5 does, when the program left it 0; every
 * other attribute goes to libnl's nla_put unchanged.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct nl_msg;

/* the kernel's fs/smb/server/ksmbd_netlink.h, the same in ksmbd-tools */
#define KSMBD_EVENT_SHARE_CONFIG_RESPONSE 7
#define SHARE_CONFIG_RESPONSE_SIZE 536	/* sizeof(struct ksmbd_share_config_response) */
#define SHARE_CONFIG_PAYLOAD_SZ 528	/* offsetof(..., payload_sz) */

typedef int nla_put_fn(struct nl_msg *msg, int attrtype, int datalen, const void *data);

int nla_put(struct nl_msg *msg, int attrtype, int datalen, const void *data);

int nla_put(struct nl_msg *msg, int attrtype, int datalen, const void *data)
{
	static nla_put_fn *real;
	uint32_t payload_sz;
	char *fixed;
	int rc;

	if (!real) {
		real = (nla_put_fn *)dlsym(RTLD_NEXT, "nla_put");
		/* no libnl under us: what libnl answers to a bad message, said once */
		if (!real) {
			static int said;

			if (!said++)
				fprintf(stderr, "rapido-ksmbd-ipc.so: dlsym(RTLD_NEXT, nla_put): %s\n",
					dlerror());
			return -1;
		}
	}
	if (attrtype != KSMBD_EVENT_SHARE_CONFIG_RESPONSE || datalen < SHARE_CONFIG_RESPONSE_SIZE)
		return real(msg, attrtype, datalen, data);
	memcpy(&payload_sz, (const char *)data + SHARE_CONFIG_PAYLOAD_SZ, sizeof(payload_sz));
	if (payload_sz)
		return real(msg, attrtype, datalen, data);
	/* the program's buffer stays as it is: a copy goes out */
	fixed = malloc((size_t)datalen);
	if (!fixed)
		return real(msg, attrtype, datalen, data);
	memcpy(fixed, data, (size_t)datalen);
	payload_sz = (uint32_t)(datalen - SHARE_CONFIG_RESPONSE_SIZE);
	memcpy(fixed + SHARE_CONFIG_PAYLOAD_SZ, &payload_sz, sizeof(payload_sz));
	rc = real(msg, attrtype, datalen, fixed);
	free(fixed);
	return rc;
}
