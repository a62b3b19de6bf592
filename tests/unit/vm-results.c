// SPDX-License-Identifier: GPL-2.0
/* vm-results.c: records, splat scanning, VM_SPLATS, JUnit escaping, KTAP. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pct.h"
#include "results.h"
#include "tap.h"

static const char console[] =
	"guest says WARNING: CPU: not a kernel line\r\n"
	"[   10.000001] ------------[ cut here ]------------\r\n"
	"[   10.000002] WARNING: CPU: 0 PID: 42 at fs/x.c:10 f+0x1/0x2\r\n"
	"[   10.000003] Call Trace:\r\n"
	"[   10.000004]  <TASK>\r\n"
	"[   10.000005]  </TASK>\r\n"
	"[   10.000006] ---[ end trace 0000000000000000 ]---\r\n"
	"[   11.000000] ==================================================================\n"
	"[   11.000001] BUG: KASAN: slab-out-of-bounds in g+0x1/0x2\n"
	"[   11.000002] Read of size 8\n"
	"[   11.000003] ==================================================================\n"
	"[   11.500000] unrelated line\n"
	"[   12.000000] ======================================================\n"
	"[   12.000001] WARNING: possible circular locking dependency detected\n"
	"[   12.000002] stack backtrace:\n"
	"[   12.000003] Call Trace:\n"
	"[   12.000004]  </TASK>\n"
	"prompt$ [   13.000000] BUG: kernel NULL pointer dereference, address: 0000000000000000\n"
	"[   13.000001] Oops: 0000 [#1] PREEMPT SMP NOPTI\n"
	"[   13.000002] ---[ end trace 0000000000000000 ]---\n"
	"[   13.000003] Kernel panic - not syncing: Fatal exception\n"
	"[   20.000000] INFO: task dd:99 blocked for more than 1 seconds.\n"
	"[   20.000001] Call Trace:\n"
	"[   25.000000] rcu: INFO: rcu_sched self-detected stall on CPU\n"
	"[   30.000000] watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [x:1]\n"
	"[   40.000000] UBSAN: shift-out-of-bounds in a.c:1:2";

int main(void)
{
	struct splat_scan sc;
	struct rsuite s;
	struct rcount c;
	unsigned int mask;
	char *err = NULL, *buf = NULL, *e;
	size_t len = 0;
	FILE *f;

	tap_plan(28);
	splat_scan_init(&sc);
	/* byte by byte: a report split across reads is still one report */
	for (size_t i = 0; i < sizeof(console) - 1; i++)
		splat_feed(&sc, console + i, 1);
	splat_finish(&sc);
	TAP_EQ_INT(sc.n, 8, "eight reports, the guest's own WARNING line not one of them");
	if (sc.n == 8) {
		TAP_EQ_INT(sc.v[0].kind, SPLAT_WARNING, "WARNING: CPU:");
		TAP_EQ_STR(sc.v[0].title, "WARNING: CPU: 0 PID: 42 at fs/x.c:10 f+0x1/0x2", "title without timestamp");
		TAP_EQ_INT(sc.v[0].lines, 5, "the WARNING ends at its end-trace line");
		TAP_EQ_INT(sc.v[1].kind, SPLAT_KASAN, "KASAN, not BUG");
		TAP_EQ_INT(sc.v[1].lines, 3, "KASAN ends at its closing rule");
		TAP_EQ_INT(sc.v[2].kind, SPLAT_LOCKDEP, "lockdep, not WARNING");
		TAP_EQ_INT(sc.v[3].kind, SPLAT_BUG, "a BUG in the middle of a prompt line");
		tap_ok(strstr(sc.v[3].text, "Oops: 0000") && strstr(sc.v[3].text, "Fatal exception"),
		       "the Oops and the panic it caused stay in the BUG's report");
		TAP_EQ_INT(sc.v[4].kind, SPLAT_HUNG_TASK, "hung task");
		TAP_EQ_INT(sc.v[5].kind, SPLAT_RCU_STALL, "RCU stall");
		TAP_EQ_INT(sc.v[6].kind, SPLAT_SOFT_LOCKUP, "soft lockup, not BUG");
		TAP_EQ_INT(sc.v[7].kind, SPLAT_UBSAN, "UBSAN on a last line without newline");
	} else {
		for (int i = 0; i < 12; i++)
			tap_ok(0, "skipped: wrong count");
	}
	splat_scan_free(&sc);

	tap_ok(!splat_mask_parse("all,-warning", &mask, &err) && mask == (SPLAT_ALL & ~(1u << SPLAT_WARNING)),
	       "all,-warning");
	tap_ok(!splat_mask_parse("none oops", &mask, &err) && mask == 1u << SPLAT_OOPS, "none oops");
	tap_ok(splat_mask_parse("all,-oopses", &mask, &err) && strstr(err, "'oopses'"),
	       "an unknown kind is named");
	free(err);
	/* issue 40 #5: detection is turned off only by saying none */
	tap_ok(!splat_mask_parse("none", &mask, &err) && mask == 0, "none: no kind counts");
	for (size_t i = 0; i < 5; i++) {
		static const char *const bad[] = { "", ",", " , ", "-bug", "bug,-bug" };

		tap_ok(splat_mask_parse(bad[i], &mask, &err) && err && strstr(err, bad[i]),
		       "'%s' is refused, named", bad[i]);
		free(err);
	}

	rsuite_init(&s);
	e = pct_field("a b%c\n-");
	TAP_EQ_STR(e, "a%20b%25c%0a-", "escape");
	free(e);
	rsuite_record(&s, "R1 start t1", 0, 1.0);
	rsuite_record(&s, "R1 pass t1 0.5 -", 0, 2.0);
	rsuite_record(&s, "R1 start t2", 0, 3.0);
	rsuite_record(&s, "R1 fail t3 1 bad%20<&> out\x01put", 0, 3.0);
	tap_ok(rsuite_record(&s, "R1 kernel forged x y", 0, 3.0) && rsuite_record(&s, "junk", 0, 3.0),
	       "the guest cannot add kernel records; junk is no record");
	rsuite_close_running(&s, 5.0, "the guest died");
	rsuite_count(&s, &c);
	tap_ok(c.tests == 3 && c.pass == 1 && c.fail == 2 && c.skip == 0, "counts: unfinished t2 failed");
	f = open_memstream(&buf, &len);
	junit_write(f, &s, 1);
	fclose(f);
	tap_ok(strstr(buf, "<failure message=\"bad &lt;&amp;&gt;\" type=\"failure\">out?put</failure>") != NULL,
	       "JUnit: escaped, control characters replaced");
	tap_ok(strstr(buf, "name=\"t2\" time=\"2.000\">\n      <failure message=\"did not finish: the guest died\"") != NULL,
	       "JUnit: the unfinished test with its time");
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	ktap_write(f, &s, 1);
	fclose(f);
	tap_ok(strstr(buf, "KTAP version 1\n1..1\n") && strstr(buf, "    ok 1 t1\n") &&
	       strstr(buf, "    not ok 3 t3\n") && strstr(buf, "not ok 1 rapido\n"), "KTAP");
	free(buf);
	rsuite_free(&s);
	return tap_done();
}
