// SPDX-License-Identifier: GPL-2.0
/*
 * port.c: find a virtio serial port by its name. Without udev there is no
 * /dev/virtio-ports/NAME link, so the port is found by its name in sysfs;
 * its device node appears once virtio_console has probed it, which may be
 * a while after modprobe returned.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "init.h"
#include "io.h"

char *init_find_port(const char *name)
{
	DIR *d = opendir("/sys/class/virtio-ports");
	struct dirent *e;
	char *found = NULL;

	if (!d)
		return NULL;
	while (!found && (e = readdir(d))) {
		char *path, *text;

		if (e->d_name[0] == '.')
			continue;
		path = xasprintf("/sys/class/virtio-ports/%s/name", e->d_name);
		if (!read_file(path, &text, NULL)) {
			text[strcspn(text, "\n")] = '\0';
			if (!strcmp(text, name))
				found = xasprintf("/dev/%s", e->d_name);
			free(text);
		}
		free(path);
	}
	closedir(d);
	return found;
}

char *init_wait_port(const char *name, int tries)
{
	for (int i = 0; i < tries; i++) {
		char *port = init_find_port(name);

		if (port && access(port, W_OK) == 0)
			return port;
		free(port);
		usleep(10000);
	}
	return NULL;
}
