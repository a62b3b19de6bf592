/* SPDX-License-Identifier: GPL-2.0 */
/*
 * protocol.h: every word host and guest say to each other, in one place
 * (src/proto/PROTOCOL.md describes them): the kernel parameters ./vm puts
 * on the guest's command line, the names of the ports and 9p tags, and the
 * keywords of the R1 test records that go back.
 *
 * The guest's shell library (autorun/lib/) writes records and reads
 * kernel parameters too, and cannot include this file:
 * tests/unit/protocol-words.sh checks that every keyword and parameter it
 * uses is here, and every one here is used, so the two cannot drift. That
 * test reads this file: keep one #define per line, its value a string, and
 * say in "[sh]" in its comment which ones the shell uses.
 */
#ifndef RAPIDO_PROTOCOL_H
#define RAPIDO_PROTOCOL_H

/*
 * Kernel parameters: ./vm writes each as "NAME=VALUE", the guest init
 * (tools/init/setup.c) reads /proc/cmdline. All of rapido.* is ./vm's:
 * a user's own (rapido.conf, --kernel-param) is refused.
 */
#define KP_PREFIX "rapido."
#define KP_VM "rapido.vm="			/* N: the VM number, hostname rapidoN */
#define KP_NONCE "rapido.nonce="		/* the status record's per-boot nonce (status.h) */
#define KP_BATCH "rapido.batch="		/* 1: power off after the autorun */
#define KP_STATUS "rapido.status="		/* PORT: the status goes to this virtio port, not ttyS1 */
#define KP_RESULTS "rapido.results="		/* 1: ./vm --results: the results port and 9p tag */
#define KP_SHARD "rapido.shard="		/* I/N: ./vm --shard */
#define KP_SERIAL "rapido.serial="		/* defer|only: ./vm --jobs' shards and serial VM */
#define KP_SERIAL_TEST "rapido.serial-test="	/* NAME (pct.h field): a --serial-tests line */
#define KP_RERUN "rapido.rerun="		/* N: ./vm --rerun-failures */
#define KP_SHARES "rapido.shares="		/* N: 9p shares tagged rapido0.. on /host, /hostN */
#define KP_VIRTIOFS "rapido.virtiofs="		/* N: virtiofs shares: the init loads virtiofs */
#define KP_SHELL "rapido.shell="		/* TTY: keep a shell on /dev/TTY for ./vmctl */
#define KP_HVC "rapido.hvc="			/* 1: keep that shell on /dev/hvc0 */
#define KP_EXEC "rapido.exec="		/* NONCE,CRC,BASE64: rapido run -- CMD (execframe.h) */
#define KP_IP "rapido.ip="			/* [sh] IFACE,ADDR/PREFIX[,GATEWAY], one per NIC */

/* The value of kernel command-line word w if it is parameter kp (KP_*), else NULL. */
const char *kparam_value(const char *w, const char *kp);

/* Ports and 9p tags */
#define PORT_STATUS_UART "ttyS1"		/* the status record's port by default */
#define PORT_STATUS "rapido.status"		/* the virtio serial port of KP_STATUS (arm64) */
#define PORT_RESULTS "rapido.results"		/* the records' virtio serial port, DIR/files' 9p tag */
#define PORT_SHELL "rapido.shell"		/* the virtio console of KP_HVC */
#define PORT_SHARE_TAG "rapido"			/* + N: the 9p tag of share N */

/*
 * Test records: one line "R1 KIND FIELD...", each field %-escaped (pct.h;
 * "-" for an empty one). src/results/results.h says what each means and
 * the order the host accepts them in.
 */
#define REC_VERSION "R1"			/* [sh] */
#define REC_PREFIX REC_VERSION " "
/* the guest's: the init says hello, the shell library the rest */
#define REC_HELLO "hello"			/* FROM */
#define REC_PLAN "plan"				/* [sh] NAME */
#define REC_START "start"			/* [sh] NAME */
#define REC_PASS "pass"				/* [sh] NAME SECS OUTPUT */
#define REC_FAIL "fail"				/* [sh] NAME SECS REASON OUTPUT */
#define REC_SKIP "skip"				/* [sh] NAME SECS REASON OUTPUT */
#define REC_RERUN "rerun"			/* [sh] NAME N */
/* a test that reached no verdict (LTP's TBROK); ./vm writes it too (watchdog, not run) */
#define REC_ERROR "error"			/* [sh] NAME SECS REASON OUTPUT */
#define REC_FAILURES "failures"			/* an older guest's: now refused */
/* ./vm's own, in DIR/results.txt only: never taken from the guest */
#define REC_SPLAT "splat"			/* NAME REASON TEXT [RUN] */
#define REC_KERNEL "kernel"			/* TITLE KIND REPORT */
#define REC_TOLERATED "tolerated"		/* TITLE KIND REPORT */
#define REC_ALLOWED "allowed"			/* TITLE REASON REPORT */
#define REC_META "meta"				/* KEY VALUE */

/* The most bytes of one record line, newline left out: the guest cuts its output at 64 KiB. */
#define RESULTS_RECORD_MAX (1u << 20)
/* The most bytes of records a run's guest may write (docs/results.md, vm(1)). */
#define RESULTS_VOLUME_MAX (64u << 20)
/* The most tests a run's records may name. */
#define RESULTS_TESTS_MAX 200000u

#endif
