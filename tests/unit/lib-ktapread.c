// SPDX-License-Identifier: GPL-2.0
/*
 * lib-ktapread.c: the TAP/KTAP reader against the examples of the kernel's
 * Documentation/dev-tools/ktap.rst (result lines, directives, nested
 * tests, the full example), KUnit's and TAP 14's subtest layouts, and the
 * ways a stream can fail without a plain "not ok": "#" in a description,
 * a failing parent whose subtests passed, a plan not met, "Bail out!",
 * subtests whose parent never reported, an empty stream.
 */
#include <errno.h>
#include <string.h>

#include "ktapread.h"
#include "strbuf.h"
#include "tap.h"

static int collect(const struct ktap_record *rec, void *arg)
{
	static const char *const kind[] = { "pass", "fail", "skip" };
	struct strbuf *b = arg;

	strbuf_adds(b, kind[rec->verdict]);
	strbuf_adds(b, " ");
	strbuf_adds(b, *rec->name ? rec->name : "(stream)");
	if (*rec->reason) {
		strbuf_adds(b, " | ");
		strbuf_adds(b, rec->reason);
	}
	if (*rec->output) {
		strbuf_adds(b, " | out: ");
		strbuf_adds(b, rec->output);
	} else {
		strbuf_adds(b, "\n");
	}
	return 0;
}

/* the records of TEXT, one line each: "VERDICT NAME[ | REASON][ | out: OUTPUT]" */
static char *read_all(const char *text)
{
	struct strbuf b = STRBUF_INIT;
	struct ktapread *r = ktapread_new(collect, &b, 0);
	uint64_t t = 0;

	strbuf_reset(&b);
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text) : strlen(text);

		ktapread_line(r, text, n, t += 1000);
		text += n + (nl != NULL);
	}
	ktapread_end(r, t);
	ktapread_free(r);
	return b.s;
}

static void reads_as(const char *text, const char *want, const char *what)
{
	char *got = read_all(text);

	TAP_EQ_STR(got, want, "%s", what);
	free(got);
}

static int timing(const struct ktap_record *rec, void *arg)
{
	*(uint64_t *)arg = rec->usecs;
	return 0;
}

static int stop(const struct ktap_record *rec, void *arg)
{
	(void)rec;
	(*(int *)arg)++;
	return -EPIPE;
}

int main(void)
{
	tap_plan(20);

	/* ktap.rst, "Test case result lines" */
	reads_as("KTAP version 1\n1..5\nok 1 test_case_name\nnot ok 2 test_case_name\n"
		 "ok 3 test # SKIP necessary dependency unavailable\nnot ok 4 test # TIMEOUT 30 seconds\n"
		 "ok 5 check return code # rcode=0\n",
		 "pass test_case_name\nfail test_case_name | not ok\n"
		 "skip test | necessary dependency unavailable\nfail test | not ok: TIMEOUT 30 seconds\n"
		 "pass check return code\n",
		 "ktap.rst result lines: pass, fail, SKIP, TIMEOUT, diagnostic data");
	/* ktap.rst, "Nested tests": two subtests */
	reads_as("KTAP version 1\n1..1\n  KTAP version 1\n  1..2\n  ok 1 test_1\n  not ok 2 test_2\n"
		 "# example failed\nnot ok 1 example\n",
		 "pass example/test_1\nfail example/test_2 | not ok\n",
		 "ktap.rst nested: leaves named PARENT/CHILD, a parent that says what its subtests said adds nothing");
	/* ktap.rst: multiple levels */
	reads_as("KTAP version 1\n1..2\n  KTAP version 1\n  1..2\n    KTAP version 1\n    1..2\n"
		 "    not ok 1 test_1\n    ok 2 test_2\n  not ok 1 test_3\n  ok 2 test_4 # SKIP\n"
		 "not ok 1 example_test_1\nok 2 example_test_2\n",
		 "fail example_test_1/test_3/test_1 | not ok\npass example_test_1/test_3/test_2\n"
		 "skip example_test_1/test_4 | SKIP\npass example_test_2\n",
		 "ktap.rst multiple levels of nesting");
	/* ktap.rst, "Example KTAP output", whole */
	reads_as("KTAP version 1\n1..1\n  KTAP version 1\n  1..3\n    KTAP version 1\n    1..1\n"
		 "    # test_1: initializing test_1\n    ok 1 test_1\n  ok 1 example_test_1\n"
		 "    KTAP version 1\n    1..2\n    ok 1 test_1 # SKIP test_1 skipped\n    ok 2 test_2\n"
		 "  ok 2 example_test_2\n    KTAP version 1\n    1..3\n    ok 1 test_1\n"
		 "    # test_2: FAIL\n    not ok 2 test_2\n    ok 3 test_3 # SKIP test_3 skipped\n"
		 "  not ok 3 example_test_3\nnot ok 1 main_test\n",
		 "pass main_test/example_test_1/test_1 | out: test_1: initializing test_1\n"
		 "skip main_test/example_test_2/test_1 | test_1 skipped\n"
		 "pass main_test/example_test_2/test_2\npass main_test/example_test_3/test_1\n"
		 "fail main_test/example_test_3/test_2 | not ok | out: test_2: FAIL\n"
		 "skip main_test/example_test_3/test_3 | test_3 skipped\n",
		 "ktap.rst example output: the hierarchy it describes, diagnostics as output");

	reads_as("TAP version 13\n1..3\nnot ok 1 - regression #123\nok 2 - fix #4 # SKIP no disk\n"
		 "not ok 3 - plain # ERROR no device\n",
		 "fail regression #123 | not ok\nskip fix #4 | no disk\nfail plain | not ok: ERROR no device\n",
		 "a # without a directive stays in the description; the result counts");
	reads_as("KTAP version 1\n1..1\n  KTAP version 1\n  1..2\n  ok 1 a\n  ok 2 b\nnot ok 1 parent\n",
		 "pass parent/a\npass parent/b\nfail parent | not ok, though its subtests passed\n",
		 "a failing parent whose subtests passed is a failure of its own");
	reads_as("KTAP version 1\n1..1\n  KTAP version 1\n  1..1\n  not ok 1 a\nok 1 parent\n",
		 "fail parent/a | not ok\n", "a failed subtest under a passing parent stays failed");
	reads_as("KTAP version 1\n1..5\nok 1 one\nok 2 two\n",
		 "pass one\npass two\nfail plan | plan 1..5: 2 reported, 3..5 never did\n",
		 "a stream stopping at 2 of 5: the plan names what never came");
	reads_as("1..1\nok 1 one\nok 2 two\n", "pass one\npass two\nfail plan | plan 1..1: 2 reported\n",
		 "more results than planned");
	reads_as("TAP version 13\n1..3\nok 1 first\nBail out! disk gone\nok 2 never\nnot ok 3 never\n",
		 "pass first\nfail bail-out | disk gone\n", "Bail out!: a failure, nothing after it read");
	reads_as("KTAP version 1\n1..2\n  KTAP version 1\n  # Subtest: suite\n  1..3\n  ok 1 a\n",
		 "pass suite/a\nfail suite/plan | plan 1..3: 1 reported, 2..3 never did\n"
		 "fail suite | no result line: the stream ended or moved on inside its subtests\n"
		 "fail plan | plan 1..2: 1 reported\n",
		 "a stream ending inside a subtest: the subtest, its plan and the stream's plan fail");
	reads_as("", "fail (stream) | no TAP or KTAP result, plan or version line\n",
		 "an empty stream fails");
	reads_as("1..0 # SKIP no such hardware\n", "skip (stream) | no such hardware\n",
		 "1..0 # SKIP: the stream is skipped");
	/* KUnit (Linux 6.1): version, then "# Subtest:", 4 spaces, totals at the parent's level */
	reads_as("KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: example\n    1..2\n"
		 "    ok 1 example_simple_test\n    ok 2 example_skip_test # SKIP this test should be skipped\n"
		 "# example: pass:1 fail:0 skip:1 total:2\nok 1 example\n",
		 "pass example/example_simple_test\nskip example/example_skip_test | this test should be skipped\n",
		 "KUnit's layout: the suite names its tests");
	/* TAP 14: "# Subtest:" at the parent's level, the child indented */
	reads_as("TAP version 14\n1..1\n# Subtest: grp\n    1..1\n    not ok 1 - inner\nnot ok 1 - group\n",
		 "fail grp/inner | not ok\n", "TAP 14's Subtest line names the level it opens");
	/* kselftest's runner nests a test's own TAP as "# " lines: output of its result */
	reads_as("TAP version 13\n1..1\n# selftests: net: t\n# 1..1\n# ok 1 x\nnot ok 1 selftests: net: t # exit=1\n",
		 "fail selftests: net: t | not ok: exit=1 | out: selftests: net: t\n1..1\nok 1 x\n",
		 "kselftest's runner: the nested lines are output, the runner's result counts");
	reads_as("KTAP version 1\n1..1\n\tKTAP version 1\n\t1..1\n\tnot ok 1 inner\nnot ok 1 outer\n",
		 "fail outer/inner | not ok\n", "a tab indents too");
	reads_as("TAP version 13\nkernel: something\n1..1\nnot ok 1\r\n",
		 "fail test 1 | not ok | out: kernel: something\n",
		 "unknown lines are output; no description: 'test N'; CRLF");

	{
		uint64_t us = 0;
		struct ktapread *r = ktapread_new(timing, &us, 100);

		ktapread_line(r, "1..1", 4, 200);
		ktapread_line(r, "ok 1 x", 6, 2600);
		ktapread_end(r, 3000);
		ktapread_free(r);
		TAP_EQ_INT((long)us, 2500L, "a record's time runs from the previous result (or the start)");
	}
	{
		int calls = 0, rc;
		struct ktapread *r = ktapread_new(stop, &calls, 0);

		ktapread_line(r, "ok 1 a", 6, 0);
		rc = ktapread_line(r, "ok 2 b", 6, 0);
		rc = rc ? rc : ktapread_end(r, 0);
		ktapread_free(r);
		tap_ok(rc == -EPIPE && calls == 1, "the emitter's error stops the reader and is returned (rc %d, %d calls)",
		       rc, calls);
	}
	return tap_done();
}
