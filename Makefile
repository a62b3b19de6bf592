# SPDX-License-Identifier: GPL-2.0
# One non-recursive Makefile. Quiet by default; V=1 shows full commands.
# WERROR=1 adds -Werror (CI), SANITIZE=1 builds host code with ASan+UBSan.
#
# Layout it builds (docs/HACKING.md, "The rooms"):
#   src/ROOM/*.c        a library each -> build/host/libROOM.a, one concern a room,
#                       lowest first (a room includes only rooms below it; the
#                       Makefile's -I per room and tests/unit/layering.sh keep it so):
#                         base     host+guest basics (err, io, strv, run, hash ...)
#                         proto    what host and guest say to each other
#                         conf     rapido.conf, the key registry, profiles, arch
#                         image    cpio, layers, kernels, modules, ELF
#                         qemu     QMP and the JSON it speaks (libjansson), multipath names
#                         results  verdicts: records, JUnit, KTAP, reports, known failures,
#                                  a run's collection, merge, compare, run.json; no launcher
#                                  (a launcher fills its one door, resctx.h)
#   tools/lib/*.c       guest-only code -> build/guest/libtools.a; a guest helper links
#                       it, proto and base only (build/guest/libbase.a ...)
#   src/cut/*.c         ./cut       (src/cut/main.c has main())
#   src/vm/*.c          ./vm        (src/vm/main.c has main())
#   src/vmctl/*.c       ./vmctl     (acts on a running VM over QMP)
#   src/netsetup/*.c    ./netsetup  (bridge and TAP devices, as root)
#   src/ceph-local/*.c  ./ceph-local (a small Ceph cluster, as root)
#   src/rapido/*.c      ./rapido    (the one command: rapido cut, rapido vm, ...;
#                       linked with the objects, except main, of the five above)
#   src/ldd/*.c         build/rapido-ldd (ldd for dracut while ./cut runs it:
#                       ldd's answer without its shell and probes)
#   src/bisect/*.c      ./bisect    (git bisect of a kernel, each step cut and booted;
#                       run as rapido bisect; reads ./vm's results.txt through
#                       src/results)
#   tools/NAME/*.c      guest helper, static -> build/guest/rapido-NAME
#                       (tools/NAME/main.c has main(); the rest is unit-testable),
#                       and cross-compiled for each of ARCHES -> build/ARCH/rapido-NAME;
#                       but INIT_TOOLS (ktap, exec), linked into rapido-init: their
#                       main.c has cmd_NAME(), which tools/init/main.c runs by the
#                       name it was started under; build/guest/rapido-NAME is a link
#   host/*              host scripts, not built: install-deps (make deps),
#                       kernel-config (make kernel-config), mpath-failover
#   tests/unit/NAME.c   unit test -> build/tests/NAME; links every room and the
#                       objects (except main) of what it tests, by its name:
#                       cut-* src/cut, vm-* src/vm, ceph-local* src/ceph-local, ldd-* src/ldd,
#                       bisect-* src/bisect, tool-NAME[-x] tools/NAME, lib-* none
#                       (TEST_DIRS_NAME adds more).
# Each file is compiled with its own directory's headers and those of the rooms
# it may use (INCS_DIR); a test or fuzz target with tests/, every room's and
# those of what it tests.

CC ?= cc
CFLAGS ?= -O2 -g
WARNFLAGS := -Wall -Wextra -Wformat=2 -Wmissing-prototypes -Wstrict-prototypes \
	-Wundef -Wvla -Wno-format-nonliteral
ifeq ($(WERROR),1)
WARNFLAGS += -Werror
endif
override CFLAGS += -std=gnu11 -D_GNU_SOURCE $(WARNFLAGS) -MMD -MP
# -pthread: ./cut stats a big tree's entries on every core (src/cut/treeread.c)
HOST_CFLAGS := $(CFLAGS) -pthread
HOST_LDFLAGS := $(LDFLAGS) -pthread
ifeq ($(SANITIZE),1)
HOST_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
HOST_LDFLAGS += -fsanitize=address,undefined
endif
# Guest helpers are static: the image needs no library resolution for them,
# and they run as PID 1 before anything else is mounted. And stripped (-s),
# as dracut strips what it installs: every byte of an image is unpacked by
# the guest's kernel before /init runs, on every boot (the symbols and
# debug information were a fifth of each helper).
# GUEST_STRIP= keeps them, for a gdb on the guest.
GUEST_STRIP ?= -s
# Each function and object in a section of its own, and the linker keeps
# only those reached: the helpers' own code that a helper never calls (the
# rooms' libraries hold more than any one helper uses), 150 KiB of the init.
GUEST_CFLAGS := $(CFLAGS) -ffunction-sections -fdata-sections
GUEST_LDFLAGS := $(LDFLAGS) -static $(GUEST_STRIP) -Wl,--gc-sections
# The helpers every image holds are one program: rapido-init, with ktap
# (results.sh's TAP reader) and exec (vmctl's and rapido run's) linked
# in, run by the name it was started under (tools/init/main.c); ./cut
# puts /usr/bin/rapido-ktap and /usr/bin/rapido-exec in as links to
# /init (build/guest/rapido-ktap and -exec are links to rapido-init).
# One copy of static glibc, not three (about 650 KiB each), for the
# kernel to unpack on every boot (about 8 ms a MiB under TCG, bench/boot
# --timeline's "initramfs unpacked"), and no helper that needs the
# image's C library (a dynamic start is also about 40 ms under TCG
# against 5 ms static). A profile's own helpers (#@ helpers:) stay
# programs of their own, in the images that ask for them.
INIT_TOOLS := ktap exec

# Foreign guest architectures (ARCH= of ./cut, src/conf/arch.c): their
# helpers are cross-compiled with CROSS_ARCH's gcc. ARCHES defaults to those
# whose cross compiler is installed (make deps ARCHES=arm64 installs it).
CROSS_arm64 ?= aarch64-linux-gnu-
FOREIGN_ARCHES := arm64
ARCHES ?= $(foreach a,$(FOREIGN_ARCHES),$(if $(shell command -v $(CROSS_$(a))gcc 2>/dev/null),$(a)))

ifeq ($(V),1)
Q :=
quiet = @true
else
Q := @
quiet = @printf '  %-7s %s\n' $(1) $(2)
endif

B := build
# The host rooms, highest first (a static link's order); the guest's own.
HOST_ROOMS := results qemu image conf proto base
GUEST_ROOMS := tools proto base
room_dir = $(if $(filter tools,$(1)),tools/lib,src/$(1))
room_srcs = $(wildcard $(call room_dir,$(1))/*.c)
# The rooms each room may include and call: those below it.
BELOW_base :=
BELOW_proto := base
BELOW_conf := proto base
BELOW_image := conf proto base
BELOW_qemu := base
BELOW_results := qemu image conf proto base
BELOW_tools := proto base
# The rooms each program links (and so may include), highest first.
ROOMS_cut := image conf proto base
ROOMS_vm := results qemu image conf proto base
ROOMS_vmctl := qemu conf proto base
ROOMS_netsetup := conf proto base
ROOMS_ceph-local := conf proto base
ROOMS_ldd := image conf proto base
ROOMS_bisect := results qemu image conf proto base
ROOMS_rapido := $(HOST_ROOMS)
# The shared libraries a room's (or a program's own) code calls, linked into
# whatever links that room: libjansson reads QMP and writes run.json
# (Debian: libjansson-dev, which host/install-deps installs). The guest's
# rooms call none: its helpers are static.
LIBS_qemu := -ljansson
LIBS_vm := -ljansson
# the image room reads compressed kernel modules itself (src/image/kmodfile.c):
# liblzma, libzstd, zlib (Debian: liblzma-dev, libzstd-dev, zlib1g-dev)
LIBS_image := $(or $(shell pkg-config --libs liblzma libzstd zlib 2>/dev/null),-llzma -lzstd -lz)
# libs_of ROOMS-OR-PROGRAMS: their libraries, each once, each a dependency
# of the program only if it calls it (bisect links the qemu room, not QMP)
comma := ,
libs_of = $(if $(strip $(foreach r,$(1),$(LIBS_$(r)))),-Wl$(comma)--as-needed \
	$(sort $(foreach r,$(1),$(LIBS_$(r)))) -Wl$(comma)--no-as-needed)
CUT_SRCS := $(wildcard src/cut/*.c)
VM_SRCS := $(wildcard src/vm/*.c)
VMCTL_SRCS := $(wildcard src/vmctl/*.c)
NETSETUP_SRCS := $(wildcard src/netsetup/*.c)
CEPH_LOCAL_SRCS := $(wildcard src/ceph-local/*.c)
RAPIDO_SRCS := $(wildcard src/rapido/*.c)
LDD_SRCS := $(wildcard src/ldd/*.c)
BISECT_SRCS := $(wildcard src/bisect/*.c)
# the programs rapido runs as its subcommands: their objects but main
FRONT_SRCS := $(filter-out %/main.c,$(CUT_SRCS) $(VM_SRCS) $(VMCTL_SRCS) $(NETSETUP_SRCS) \
	$(CEPH_LOCAL_SRCS))
# tools/ holds guest helpers only, one directory each (host scripts are in host/)
# (tools/lib is the guests' library, not a tool)
TOOLS := $(filter-out lib,$(notdir $(patsubst %/,%,$(wildcard tools/*/))))
# the tools linked as programs of their own: rapido-init holds INIT_TOOLS
OWN_TOOLS := $(filter-out $(INIT_TOOLS),$(TOOLS))
# tool_objs DIR TOOL: the objects of TOOL's program (the init's: INIT_TOOLS' too)
tool_objs = $(patsubst %.c,$(1)/%.o,$(foreach d,$(2) $(if $(filter init,$(2)),$(INIT_TOOLS)),$(wildcard tools/$(d)/*.c)))
UNIT_SRCS := $(wildcard tests/unit/*.c)

# Sanitized host objects live apart, so switching SANITIZE never mixes them.
HOSTDIR := $(if $(filter 1,$(SANITIZE)),host-san,host)
# Rebuild when the flags change (WERROR, SANITIZE, CFLAGS): a stamp per flag set.
FLAGS_STAMP := $(B)/flags-$(HOSTDIR)
FLAGS_ALL := $(HOST_CFLAGS) $(HOST_LDFLAGS) guest: $(GUEST_LDFLAGS) init: $(INIT_TOOLS)
$(shell mkdir -p $(B); echo '$(FLAGS_ALL)' | cmp -s - $(FLAGS_STAMP) || echo '$(FLAGS_ALL)' > $(FLAGS_STAMP))
# the guest's objects: their own stamp, so a switch of SANITIZE (the host's) rebuilds none
GUEST_STAMP := $(B)/flags-guest
$(shell echo '$(GUEST_CFLAGS)' | cmp -s - $(GUEST_STAMP) || echo '$(GUEST_CFLAGS)' > $(GUEST_STAMP))

# The version every --version prints (src/conf/version.c) and the man pages
# say: git describe at build time; a tree without git (make deb's copy)
# has it in .version. version.o is rebuilt when it changes (a stamp).
VERSION ?= $(shell cat .version 2>/dev/null || git describe --always --dirty 2>/dev/null || echo unknown)
VERSION_STAMP := $(B)/version
$(shell echo '$(VERSION)' | cmp -s - $(VERSION_STAMP) || echo '$(VERSION)' > $(VERSION_STAMP))

# The top-level programs are linked from either object set: relink them when
# the set changes (a stamp whose content is the set, rewritten only then).
HOSTDIR_STAMP := $(B)/hostdir
$(shell echo '$(HOSTDIR)' | cmp -s - $(HOSTDIR_STAMP) || echo '$(HOSTDIR)' > $(HOSTDIR_STAMP))

hostobj = $(patsubst %.c,$(B)/$(HOSTDIR)/%.o,$(1))
guestobj = $(patsubst %.c,$(B)/guest/%.o,$(1))

# roomlibs DIR ROOMS: the archives of ROOMS under DIR, in link order
roomlibs = $(foreach r,$(2),$(1)/lib$(r).a)
HOST_LIBS := $(call roomlibs,$(B)/$(HOSTDIR),$(HOST_ROOMS))
GUEST_LIBS := $(call roomlibs,$(B)/guest,$(GUEST_ROOMS))
GUEST_BINS := $(foreach t,$(TOOLS),$(B)/guest/rapido-$(t))
GUEST_MAPS := $(foreach t,$(OWN_TOOLS),$(B)/guest/rapido-$(t).map)
UNIT_BINS := $(patsubst tests/unit/%.c,$(B)/tests/%,$(UNIT_SRCS))

# What a test or fuzz target named $(1) tests: the directories of its objects and headers.
# lib-layers.c also reads the layered image the way ./vm does.
TEST_DIRS_lib-layers := src/vm
under_test = $(strip $(if $(filter cut-%,$(1)),src/cut) $(if $(filter vm-%,$(1)),src/vm) \
	$(if $(filter ceph-local%,$(1)),src/ceph-local) $(if $(filter bisect-%,$(1)),src/bisect) \
	$(if $(filter ldd-%,$(1)),src/ldd) \
	$(if $(filter tool-%,$(1)),tools/$(call tool_of,$(1))) $(TEST_DIRS_$(1)))
# their objects, except main
tested_srcs = $(filter-out %/main.c,$(foreach d,$(call under_test,$(1)),$(wildcard $(d)/*.c)))
# -I for the source $(1): its own directory and the rooms it may use: a
# room's, those below it; a program's, those it links; a guest tool's, the
# guest's; a test's or fuzz target's, every room, tests/ and what it tests.
room_incs = $(addprefix -I,$(foreach r,$(1),$(call room_dir,$(r))))
INCS_src/base := $(call room_incs,$(BELOW_base))
INCS_src/proto := $(call room_incs,$(BELOW_proto))
INCS_src/conf := $(call room_incs,$(BELOW_conf))
INCS_src/image := $(call room_incs,$(BELOW_image))
INCS_src/qemu := $(call room_incs,$(BELOW_qemu))
INCS_src/results := $(call room_incs,$(BELOW_results))
INCS_tools/lib := $(call room_incs,$(BELOW_tools))
$(foreach p,cut vm vmctl netsetup ceph-local ldd bisect rapido,$(eval INCS_src/$(p) := $(call room_incs,$(ROOMS_$(p)))))
$(foreach t,$(TOOLS),$(eval INCS_tools/$(t) := $(call room_incs,$(GUEST_ROOMS))))
# tools/init/main.c also sees the headers of the tools it runs (their cmd_NAME())
INCS_tools/init += $(addprefix -Itools/,$(INIT_TOOLS))
# src/rapido also sees the headers of the programs it runs (their cmd_NAME())
INCS_src/rapido += -Isrc/cut -Isrc/vm -Isrc/vmctl -Isrc/netsetup -Isrc/ceph-local
incs = -I$(patsubst %/,%,$(dir $(1))) $(INCS_$(patsubst %/,%,$(dir $(1)))) \
	$(if $(filter tests/%,$(1)),-Itests $(call room_incs,$(HOST_ROOMS) tools) \
		$(addprefix -I,$(call under_test,$(notdir $(basename $(1))))))

CROSS_BINS := $(foreach a,$(ARCHES),$(foreach t,$(TOOLS),$(B)/$(a)/rapido-$(t)))
# preload/NAME.c: a library the guest preloads into a distribution's program
# to fix it up (ksmbd-ipc: Debian 12's ksmbd.mountd), built for the guest
# like the helpers, but shared -> build/{guest,ARCH}/rapido-NAME.so; a
# profile takes it with "#@ helpers: NAME.so" (/usr/bin/rapido-NAME.so)
PRELOADS := $(patsubst preload/%.c,%,$(wildcard preload/*.c))
GUEST_SOS := $(foreach p,$(PRELOADS),$(B)/guest/rapido-$(p).so)
CROSS_SOS := $(foreach a,$(ARCHES),$(foreach p,$(PRELOADS),$(B)/$(a)/rapido-$(p).so))

all: cut vm vmctl netsetup ceph-local rapido run bisect $(B)/rapido-ldd $(GUEST_BINS) $(GUEST_MAPS) $(CROSS_BINS) \
	$(GUEST_SOS) \
	$(CROSS_SOS) $(B)/completion/_rapido

$(B)/$(HOSTDIR)/%.o: %.c $(FLAGS_STAMP)
	$(call quiet,CC,$@)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(HOST_CFLAGS) $(call incs,$<) -c -o $@ $<

VERSION_OBJS := $(call hostobj,src/conf/version.c)
$(VERSION_OBJS): $(VERSION_STAMP)
$(VERSION_OBJS): HOST_CFLAGS += -DRAPIDO_VERSION='"$(VERSION)"'
$(VERSION_OBJS): GUEST_CFLAGS += -DRAPIDO_VERSION='"$(VERSION)"'

$(B)/guest/%.o: %.c $(GUEST_STAMP)
	$(call quiet,CC,$@)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(GUEST_CFLAGS) $(call incs,$<) -c -o $@ $<

# a room's archive, for the host, the guest and (the guest's rooms) each foreign arch
define room_lib
$(B)/$(HOSTDIR)/lib$(1).a: $(call hostobj,$(call room_srcs,$(1)))
	$$(call quiet,AR,$$@)
	$(Q)rm -f $$@ && $(AR) rcs $$@ $$^
$(B)/guest/lib$(1).a: $(call guestobj,$(call room_srcs,$(1)))
	$$(call quiet,AR,$$@)
	$(Q)rm -f $$@ && $(AR) rcs $$@ $$^
endef
$(foreach r,$(HOST_ROOMS) tools,$(eval $(call room_lib,$(r))))

# program NAME OUTPUT SRCS: OUTPUT linked from SRCS' objects and the rooms of NAME
define program
$(2): $(call hostobj,$(3)) $(call roomlibs,$(B)/$(HOSTDIR),$(ROOMS_$(1))) $(FLAGS_STAMP) $(HOSTDIR_STAMP)
	$$(call quiet,LD,$$@)
	$(Q)$$(CC) $$(HOST_LDFLAGS) -o $$@ $$(filter %.o %.a,$$^) $(call libs_of,$(1) $(ROOMS_$(1)))
endef
$(eval $(call program,cut,cut,$(CUT_SRCS)))
$(eval $(call program,vm,vm,$(VM_SRCS)))
$(eval $(call program,vmctl,vmctl,$(VMCTL_SRCS)))
$(eval $(call program,netsetup,netsetup,$(NETSETUP_SRCS)))
$(eval $(call program,ceph-local,ceph-local,$(CEPH_LOCAL_SRCS)))
$(eval $(call program,rapido,rapido,$(RAPIDO_SRCS) $(FRONT_SRCS)))
$(eval $(call program,ldd,$(B)/rapido-ldd,$(LDD_SRCS)))
# ./run: rapido run, by its name (src/rapido/front.c runs the subcommand argv[0] names)
run: rapido
	$(call quiet,LN,$@)
	$(Q)ln -sf rapido $@
$(eval $(call program,bisect,bisect,$(BISECT_SRCS)))

# zsh's completion: the bash one's functions run through zsh's bashcompinit
ZSH_COMPLETION := $(addprefix scripts/completion/,zsh-head rapido.bash zsh-tail)
$(B)/completion/_rapido: $(ZSH_COMPLETION)
	$(call quiet,GEN,$@)
	@mkdir -p $(dir $@)
	$(Q)cat $^ > $@.tmp && mv $@.tmp $@

# each with its link map beside it, build/guest/rapido-NAME.map: which
# object of which archive went in (tests/unit/layering.sh reads it: a guest
# helper holds only base, proto, tools/lib and its own objects, the init
# those of INIT_TOOLS too)
define guest_tool
$(B)/guest/rapido-$(1) $(B)/guest/rapido-$(1).map &: $(call tool_objs,$(B)/guest,$(1)) $(GUEST_LIBS) $(FLAGS_STAMP)
	$$(call quiet,LD,$(B)/guest/rapido-$(1))
	$(Q)$$(CC) $$(GUEST_LDFLAGS) -Wl,-Map=$(B)/guest/rapido-$(1).map -o $(B)/guest/rapido-$(1) $$(filter-out $(FLAGS_STAMP),$$^)
endef
$(foreach t,$(OWN_TOOLS),$(eval $(call guest_tool,$(t))))
# INIT_TOOLS' names: links to the init's program, for ./cut and the tests
# (the init runs each by the name it is started under)
define init_link
$(B)/$(1)/rapido-$(2): $(B)/$(1)/rapido-init
	$$(call quiet,LN,$$@)
	$(Q)ln -sfn rapido-init $$@
endef
$(foreach d,guest $(FOREIGN_ARCHES),$(foreach t,$(INIT_TOOLS),$(eval $(call init_link,$(d),$(t)))))

# (a preload's dependency file goes under obj/: beside it, make install's
# rapido-* of a foreign arch would ship it)
$(B)/guest/rapido-%.so: preload/%.c $(FLAGS_STAMP)
	$(call quiet,CC,$@)
	@mkdir -p $(dir $@) $(B)/guest/obj/preload
	$(Q)$(CC) $(GUEST_CFLAGS) -MF $(B)/guest/obj/preload/$*.d -fPIC -shared -o $@ $< -ldl

# the same helpers for each foreign ARCH, objects in build/ARCH/obj
define cross_arch
$(B)/$(1)/obj/%.o: %.c $(GUEST_STAMP)
	$$(call quiet,CC,$$@)
	@mkdir -p $$(dir $$@)
	$(Q)$(CROSS_$(1))gcc $$(GUEST_CFLAGS) $$(call incs,$$<) -c -o $$@ $$<

$(foreach r,$(GUEST_ROOMS),$(B)/$(1)/lib$(r).a):
	$$(call quiet,AR,$$@)
	$(Q)rm -f $$@ && $(CROSS_$(1))ar rcs $$@ $$^

$(foreach t,$(OWN_TOOLS),$(B)/$(1)/rapido-$(t)): $(B)/$(1)/rapido-%: $(call roomlibs,$(B)/$(1),$(GUEST_ROOMS)) $(FLAGS_STAMP)
	$$(call quiet,LD,$$@)
	$(Q)$(CROSS_$(1))gcc $$(GUEST_LDFLAGS) -o $$@ $$(filter %.o,$$^) $$(filter %.a,$$^)

$(B)/$(1)/rapido-%.so: preload/%.c $(FLAGS_STAMP)
	$$(call quiet,CC,$$@)
	@mkdir -p $$(dir $$@) $(B)/$(1)/obj/preload
	$(Q)$(CROSS_$(1))gcc $$(GUEST_CFLAGS) -MF $(B)/$(1)/obj/preload/$$*.d -fPIC -shared -o $$@ $$< -ldl
endef
$(foreach a,$(FOREIGN_ARCHES),$(eval $(call cross_arch,$(a))))
$(foreach a,$(FOREIGN_ARCHES),$(foreach r,$(GUEST_ROOMS),$(eval $(B)/$(a)/lib$(r).a: \
	$(patsubst %.c,$(B)/$(a)/obj/%.o,$(call room_srcs,$(r))))))
$(foreach a,$(FOREIGN_ARCHES),$(foreach t,$(OWN_TOOLS),$(eval $(B)/$(a)/rapido-$(t): $(call tool_objs,$(B)/$(a)/obj,$(t)))))

# tests/unit/tool-NAME*.c tests tools/NAME (the longest tools/ dir name that
# the test name starts with: afalg-sum, not afalg)
tool_of = $(lastword $(sort $(foreach t,$(TOOLS),$(if $(filter tool-$(t) tool-$(t)-%,$(1)),$(t)))))
define unit_test
$(B)/tests/$(1): $(B)/$(HOSTDIR)/tests/unit/$(1).o $(call hostobj,$(call tested_srcs,$(1))) \
		$(B)/$(HOSTDIR)/libtools.a $(HOST_LIBS) $(FLAGS_STAMP)
	$$(call quiet,LD,$$@)
	@mkdir -p $$(dir $$@)
	$(Q)$$(CC) $$(HOST_LDFLAGS) -o $$@ $$(filter %.o %.a,$$^) $(call libs_of,$(HOST_ROOMS) vm)
endef
$(foreach u,$(patsubst tests/unit/%.c,%,$(UNIT_SRCS)),$(eval $(call unit_test,$(u))))

tests: $(UNIT_BINS)

# Man pages, generated so they cannot drift: rapido(1), cut(1), vm(1), vmctl(1), bisect(1),
# netsetup(8) and ceph-local(8) by help2man from each program's --help (docs/man/gnu-help turns
# the util-linux usage block into the form help2man reads) plus
# docs/man/NAME.h2m for what --help does not say; rapido.conf(5) from
# rapido.conf.example by docs/man/conf2man. Installed, they are renamed
# (docs/man/rename): rapido-cut(1) and so on.
MAN1 := rapido cut vm vmctl bisect
MAN8 := netsetup ceph-local
MAN_PAGES := $(patsubst %,$(B)/man/%.1,$(MAN1)) $(patsubst %,$(B)/man/%.8,$(MAN8)) $(B)/man/rapido.conf.5
HELP2MAN ?= help2man

man: $(MAN_PAGES)

define man_page
$(B)/man/$(1).$(2): $(1) docs/man/$(1).h2m docs/man/gnu-help
	$$(call quiet,MAN,$$@)
	@mkdir -p $(B)/man/bin
	$(Q)printf '#!/bin/sh\nexec "%s" "%s" "$$$$@"\n' $(abspath docs/man/gnu-help) $(abspath $(1)) > $(B)/man/bin/$(1)
	$(Q)chmod +x $(B)/man/bin/$(1)
	$(Q)$(HELP2MAN) --no-info --no-discard-stderr --section=$(2) --version-string='$(VERSION)' \
		--source=rapido --include=docs/man/$(1).h2m -o $$@.tmp $(B)/man/bin/$(1) && mv $$@.tmp $$@
endef
$(foreach p,$(MAN1),$(eval $(call man_page,$(p),1)))
$(foreach p,$(MAN8),$(eval $(call man_page,$(p),8)))

$(B)/man/rapido.conf.5: rapido.conf.example docs/man/conf2man
	$(call quiet,MAN,$@)
	@mkdir -p $(B)/man
	$(Q)awk -v version='$(VERSION)' -f docs/man/conf2man rapido.conf.example > $@.tmp && mv $@.tmp $@

# Two installed layouts, both with the profiles, dracut.conf.d, the static
# guest helpers (build/guest/, the layout ./cut expects) and bisect (when
# built) in PREFIX/lib/rapido, which an installed program finds as
# BINDIR/../lib/rapido, and rapido.conf(5):
#
# make install [PREFIX=/usr/local] [DESTDIR=...] [PROGRAM_PREFIX=rapido-]:
# the programs to BINDIR as PROGRAM_PREFIX-NAME (default rapido-: an
# unprefixed cut would shadow coreutils' cut in a PATH that lists BINDIR
# first; PROGRAM_PREFIX= for the bare names, e.g. in a private prefix) and
# rapido; the man pages under the installed names (rapido-cut.1 says
# rapido-cut); the bash completion of each.
#
# make install-rapido [PREFIX=/usr/local] [DESTDIR=...] (the Debian
# package's, debian/rules): BINDIR/rapido only, as git is one command; the
# pages rapido(1), rapido-cut(1) and so on (which say "rapido cut"); the
# bash and zsh completion of rapido.
#
# host/install-conflicts refuses first, naming them, the files a Debian
# package already owns: a system install never replaces another package's.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
RAPIDO_LIBDIR := $(BINDIR)/../lib/rapido
MANDIR ?= $(PREFIX)/share/man
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
ZSH_COMPLETIONDIR ?= $(PREFIX)/share/zsh/vendor-completions
PROGRAM_PREFIX ?= rapido-
PROGRAMS := cut vm vmctl netsetup ceph-local
COMPLETED := cut vm vmctl netsetup
# every file each install writes outside RAPIDO_LIBDIR, as it will be on the system
INSTALLED_MAN = $(foreach p,$(filter-out rapido,$(MAN1)),$(MANDIR)/man1/$(1)$(p).1) \
	$(foreach p,$(MAN8),$(MANDIR)/man8/$(1)$(p).8) \
	$(MANDIR)/man1/rapido.1 $(MANDIR)/man5/rapido.conf.5
INSTALLED := $(foreach p,$(PROGRAMS),$(BINDIR)/$(PROGRAM_PREFIX)$(p)) $(BINDIR)/rapido \
	$(call INSTALLED_MAN,$(PROGRAM_PREFIX)) \
	$(foreach p,$(COMPLETED),$(COMPLETIONDIR)/$(PROGRAM_PREFIX)$(p)) $(COMPLETIONDIR)/rapido
INSTALLED_RAPIDO := $(BINDIR)/rapido $(call INSTALLED_MAN,rapido-) $(COMPLETIONDIR)/rapido \
	$(ZSH_COMPLETIONDIR)/_rapido

# install_pages PAGE-PREFIX RENAME-ARGS: the man pages, each but rapido.1
# renamed (docs/man/rename RENAME-ARGS) and installed as PAGE-PREFIX-NAME
define install_pages
	$(Q)for pg in $(patsubst $(B)/man/%,%,$(MAN_PAGES)); do \
		s=$${pg##*.}; case $$pg in rapido.*) to=$$pg ;; *) to=$(1)$$pg ;; esac; \
		d=$(DESTDIR)$(MANDIR)/man$$s; install -d $$d && \
		case $$pg in rapido.1) cp $(B)/man/$$pg $$d/$$to.tmp ;; \
		*) docs/man/rename $(2) < $(B)/man/$$pg > $$d/$$to.tmp ;; esac && \
		chmod 644 $$d/$$to.tmp && mv $$d/$$to.tmp $$d/$$to || exit; done
endef

# what both install in RAPIDO_LIBDIR (bisect: a program of its own, run as
# rapido bisect; it configures each step with host/kernel-config and kernel/*.config;
# host/install-deps is rapido deps)
install-lib: all
	$(Q)install -d $(DESTDIR)$(RAPIDO_LIBDIR)/build/guest
	$(Q)install -m 755 $(B)/rapido-ldd $(DESTDIR)$(RAPIDO_LIBDIR)/build/
	$(Q)for a in guest $(ARCHES); do d=$(DESTDIR)$(RAPIDO_LIBDIR)/build/$$a; install -d $$d && \
		install -m 755 $(foreach t,$(OWN_TOOLS),$(B)/$$a/rapido-$(t)) \
			$(foreach p,$(PRELOADS),$(B)/$$a/rapido-$(p).so) $$d/ && \
		for t in $(INIT_TOOLS); do ln -sfn rapido-init $$d/rapido-$$t || exit; done || exit; done
	$(Q)rm -rf $(DESTDIR)$(RAPIDO_LIBDIR)/autorun $(DESTDIR)$(RAPIDO_LIBDIR)/dracut.conf.d
	$(Q)cp -R autorun dracut.conf.d $(DESTDIR)$(RAPIDO_LIBDIR)/
	$(Q)install -m 644 rapido.conf.example $(DESTDIR)$(RAPIDO_LIBDIR)/
	$(Q)install -m 755 bisect $(DESTDIR)$(RAPIDO_LIBDIR)/
	$(Q)install -D -m 755 host/kernel-config $(DESTDIR)$(RAPIDO_LIBDIR)/host/kernel-config
	$(Q)install -m 755 host/install-deps $(DESTDIR)$(RAPIDO_LIBDIR)/host/install-deps
	$(Q)install -d $(DESTDIR)$(RAPIDO_LIBDIR)/kernel && \
		install -m 644 kernel/*.config $(DESTDIR)$(RAPIDO_LIBDIR)/kernel/

install: all man
	$(call quiet,INSTALL,$(DESTDIR)$(PREFIX))
	$(Q)host/install-conflicts $(INSTALLED)
	$(Q)$(MAKE) --no-print-directory install-lib
	$(Q)install -d $(DESTDIR)$(BINDIR)
	$(Q)for p in $(PROGRAMS); do install -m 755 $$p $(DESTDIR)$(BINDIR)/$(PROGRAM_PREFIX)$$p || exit; done
	$(Q)install -m 755 rapido $(DESTDIR)$(BINDIR)/rapido
	$(call install_pages,$(PROGRAM_PREFIX),'$(PROGRAM_PREFIX)')
	$(Q)install -D -m 644 scripts/completion/rapido.bash $(DESTDIR)$(COMPLETIONDIR)/$(PROGRAM_PREFIX)cut
	$(Q)for p in vm vmctl netsetup; do \
		ln -sf $(PROGRAM_PREFIX)cut $(DESTDIR)$(COMPLETIONDIR)/$(PROGRAM_PREFIX)$$p || exit; done
	$(Q)ln -sf $(PROGRAM_PREFIX)cut $(DESTDIR)$(COMPLETIONDIR)/rapido

install-rapido: all man
	$(call quiet,INSTALL,$(DESTDIR)$(PREFIX))
	$(Q)host/install-conflicts $(INSTALLED_RAPIDO)
	$(Q)$(MAKE) --no-print-directory install-lib
	$(Q)install -D -m 755 rapido $(DESTDIR)$(BINDIR)/rapido
	$(call install_pages,rapido-,rapido- 'rapido ')
	$(Q)install -D -m 644 scripts/completion/rapido.bash $(DESTDIR)$(COMPLETIONDIR)/rapido
	$(Q)install -D -m 644 $(B)/completion/_rapido $(DESTDIR)$(ZSH_COMPLETIONDIR)/_rapido

# make deb: the Debian package, $(B)/deb/rapido_DEB_VERSION_amd64.deb, built
# by dpkg-buildpackage (debian/: install-rapido's layout) in a copy of the
# tree's files (git's, uncommitted changes included), which has no .git:
# its .version says VERSION and its debian/changelog DEB_VERSION
# (v1.2-3-gabc: 1.2+git3.abc; no tag: 0~gitCOMMITS.abc). Needs dpkg-dev,
# debhelper and debian/control's Build-Depends; lintian $(B)/deb/*.deb
# checks it (tests/fresh/deb.sh does, and installs it in a fresh root).
DEB_VERSION ?= $(shell v=$$(git describe --tags --match 'v[0-9]*' 2>/dev/null) && \
	echo "$$v" | sed 's/^v//; s/-\([0-9]*\)-g/+git\1./' || \
	echo "0~git$$(git rev-list --count HEAD 2>/dev/null).$$(git rev-parse --short HEAD 2>/dev/null)")
DEB_DIR ?= $(B)/deb
DEB = $(DEB_DIR)/rapido_$(DEB_VERSION)_amd64.deb

deb:
	$(call quiet,DEB,$(DEB))
	$(Q)rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/rapido
	$(Q)git ls-files -z -co --exclude-standard | \
		tar --null -T - --ignore-failed-read -cf - 2> /dev/null | tar -xf - -C $(DEB_DIR)/rapido
	$(Q)echo '$(VERSION)' > $(DEB_DIR)/rapido/.version
	$(Q)printf 'rapido (%s) unstable; urgency=medium\n\n  * Built by make deb from %s.\n\n -- %s  %s\n' \
		'$(DEB_VERSION)' '$(VERSION)' "$$(sed -n 's/^Maintainer: //p' debian/control)" "$$(date -R)" \
		> $(DEB_DIR)/rapido/debian/changelog
	$(Q)cd $(DEB_DIR)/rapido && dpkg-buildpackage -b -us -uc -jauto > ../build.log 2>&1 || \
		{ tail -n 40 ../build.log; echo "make deb: dpkg-buildpackage failed: $(DEB_DIR)/build.log"; exit 1; }
	$(Q)test -s $(DEB) && echo "$(DEB)"

# What the tests need built before any runs: the man pages too (when
# help2man is there: without it their tests skip), as tests that run in
# parallel (man-pages.sh: make man; rapido-front.sh: make install-rapido)
# would otherwise both write them at once into the same $(B)/man.
# Recursive (=): check expands it after deps has installed help2man.
CHECK_BUILD = all tests $(if $(shell command -v $(HELP2MAN) 2>/dev/null),man)

# Unit tests only (fast, no qemu).
check-unit: $(CHECK_BUILD)
	$(Q)tests/run --unit

# Everything: unit tests and boot tests with real dracut, qemu and kernel.
# Installs what is missing first, so it works on a fresh machine.
check: deps-tests
	$(Q)$(MAKE) --no-print-directory $(CHECK_BUILD)
	$(Q)tests/run

# Install what a fresh Debian 12 or 13 machine lacks (host/install-deps,
# autorun/packages): deps the lean set (build, cut and boot simple; no
# server), deps-tests what the test suite needs too. Safe to run twice.
deps:
	$(Q)host/install-deps

deps-tests:
	$(Q)host/install-deps --tests

# Set up, build, cut the default profile and boot it in batch mode.
demo: deps
	$(Q)$(MAKE) --no-print-directory all
	./cut simple
	./vm --batch --timeout 600
	@# what a newcomer does next: the demo's last line says it
	@echo "demo: simple booted and passed (./vm exit 0). Next: ./vm alone for a shell in the guest (exit leaves), ./cut --list for the profiles, docs/from-rapido.md or docs/from-vng.md for your habits"

# Configure a kernel tree for rapido from kernel/base.config and each
# profile's #@ kconfig lines (./cut --kconfig; run make first; see
# kernel/README.md): make kernel-config KERNEL_SRC=DIR [PROFILES="NAME ..."]
# [BASE=tinyconfig|defconfig|keep] [O=BUILD-DIR]. The variables reach the
# script through the environment (make exports command-line variables).
kernel-config:
	$(Q)host/kernel-config

# libFuzzer targets: tests/fuzz/NAME.c -> build/fuzz/NAME, each parser built
# with clang's fuzzer, ASan and UBSan (Debian: clang, libclang-rt-14-dev);
# tests/unit/fuzz.sh runs them over tests/fuzz/corpus/NAME. A target named
# tool-NAME[-x] also links tools/NAME's objects, as unit tests do; every
# target links every room (only what it calls is pulled in).
FUZZ_CC ?= clang
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS := $(CFLAGS) -fsanitize=fuzzer-no-link $(FUZZ_SAN)
FUZZ_SRCS := $(wildcard tests/fuzz/*.c)
FUZZ_BINS := $(patsubst tests/fuzz/%.c,$(B)/fuzz/%,$(FUZZ_SRCS))
fuzzobj = $(patsubst %.c,$(B)/fuzz/obj/%.o,$(1))
FUZZ_LIBS := $(call roomlibs,$(B)/fuzz,tools $(HOST_ROOMS))

$(B)/fuzz/obj/%.o: %.c
	$(call quiet,CC,$@)
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $(call incs,$<) -c -o $@ $<

$(foreach r,$(HOST_ROOMS) tools,$(eval $(B)/fuzz/lib$(r).a: $(call fuzzobj,$(call room_srcs,$(r)))))
$(FUZZ_LIBS):
	$(call quiet,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

# a program's source a target fuzzes (the rooms are linked whole)
FUZZ_PROG_SRCS_vm-display := src/vm/display.c src/vm/outbuf.c
FUZZ_PROG_SRCS_ceph-local-health := src/ceph-local/health.c
define fuzz_target
$(B)/fuzz/$(1): $(call fuzzobj,tests/fuzz/$(1).c) \
		$(if $(filter tool-%,$(1)),$(call fuzzobj,$(filter-out %/main.c,$(wildcard tools/$(call tool_of,$(1))/*.c)))) \
		$(call fuzzobj,$(FUZZ_PROG_SRCS_$(1))) \
		$(FUZZ_LIBS)
	$$(call quiet,LD,$$@)
	$(Q)$$(FUZZ_CC) -fsanitize=fuzzer $(FUZZ_SAN) -o $$@ $$^ $(call libs_of,$(HOST_ROOMS))
endef
$(foreach f,$(patsubst tests/fuzz/%.c,%,$(FUZZ_SRCS)),$(eval $(call fuzz_target,$(f))))

fuzz: $(FUZZ_BINS)

clean:
	$(call quiet,CLEAN,build)
	$(Q)rm -rf $(B) cut vm vmctl netsetup ceph-local bisect rapido run

.PHONY: all tests check check-unit deps deps-tests demo clean kernel-config fuzz man install install-lib \
	install-rapido deb
-include $(shell find $(B) -path $(B)/deb -prune -o -name '*.d' -type f -print 2>/dev/null)
