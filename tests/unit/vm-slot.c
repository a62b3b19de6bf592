// SPDX-License-Identifier: GPL-2.0
/* vm-slot.c: VM numbers under flock: distinct while held, free again when released. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "vm.h"

int main(void)
{
	char dir[] = "/tmp/rapido-slot-XXXXXX";
	unsigned int a, b, c, d;
	int fa, fb, fc, fd, pipefd[2];
	pid_t pid;

	tap_plan(10);
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	tap_ok(vm_slot_take(dir, 4, &a, &fa) == 0 && a == 1, "first VM gets 1");
	tap_ok(vm_slot_take(dir, 4, &b, &fb) == 0 && b == 2, "second gets 2 while 1 is held");
	close(fa);
	tap_ok(vm_slot_take(dir, 4, &c, &fc) == 0 && c == 1, "1 is free again once released");

	/* a child holding a slot, like qemu holding the inherited lock */
	if (pipe(pipefd) < 0)
		return 1;
	pid = fork();
	if (pid == 0) {
		unsigned int n;
		int f;

		if (vm_slot_take(dir, 4, &n, &f))
			_exit(1);
		if (write(pipefd[1], &n, sizeof(n)) != sizeof(n))
			_exit(1);
		for (;;)
			pause();	/* hold the slot until killed */
	}
	{
		unsigned int n = 0;

		tap_ok(read(pipefd[0], &n, sizeof(n)) == sizeof(n) && n == 3,
		       "another process takes 3 (got %u)", n);
	}
	tap_ok(vm_slot_take(dir, 4, &d, &fd) == 0 && d == 4, "then 4");
	{
		unsigned int e;
		int fe;

		TAP_EQ_INT(vm_slot_take(dir, 4, &e, &fe), -EBUSY, "all 4 taken: -EBUSY");
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	{
		unsigned int e = 0;
		int fe;

		tap_ok(vm_slot_take(dir, 4, &e, &fe) == 0 && e == 3,
		       "a killed holder's stale file does not block its slot (got %u)", e);
	}
	{
		char *lock = NULL;
		FILE *f;
		int pid_in_file = 0;

		if (asprintf(&lock, "%s/vm4.lock", dir) < 0)
			return 1;
		f = fopen(lock, "r");
		if (f && fscanf(f, "%d", &pid_in_file) != 1)
			pid_in_file = 0;
		if (f)
			fclose(f);
		TAP_EQ_INT(pid_in_file, getpid(), "lock file names its holder");
		free(lock);
	}
	{
		/* the lock dir is everyone's: a hard link to a file is taken, never written */
		char other[] = "/tmp/rapido-slot-XXXXXX", *file = NULL, *lock = NULL, buf[16] = "";
		unsigned int e = 0;
		int fe, fo = -1;

		if (!mkdtemp(other) || asprintf(&file, "%s/victim", other) < 0 ||
		    asprintf(&lock, "%s/vm1.lock", other) < 0)
			return 1;
		fo = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fo < 0 || write(fo, "precious", 8) != 8 || close(fo) < 0 || link(file, lock) < 0)
			return 1;
		tap_ok(vm_slot_take(other, 4, &e, &fe) == 0 && e == 1,
		       "a lock file with another name is still a lock (got %u)", e);
		fo = open(file, O_RDONLY);
		if (fo < 0 || read(fo, buf, sizeof(buf) - 1) < 0)
			return 1;
		close(fo);
		TAP_EQ_STR(buf, "precious", "  but the PID is not written through its other name");
		unlink(lock);
		unlink(file);
		rmdir(other);
		free(file);
		free(lock);
	}
	return tap_done();
}
