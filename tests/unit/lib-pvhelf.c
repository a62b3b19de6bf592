// SPDX-License-Identifier: GPL-2.0
/*
 * lib-pvhelf.c: what ./vm's PVH boot (src/vm/pvh.c) reads: a bzImage's
 * payload (src/image/kimage.c kimage_payload) and the ELF it unpacks to
 * (src/image/pvhelf.c), on images and ELFs made here byte by byte.
 */
#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kimage.h"
#include "pvhelf.h"
#include "tap.h"

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/*
 * A bzImage: setup_sects 1 (1024 bytes of setup), protocol ver, the
 * payload at payload_offset 16: magic, then filler, then the size trailer.
 */
static size_t bzimage(unsigned char *b, size_t cap, unsigned int ver, const unsigned char *magic,
		      size_t mlen, uint32_t plen, uint32_t size)
{
	size_t start = 1024 + 16;

	memset(b, 0, cap);
	b[0x1f1] = 1;
	memcpy(b + 0x202, "HdrS", 4);
	b[0x206] = (unsigned char)ver;
	b[0x207] = (unsigned char)(ver >> 8);
	put32(b + 0x248, 16);
	put32(b + 0x24c, plen);
	memcpy(b + start, magic, mlen);
	put32(b + start + plen - 4, size);
	return start + plen;
}

static void test_payload(void)
{
	static unsigned char b[4096];
	static const unsigned char xz[] = { 0xfd, '7', 'z', 'X', 'Z', 0 }, gz[] = { 0x1f, 0x8b },
				   zst[] = { 0x28, 0xb5, 0x2f, 0xfd }, junk[] = { 'M', 'Z' };
	size_t off = 0, plen = 0, size = 0, n;
	enum kimage_comp comp = KIMAGE_GZIP;
	const char *why = NULL;

	n = bzimage(b, sizeof(b), 0x20f, xz, sizeof(xz), 100, 65906612);
	tap_ok(!kimage_payload(b, n, &off, &plen, &size, &comp, &why) && comp == KIMAGE_XZ &&
	       off == 1040 && plen == 96 && size == 65906612,
	       "xz: the payload after (setup_sects + 1) * 512 + payload_offset, without its size trailer");
	TAP_EQ_STR(kimage_unpack_argv(comp)[0], "xz", "  unpacked by xz");
	n = bzimage(b, sizeof(b), 0x20f, gz, sizeof(gz), 100, 1234);
	tap_ok(!kimage_payload(b, n, &off, &plen, &size, &comp, &why) && comp == KIMAGE_GZIP &&
	       plen == 100 && size == 1234, "gzip: its own trailer (ISIZE) is part of the stream");
	n = bzimage(b, sizeof(b), 0x20f, zst, sizeof(zst), 100, 7);
	tap_ok(!kimage_payload(b, n, &off, &plen, &size, &comp, &why) && comp == KIMAGE_ZSTD &&
	       !strcmp(kimage_unpack_argv(comp)[0], "zstd"), "zstd, unpacked by zstd");
	b[0x1f1] = 0;
	memmove(b + 5 * 512 + 16, b + 1040, 100);
	tap_ok(!kimage_payload(b, 5 * 512 + 16 + 100, &off, &plen, &size, &comp, &why) &&
	       off == 5 * 512 + 16, "setup_sects 0 means 4");

	n = bzimage(b, sizeof(b), 0x207, xz, sizeof(xz), 100, 1);
	tap_ok(kimage_payload(b, n, &off, &plen, &size, &comp, &why) == 1 && strstr(why, "2.08"),
	       "boot protocol 2.07 has no payload_offset: refused");
	n = bzimage(b, sizeof(b), 0x20f, xz, sizeof(xz), 100, 1);
	tap_ok(kimage_payload(b, n - 1, &off, &plen, &size, &comp, &why) == 1 &&
	       strstr(why, "past the end"), "a payload one byte past the end of the file: refused");
	put32(b + 0x248, 0xfffffff0);
	tap_ok(kimage_payload(b, n, &off, &plen, &size, &comp, &why) == 1,
	       "a payload_offset that would wrap: refused");
	n = bzimage(b, sizeof(b), 0x20f, junk, sizeof(junk), 100, 1);
	tap_ok(kimage_payload(b, n, &off, &plen, &size, &comp, &why) == 1 && strstr(why, "format"),
	       "an unknown compression: refused, named");
	memcpy(b + 0x202, "HdrT", 4);
	tap_ok(kimage_payload(b, n, &off, &plen, &size, &comp, &why) == 1 && strstr(why, "HdrS"),
	       "no HdrS: not a bzImage");
}

/*
 * An ELF64 x86-64 executable: one PT_LOAD of 64 bytes at 0x200, one
 * PT_NOTE at 0x100 holding a note (name, type), 2 section headers at 0x300.
 */
static size_t elf(unsigned char *b, size_t cap, const char *name, uint32_t type)
{
	Elf64_Ehdr eh = { 0 };
	Elf64_Phdr ph[2] = { { 0 } };
	Elf64_Nhdr nh = { .n_namesz = (uint32_t)strlen(name) + 1, .n_descsz = 8, .n_type = type };

	memset(b, 0, cap);
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_type = ET_EXEC;
	eh.e_machine = EM_X86_64;
	eh.e_phoff = sizeof(eh);
	eh.e_phentsize = sizeof(Elf64_Phdr);
	eh.e_phnum = 2;
	eh.e_shoff = 0x300;
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = 2;
	ph[0].p_type = PT_LOAD;
	ph[0].p_offset = 0x200;
	ph[0].p_filesz = 64;
	ph[1].p_type = PT_NOTE;
	ph[1].p_offset = 0x100;
	ph[1].p_filesz = sizeof(nh) + ((nh.n_namesz + 3) & ~3u) + 8;
	memcpy(b, &eh, sizeof(eh));
	memcpy(b + sizeof(eh), ph, sizeof(ph));
	memcpy(b + 0x100, &nh, sizeof(nh));
	memcpy(b + 0x100 + sizeof(nh), name, strlen(name));
	return 0x300 + 2 * sizeof(Elf64_Shdr);
}

static void test_elf(void)
{
	static unsigned char b[2048];
	const char *why = NULL;
	size_t n, end = 0;

	n = elf(b, sizeof(b), "Xen", 18);
	tap_ok(!pvh_elf_check(b, n + 500, &end, &why) && end == n,
	       "Xen's PHYS32_ENTRY note: bootable; the ELF ends after its section headers, not the file");
	n = elf(b, sizeof(b), "Xen", 17);
	tap_ok(pvh_elf_check(b, n, &end, &why) == 1 && strstr(why, "CONFIG_PVH"),
	       "another Xen note only: no PVH entry, CONFIG_PVH named");
	n = elf(b, sizeof(b), "Linux", 18);
	tap_ok(pvh_elf_check(b, n, &end, &why) == 1 && strstr(why, "PVH"),
	       "note type 18 of another owner (Linux): no PVH entry");
	n = elf(b, sizeof(b), "Xen", 18);
	tap_ok(pvh_elf_check(b, n - 1, &end, &why) == 1 && strstr(why, "section headers"),
	       "section headers one byte short: refused");
	tap_ok(pvh_elf_check(b, 0x200 + 63, &end, &why) == 1 && strstr(why, "segment"),
	       "a segment one byte short (cut short): refused");
	b[0x12] = EM_AARCH64;
	tap_ok(pvh_elf_check(b, n, &end, &why) == 1 && strstr(why, "x86-64"), "an arm64 ELF: refused");
	n = elf(b, sizeof(b), "Xen", 18);
	put32(b + 0x100, 0xfffffff0);
	tap_ok(pvh_elf_check(b, n, &end, &why) == 1, "a note whose name size overflows: no entry found");
	tap_ok(pvh_elf_check((const unsigned char *)"\177ELF", 4, &end, &why) == 1 &&
	       strstr(why, "not an ELF"), "four bytes of ELF magic: not an ELF");
}

int main(void)
{
	tap_plan(18);
	test_payload();
	test_elf();
	return tap_done();
}
