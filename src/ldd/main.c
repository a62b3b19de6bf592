// SPDX-License-Identifier: GPL-2.0
/*
 * rapido-ldd FILE: ldd FILE, faster (ldd.c says how and when). ./cut gives
 * it to dracut as DRACUT_LDD; anything it does not answer itself is ldd's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ldd.h"
#include "strv.h"

int main(int argc, char **argv)
{
	/* ldd's own way for options, several files and names without a slash */
	if (argc == 2 && argv[1][0] != '-' && strchr(argv[1], '/')) {
		int fd = open(argv[1], O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
		struct strv rtlds = STRV_INIT;
		struct stat st;

		if (fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode) && !ldd_rtlds(&rtlds)) {
			const char *rtld = ldd_pick_rtld(fd, &rtlds);
			int rc = rtld ? ldd_trace(rtld, argv[1]) : -1;

			if (rc >= 0) {
				close(fd);
				strv_free(&rtlds);
				return rc;
			}
		}
		if (fd >= 0)
			close(fd);
		strv_free(&rtlds);
	}
	argv[0] = "ldd";
	execvp("ldd", argv);
	fprintf(stderr, "rapido-ldd: cannot run ldd: %s\n", strerror(errno));
	return 127;
}
