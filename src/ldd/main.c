// SPDX-License-Identifier: GPL-2.0
/*
 * rapido-ldd FILE: ldd FILE, faster (ldd.c says how and when), or from the
 * answers computed ahead (answers.c) in $RAPIDO_LDD_ANSWERS. ./cut gives
 * it to dracut as DRACUT_LDD; anything it does not answer itself is ldd's.
 * rapido-ldd --answers DIR FILE...: compute those answers (./cut's).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io.h"
#include "ldd.h"
#include "strv.h"

int main(int argc, char **argv)
{
	/* ./cut's: the answers computed ahead, in the directory given */
	if (argc >= 3 && !strcmp(argv[1], "--answers"))
		return ldd_answers_prefetch(argv[2], argv + 3, argc - 3);
	/* ldd's own way for options, several files and names without a slash */
	if (argc == 2 && argv[1][0] != '-' && strchr(argv[1], '/')) {
		struct stat st;
		int fd = open_regular(argv[1], 0, &st);
		const char *answers = getenv("RAPIDO_LDD_ANSWERS");
		struct strv rtlds = STRV_INIT;

		if (fd >= 0 && !ldd_rtlds(&rtlds)) {
			const char *rtld = ldd_pick_rtld(fd, &rtlds);
			char key[64];
			int rc = -1;

			if (rtld && answers && *answers && !ldd_answer_key(fd, rtld, key))
				rc = ldd_answer_print(answers, key);
			if (rtld && rc < 0)
				rc = ldd_trace(rtld, argv[1], STDOUT_FILENO);
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
