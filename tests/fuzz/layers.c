// SPDX-License-Identifier: GPL-2.0
/*
 * layers.c: fuzz what ./vm reads of a layered image: the rapido/layers
 * list, and the image's form (img_probe: the head archive, the sizes, the
 * locator naming the cache). The input is the list, and also the image.
 * Properties: a parse error names rapido/layers and leaves no layers; a
 * parsed list formats and parses back to the same layers and tail; a
 * probe that fails says why; a layer's condition (when) reads back the
 * same, no boot without its parameters needs it, the first name of it
 * does; a cached image's layers each have a path in
 * the cache it names, a standalone one's sizes add up to the file.
 */
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "layers.h"

static void parse(const char *text)
{
	struct img_layers l, m;
	char *err = (char *)1, *again;
	int rc = img_layers_parse(text, &l, &err);

	if (rc) {
		fuzz_assert(rc == -EINVAL && err && strstr(err, IMG_LAYERS_NAME), "rc %d, error \"%s\"",
			    rc, err ? err : "(none)");
		fuzz_assert(!l.n && !l.v, "%zu layers left after an error", l.n);
		free(err);
		return;
	}
	fuzz_assert(!err, "success with an error \"%s\"", err);
	again = img_layers_format(&l);
	rc = img_layers_parse(again, &m, &err);
	fuzz_assert(!rc, "\"%s\" formats as \"%s\", which does not parse: %s", text, again, err);
	fuzz_assert(m.n == l.n && m.tail == l.tail, "%zu layers, tail %llu read back as %zu, %llu",
		    l.n, (unsigned long long)l.tail, m.n, (unsigned long long)m.tail);
	for (size_t i = 0; i < l.n; i++)
		fuzz_assert(!strcmp(l.v[i].kind, m.v[i].kind) && l.v[i].size == m.v[i].size &&
			    l.v[i].xxh == m.v[i].xxh && !strcmp(l.v[i].key, m.v[i].key) &&
			    !l.v[i].when == !m.v[i].when &&
			    (!l.v[i].when || !strcmp(l.v[i].when, m.v[i].when)),
			    "layer %zu read back differently from \"%s\"", i, again);
	/* a condition holds names ending in '=': the name itself asks for the layer */
	for (size_t i = 0; i < l.n; i++) {
		char *name;
		const char *p;

		if (!l.v[i].when)
			continue;
		fuzz_assert(!img_layer_wanted(&l.v[i], NULL, 0), "layer %zu wanted by no parameter", i);
		p = strchr(l.v[i].when, '=');
		fuzz_assert(p != NULL, "layer %zu: condition '%s' without '='", i, l.v[i].when);
		name = strndup(l.v[i].when, (size_t)(p - l.v[i].when) + 1);
		fuzz_assert(img_layer_wanted(&l.v[i], (const char *const *)&name, 1),
			    "layer %zu: '%s' does not ask for it (%s)", i, name, l.v[i].when);
		free(name);
	}
	free(again);
	img_layers_free(&m);
	img_layers_free(&l);
}

static void probe(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-image", MFD_CLOEXEC);
	struct img_layers l;
	enum img_form form;
	off_t head = -1;
	char *err = NULL;
	uint64_t sum = 0;
	int rc;

	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	rc = img_probe(fd, "fuzz.img", &l, &head, &form, &err);
	close(fd);
	if (rc) {
		fuzz_assert(rc < 0 && err && !strncmp(err, "fuzz.img: ", 10), "rc %d, error \"%s\"", rc,
			    err ? err : "(none)");
		fuzz_assert(!l.n && !l.v, "%zu layers left after an error", l.n);
		free(err);
		return;
	}
	fuzz_assert(!err, "success with an error \"%s\"", err);
	if (form == IMG_PLAIN) {
		fuzz_assert(!l.n, "a plain image with %zu layers", l.n);
		return;
	}
	fuzz_assert(form == IMG_CACHED || form == IMG_STANDALONE, "form %d", form);
	fuzz_assert(head > 0 && (size_t)head <= size, "head of %lld bytes in %zu", (long long)head, size);
	for (size_t i = 0; i < l.n; i++) {
		sum += l.v[i].size;
		if (form == IMG_CACHED)
			fuzz_assert(l.v[i].path && strstr(l.v[i].path, l.v[i].key),
				    "layer %zu: path %s", i, l.v[i].path ? l.v[i].path : "(none)");
	}
	if (form == IMG_STANDALONE)
		fuzz_assert((uint64_t)head + sum + l.tail == size, "standalone, sizes do not add up");
	img_layers_free(&l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size);

	parse(text);
	free(text);
	probe(data, size);
	return 0;
}
