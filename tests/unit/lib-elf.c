// SPDX-License-Identifier: GPL-2.0
/*
 * lib-elf.c: the dynamic needs of real programs: bash (dynamic), a rapido
 * helper (static), a program built here with a run path, files that are
 * not ELF or are cut short, ELF files of other classes and byte orders
 * built here; and their libraries resolved in a sysroot made here, and in
 * this host's root. Whether a file's bytes ask for the dynamic loader.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "elfdeps.h"
#include "elfdyn.h"
#include "err.h"
#include "io.h"
#include "run.h"
#include "tap.h"

#if defined(__x86_64__)
#define HOST_EM EM_X86_64
#define HOST_TRIPLET "x86_64-linux-gnu"
#elif defined(__aarch64__)
#define HOST_EM EM_AARCH64
#define HOST_TRIPLET "aarch64-linux-gnu"
#endif

/* What a made-up ELF file holds: a program unless type says otherwise. */
struct fake_elf {
	int is64, big;
	unsigned int type, machine;
	const char *interp;		/* NULL: no PT_INTERP */
	const char *needed[4];		/* NULL-terminated */
	const char *runpath, *rpath;	/* NULL: no such entry */
	unsigned int shnum;		/* section headers claimed, past the end of the file */
};

#define FAKE_BASE 0x400000	/* where PT_LOAD maps the file: DT_STRTAB is an address */

static void put(unsigned char *p, uint64_t v, int bytes, int big)
{
	for (int i = 0; i < bytes; i++)
		p[big ? bytes - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

/* Append s with its NUL to the string table at *len; its offset there. */
static uint64_t add_str(char *tab, size_t *len, const char *s)
{
	uint64_t at = *len;

	memcpy(tab + *len, s, strlen(s) + 1);
	*len += strlen(s) + 1;
	return at;
}

/*
 * An ELF file with one PT_LOAD mapping all of it, PT_INTERP and
 * PT_DYNAMIC: header, program headers, interpreter, string table,
 * dynamic section. Written to path; 0 or -errno.
 */
static int fake_elf_write(const char *path, const struct fake_elf *f)
{
	size_t eh = f->is64 ? 64 : 52, phsz = f->is64 ? 56 : 32, w = f->is64 ? 8 : 4;
	size_t phoff = eh, nph = f->interp ? 3 : 2, interp_off = phoff + nph * phsz;
	size_t str_off = interp_off + (f->interp ? strlen(f->interp) + 1 : 0);
	char tab[512] = "";
	size_t tablen = 1, dyn_off, ndyn = 0, len;
	uint64_t dyn[16][2];
	unsigned char buf[4096] = { 0 }, *ph;

	for (size_t i = 0; f->needed[i]; i++)
		dyn[ndyn][0] = DT_NEEDED, dyn[ndyn++][1] = add_str(tab, &tablen, f->needed[i]);
	if (f->runpath)
		dyn[ndyn][0] = DT_RUNPATH, dyn[ndyn++][1] = add_str(tab, &tablen, f->runpath);
	if (f->rpath)
		dyn[ndyn][0] = DT_RPATH, dyn[ndyn++][1] = add_str(tab, &tablen, f->rpath);
	dyn[ndyn][0] = DT_STRTAB, dyn[ndyn++][1] = FAKE_BASE + str_off;
	dyn[ndyn][0] = DT_STRSZ, dyn[ndyn++][1] = tablen;
	dyn[ndyn][0] = DT_NULL, dyn[ndyn++][1] = 0;
	dyn_off = (str_off + tablen + 7) & ~(size_t)7;
	len = dyn_off + ndyn * 2 * w;

	memcpy(buf, ELFMAG, SELFMAG);
	buf[EI_CLASS] = f->is64 ? ELFCLASS64 : ELFCLASS32;
	buf[EI_DATA] = f->big ? ELFDATA2MSB : ELFDATA2LSB;
	buf[EI_VERSION] = EV_CURRENT;
	put(buf + 16, f->type ? f->type : ET_DYN, 2, f->big);
	put(buf + 18, f->machine, 2, f->big);
	put(buf + 20, EV_CURRENT, 4, f->big);
	put(buf + (f->is64 ? 32 : 28), phoff, (int)w, f->big);
	put(buf + (f->is64 ? 52 : 40), eh, 2, f->big);
	put(buf + (f->is64 ? 54 : 42), phsz, 2, f->big);
	put(buf + (f->is64 ? 56 : 44), nph, 2, f->big);
	if (f->shnum) {
		put(buf + (f->is64 ? 40 : 32), 1 << 20, (int)w, f->big);	/* e_shoff */
		put(buf + (f->is64 ? 58 : 46), f->is64 ? 64 : 40, 2, f->big);
		put(buf + (f->is64 ? 60 : 48), f->shnum, 2, f->big);
	}
	for (size_t i = 0; i < nph; i++) {
		/* PT_LOAD of the whole file, then PT_DYNAMIC, then PT_INTERP */
		uint64_t type = i == 0 ? PT_LOAD : i == 1 ? PT_DYNAMIC : PT_INTERP;
		uint64_t off = i == 0 ? 0 : i == 1 ? dyn_off : interp_off;
		uint64_t size = i == 0 ? len : i == 1 ? ndyn * 2 * w : strlen(f->interp) + 1;

		ph = buf + phoff + i * phsz;
		put(ph, type, 4, f->big);
		put(ph + (f->is64 ? 8 : 4), off, (int)w, f->big);		/* p_offset */
		put(ph + (f->is64 ? 16 : 8), FAKE_BASE + off, (int)w, f->big);	/* p_vaddr */
		put(ph + (f->is64 ? 32 : 16), size, (int)w, f->big);		/* p_filesz */
	}
	if (f->interp)
		memcpy(buf + interp_off, f->interp, strlen(f->interp) + 1);
	memcpy(buf + str_off, tab, tablen);
	for (size_t i = 0; i < ndyn; i++) {
		put(buf + dyn_off + 2 * i * w, dyn[i][0], (int)w, f->big);
		put(buf + dyn_off + (2 * i + 1) * w, dyn[i][1], (int)w, f->big);
	}
	return write_file_atomic(path, buf, len, 0755);
}

/* Every class and byte order reads back as written. */
static void test_classes(const char *dir)
{
	static const struct { int is64, big; unsigned int machine; const char *name; } kinds[] = {
		{ 0, 1, EM_PPC, "32-bit big-endian" },
		{ 0, 0, EM_ARM, "32-bit little-endian" },
		{ 1, 1, EM_S390, "64-bit big-endian" },
	};
	char *path = xasprintf("%s/kind", dir);

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		struct fake_elf f = { .is64 = kinds[i].is64, .big = kinds[i].big,
				      .machine = kinds[i].machine, .interp = "/lib/ld.so.1",
				      .needed = { "libc.so.6", "libz.so.1" },
				      .runpath = "/opt/a:$ORIGIN", .rpath = "/old" };
		struct elf_deps d;
		int rc = fake_elf_write(path, &f);

		if (!rc)
			rc = elf_read_deps_path(path, &d);
		TAP_EQ_INT(rc, 0, "%s ELF read", kinds[i].name);
		tap_ok(!rc && d.machine == kinds[i].machine && d.type == ET_DYN && d.interp &&
		       !strcmp(d.interp, "/lib/ld.so.1") && d.needed.n == 2 &&
		       !strcmp(d.needed.v[0], "libc.so.6") && !strcmp(d.needed.v[1], "libz.so.1") &&
		       d.runpath && !strcmp(d.runpath, "/opt/a:$ORIGIN"),
		       "%s: machine %u, interpreter, needed in order, DT_RUNPATH over DT_RPATH",
		       kinds[i].name, d.machine);
		if (!rc)
			elf_deps_free(&d);
	}
	/* the loader reads no section header: ones past the end do not matter */
	{
		struct fake_elf f = { .is64 = 1, .machine = EM_X86_64, .needed = { "libc.so.6" },
				      .shnum = 30 };
		struct elf_deps d;
		int rc = fake_elf_write(path, &f);

		if (!rc)
			rc = elf_read_deps_path(path, &d);
		tap_ok(!rc && d.needed.n == 1, "section headers past the end: its needs read all the same (rc %d)",
		       rc);
		if (!rc)
			elf_deps_free(&d);
	}
	/* DT_RPATH alone is the run path */
	{
		struct fake_elf f = { .is64 = 1, .machine = EM_X86_64, .needed = { "libc.so.6" },
				      .rpath = "/old:/older" };
		struct elf_deps d;
		int rc = fake_elf_write(path, &f);

		if (!rc)
			rc = elf_read_deps_path(path, &d);
		tap_ok(!rc && !d.interp && d.runpath && !strcmp(d.runpath, "/old:/older"),
		       "without DT_RUNPATH, DT_RPATH is the run path (rc %d)", rc);
		if (!rc)
			elf_deps_free(&d);
	}
	unlink(path);
	free(path);
}

/* sv holds want (NULL-terminated), in order; shows what it holds when not. */
static int strv_is(const struct strv *sv, const char *const *want)
{
	size_t n = 0;

	while (want[n] && n < sv->n && !strcmp(sv->v[n], want[n]))
		n++;
	if (want[n] || n != sv->n) {
		printf("#   saw:");
		strv_print_quoted(stdout, sv);
		printf("\n");
		return 0;
	}
	return 1;
}

/*
 * An arm64 sysroot: the loader behind an absolute link, libc in
 * /usr/lib/TRIPLET, a library in a $ORIGIN run path behind a relative
 * link, one that is a linker script, one that is nowhere; and programs
 * that are not aarch64 ELF programs.
 */
static void test_sysroot(const char *dir)
{
	static const char *const dirs[] = { "", "/lib", "/lib/aarch64-linux-gnu", "/usr",
		"/usr/bin", "/usr/lib", "/usr/lib/aarch64-linux-gnu", "/usr/lib/prog" };
	const char *ld = "/lib/ld-linux-aarch64.so.1";
	struct fake_elf prog = { .is64 = 1, .machine = EM_AARCH64, .interp = ld,
				 .needed = { "libc.so.6", "libfoo.so.1", "libgone.so.9" },
				 .runpath = "$ORIGIN/../lib/prog" };
	struct fake_elf libc = { .is64 = 1, .machine = EM_AARCH64 };
	struct fake_elf foo = { .is64 = 1, .machine = EM_AARCH64,
				.needed = { "libbar.so", "libc.so.6" } };
	struct fake_elf x86 = prog, ppc = prog, obj = { .is64 = 1, .machine = EM_AARCH64,
							.type = ET_REL };
	const struct {
		const char *path;
		const struct fake_elf *elf;	/* else a link to link, else a file of text */
		const char *link, *text;
	} files[] = {
		{ .path = "/usr/bin/prog", .elf = &prog },
		{ .path = "/lib/aarch64-linux-gnu/ld-linux-aarch64.so.1", .elf = &libc },
		{ .path = ld, .link = "/lib/aarch64-linux-gnu/ld-linux-aarch64.so.1" },
		{ .path = "/usr/lib/aarch64-linux-gnu/libc.so.6", .elf = &libc },
		{ .path = "/usr/lib/prog/libfoo.so.1.2", .elf = &foo },
		{ .path = "/usr/lib/prog/libfoo.so.1", .link = "libfoo.so.1.2" },
		{ .path = "/lib/aarch64-linux-gnu/libbar.so", .text = "INPUT(libbar.so.1)\n" },
		{ .path = "/usr/bin/x86", .elf = &x86 },
		{ .path = "/usr/bin/ppc", .elf = &ppc },
		{ .path = "/usr/bin/prog.o", .elf = &obj },
		{ .path = "/usr/bin/script", .text = "#!/bin/sh\nexit 0\n" },
		{ .path = "/usr/bin/loop", .link = "loop" },
	};
	static const char *const want_libs[] = { "/lib/ld-linux-aarch64.so.1",
		"/usr/lib/aarch64-linux-gnu/libc.so.6", "/usr/bin/../lib/prog/libfoo.so.1",
		"/lib/aarch64-linux-gnu/libbar.so", NULL };
	static const char *const want_missing[] = { "libgone.so.9", NULL };
	struct strv libs = STRV_INIT, missing = STRV_INIT;
	char *root = xasprintf("%s/sysroot", dir), *p, *want;
	int rc = 0;

	x86.machine = EM_X86_64;
	ppc.is64 = 0, ppc.big = 1, ppc.machine = EM_PPC;
	for (size_t i = 0; !rc && i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		p = xasprintf("%s%s", root, dirs[i]);
		rc = mkdir(p, 0755) ? -errno : 0;
		free(p);
	}
	for (size_t i = 0; !rc && i < sizeof(files) / sizeof(files[0]); i++) {
		p = xasprintf("%s%s", root, files[i].path);
		if (files[i].elf)
			rc = fake_elf_write(p, files[i].elf);
		else if (files[i].link)
			rc = symlink(files[i].link, p) ? -errno : 0;
		else
			rc = write_file_atomic(p, files[i].text, strlen(files[i].text), 0755);
		free(p);
	}
	TAP_EQ_INT(rc, 0, "sysroot %s made", root);

	p = elf_sysroot_file(root, ld);
	want = xasprintf("%s/lib/aarch64-linux-gnu/ld-linux-aarch64.so.1", root);
	TAP_EQ_STR(p, want, "an absolute link is followed inside the sysroot");
	free(p);
	free(want);
	p = elf_sysroot_file(root, "/usr/bin/loop");
	tap_ok(!p, "a link to itself has no file");
	free(p);

	rc = elf_resolve_libs(root, "aarch64-linux-gnu", EM_AARCH64, "/usr/bin/prog", &libs, &missing);
	TAP_EQ_INT(rc, 0, "prog's libraries resolved");
	tap_ok(strv_is(&libs, want_libs),
	       "the loader, libc, libfoo by $ORIGIN, libbar through libfoo (a script, kept)");
	tap_ok(strv_is(&missing, want_missing), "the library found nowhere is named");
	strv_free(&libs);
	strv_free(&missing);

	TAP_EQ_INT(elf_resolve_libs(root, "aarch64-linux-gnu", EM_AARCH64, "/usr/bin/x86", &libs,
				    &missing), -EXDEV, "an x86_64 program is refused (-EXDEV)");
	TAP_EQ_INT(elf_resolve_libs(root, "aarch64-linux-gnu", EM_AARCH64, "/usr/bin/ppc", &libs,
				    &missing), -EXDEV,
		   "a 32-bit big-endian program is read and refused as another machine's");
	TAP_EQ_INT(elf_resolve_libs(root, "aarch64-linux-gnu", EM_AARCH64, "/usr/bin/script", &libs,
				    &missing), -ENOEXEC, "a script is no ELF program (-ENOEXEC)");
	TAP_EQ_INT(elf_resolve_libs(root, "aarch64-linux-gnu", EM_AARCH64, "/usr/bin/prog.o", &libs,
				    &missing), -ENOEXEC, "an object file is no program (-ENOEXEC)");
	TAP_EQ_INT(elf_resolve_libs(root, "aarch64-linux-gnu", EM_AARCH64, "/usr/bin/none", &libs,
				    &missing), -ENOENT, "a program not in the sysroot: -ENOENT");
	tap_ok(libs.n == 0 && missing.n == 0, "nothing added by the refused ones");
	strv_free(&libs);
	strv_free(&missing);
	free(root);
}

/* This host's root as the sysroot: bash's real libraries are all found. */
static void test_host_root(const char *bash)
{
#ifdef HOST_EM
	struct strv libs = STRV_INIT, missing = STRV_INIT;
	struct elf_deps d;
	int rc = elf_resolve_libs("", HOST_TRIPLET, HOST_EM, bash, &libs, &missing);
	int libc = 0, read = elf_read_deps_path(bash, &d);

	for (size_t i = 0; i < libs.n; i++)
		libc |= !strcmp(strrchr(libs.v[i], '/'), "/libc.so.6");
	TAP_EQ_INT(rc, 0, "%s's libraries resolved in /", bash);
	tap_ok(libc && missing.n == 0 && !read && d.interp && strv_contains(&libs, d.interp),
	       "its loader and libc.so.6 found, nothing missing (%zu libraries)", libs.n);
	if (!read)
		elf_deps_free(&d);
	strv_free(&libs);
	strv_free(&missing);
#else
	(void)bash;
	tap_skip("no triplet known for this host", "bash's libraries resolved in /");
	tap_skip("no triplet known for this host", "its loader and libc.so.6 found");
#endif
}

int main(void)
{
	char dir[] = "/tmp/rapido-elf-XXXXXX";
	struct elf_deps d;
	char *bash = find_in_path("bash"), *cc = find_in_path("cc");
	char *src, *out, *text, *cut;
	static const char prog[] = "#include <math.h>\n"
		"int main(int c, char **v) { return (int)sqrt((double)c + v[0][0]); }\n";
	size_t len;
	int rc;

	tap_plan(38);
	if (!mkdtemp(dir))
		return 1;

	rc = elf_read_deps_path(bash, &d);
	TAP_EQ_INT(rc, 0, "%s read", bash);
	tap_ok(d.interp && strstr(d.interp, "ld-linux"), "bash's interpreter is the loader (%s)",
	       d.interp ? d.interp : "none");
	tap_ok(strv_contains(&d.needed, "libc.so.6"), "bash needs libc.so.6");
#ifdef HOST_EM
	tap_ok(d.machine == HOST_EM && (d.type == ET_DYN || d.type == ET_EXEC),
	       "bash is a program of this host's machine (e_machine %u, e_type %u)", d.machine, d.type);
#else
	tap_skip("no e_machine known for this host", "bash's machine");
#endif
	elf_deps_free(&d);

	rc = elf_read_deps_path("build/guest/rapido-init", &d);
	tap_ok(rc == 0 && !d.interp && d.needed.n == 0, "the static init needs nothing");
	elf_deps_free(&d);

	TAP_EQ_INT(elf_read_deps_path("tests/unit/lib-elf.c", &d), -ENOEXEC, "a C file is not ELF");
	TAP_EQ_INT(elf_read_deps_path("tests/unit/no-such-file", &d), -ENOENT, "a missing file: -ENOENT");

	/* bash's first 200 bytes: the header points past the end of the file */
	cut = xasprintf("%s/short", dir);
	rc = read_file(bash, &text, &len);
	if (!rc)
		rc = write_file_atomic(cut, text, 200, 0755);
	TAP_EQ_INT(rc ? rc : elf_read_deps_path(cut, &d), -ENOEXEC, "a cut-short ELF file is refused");
	/* what build.c asks of each program of a bins layer, its bytes in memory */
	TAP_EQ_INT(rc ? rc : elf_asks_loader(text, len), 1, "bash's bytes ask for the dynamic loader");
	TAP_EQ_INT(rc ? rc : elf_asks_loader(text, 200), -ENOEXEC, "  its first 200 bytes: no ELF file");
	free(text);
	rc = read_file("build/guest/rapido-init", &text, &len);
	TAP_EQ_INT(rc ? rc : elf_asks_loader(text, len), 0, "the static init's bytes do not");
	free(text);
	TAP_EQ_INT(elf_asks_loader("#!/usr/bin/perl\n", 16), -ENOEXEC, "a script: no ELF file");

	src = xasprintf("%s/p.c", dir);
	out = xasprintf("%s/p", dir);
	if (!cc || write_file_atomic(src, prog, strlen(prog), 0644)) {
		for (int i = 0; i < 4; i++)
			tap_skip("no C compiler", "program with a run path");
	} else {
		char *argv[] = { cc, "-o", out, src, "-lm", "-Wl,-rpath,$ORIGIN/../lib:/opt/x",
				 "-Wl,--enable-new-dtags", NULL };
		int st = run_wait(argv, -1);

		TAP_EQ_INT(st, 0, "cc built the program");
		rc = elf_read_deps_path(out, &d);
		TAP_EQ_INT(rc, 0, "its needs read");
		tap_ok(strv_contains(&d.needed, "libm.so.6") && strv_contains(&d.needed, "libc.so.6"),
		       "it needs libm and libc");
		TAP_EQ_STR(d.runpath, "$ORIGIN/../lib:/opt/x", "DT_RUNPATH read as written");
		elf_deps_free(&d);
	}
	unlink(src);
	unlink(out);
	unlink(cut);
	free(src);
	free(out);
	free(cut);

	test_classes(dir);
	test_sysroot(dir);
	test_host_root(bash);
	tap_rm_tree(dir);
	free(bash);
	free(cc);
	return tap_done();
}
