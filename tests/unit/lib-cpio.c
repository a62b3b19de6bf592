// SPDX-License-Identifier: GPL-2.0
/* lib-cpio.c: newc archives we write are read back by us and by cpio(1). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpio.h"
#include "run.h"
#include "tap.h"

int main(void)
{
	char path[] = "/tmp/rapido-cpio-XXXXXX";
	struct cpio_writer w;
	char *data = NULL;
	size_t len = 0;
	int fd;

	tap_plan(8);
	fd = mkstemp(path);
	if (fd < 0)
		return 1;
	cpio_init(&w, fd);
	cpio_add_dir(&w, "rapido", 0755);
	cpio_add_file(&w, "rapido/vm.conf", 0644, "KERNEL=x\n", 9);
	cpio_add_file(&w, "rapido/odd", 0755, "abc", 3);
	TAP_EQ_INT(cpio_finish(&w), 0, "archive written");
	TAP_EQ_INT(lseek(fd, 0, SEEK_END) % 512, 0, "padded to 512 bytes");

	tap_ok(cpio_find(fd, "rapido/vm.conf", 8, &data, &len) == 0 && len == 9 &&
	       !strcmp(data, "KERNEL=x\n"), "vm.conf found and read back");
	free(data);
	tap_ok(cpio_find(fd, "rapido/odd", 8, &data, &len) == 0 && !strcmp(data, "abc"),
	       "unaligned file found");
	free(data);
	TAP_EQ_INT(cpio_find(fd, "rapido/none", 8, &data, &len), -ENOENT, "absent name: -ENOENT");
	TAP_EQ_INT(cpio_find(fd, "rapido/odd", 2, &data, &len), -ENOENT, "entry limit respected");
	close(fd);

	/* GNU cpio must agree with our reading of the format */
	{
		char *cpio = find_in_path("cpio");

		if (!cpio) {
			tap_skip("cpio(1) not installed", "cpio -t lists our archive");
		} else {
			char out[] = "/tmp/rapido-cpio-out-XXXXXX";
			int ofd = mkstemp(out), in = open(path, O_RDONLY), st;
			char *argv[] = { cpio, "-t", "--quiet", NULL };
			char buf[256] = { 0 };
			pid_t pid = fork();

			if (pid == 0) {
				dup2(in, 0);
				dup2(ofd, 1);
				execv(cpio, argv);
				_exit(127);
			}
			waitpid(pid, &st, 0);
			if (pread(ofd, buf, sizeof(buf) - 1, 0) < 0)
				buf[0] = '\0';
			TAP_EQ_STR(buf, "rapido\nrapido/vm.conf\nrapido/odd\n", "cpio -t lists our archive");
			unlink(out);
			close(ofd);
			close(in);
			free(cpio);
		}
	}
	/* a size field must be eight hex digits, not whatever strtoul() takes */
	fd = open(path, O_RDWR);
	tap_ok(fd >= 0 && pwrite(fd, "+0000000", 8, 54) == 8 &&
	       cpio_find(fd, "rapido/vm.conf", 8, &data, &len) == -EINVAL,
	       "a size field of \"+0000000\" is not a newc header");
	close(fd);
	unlink(path);
	return tap_done();
}
