// SPDX-License-Identifier: GPL-2.0
/*
 * junit.c: JUnit XML as Jenkins, GitLab and GitHub test reporters read it:
 * <testsuites> totals, a <testsuite> per run (per shard), a <testcase> per
 * test with <failure> or <skipped message=...>, its output in <system-out>.
 * Console text is not always valid XML: control characters other than tab
 * and newline, and bytes that are not UTF-8, become '?'.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "results.h"
#include "utf8.h"

static void xml_text(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	while (*p) {
		size_t n;

		switch (*p) {
		case '&': fputs("&amp;", f); p++; continue;
		case '<': fputs("&lt;", f); p++; continue;
		case '>': fputs("&gt;", f); p++; continue;
		case '"': fputs("&quot;", f); p++; continue;
		case '\'': fputs("&apos;", f); p++; continue;
		case '\t':
		case '\n': fputc(*p++, f); continue;
		default: break;
		}
		if (*p < 0x20 || *p == 0x7f) {
			fputc('?', f);
			p++;
			continue;
		}
		n = utf8_len(p);
		if (!n) {
			fputc('?', f);
			p++;
			continue;
		}
		fwrite(p, 1, n, f);
		p += n;
	}
}

/*
 * time="...": a finite, non-negative decimal, which every JUnit reader
 * takes (Java's parsers reject "nan", "inf" and negative times).
 */
static void xml_secs(FILE *f, double secs)
{
	if (!isfinite(secs) || secs < 0 || secs > 1e12)
		secs = 0;
	fprintf(f, " time=\"%.3f\"", secs);
}

/* An attribute value: newlines too become character references, so the value survives. */
static void xml_attr(FILE *f, const char *s)
{
	for (const char *p = s ? s : ""; *p;) {
		size_t n = strcspn(p, "\n\t");

		if (n) {
			char *part = xstrndup(p, n);

			xml_text(f, part);
			free(part);
			p += n;
		}
		if (*p)
			fputs(*p++ == '\n' ? "&#10;" : "&#9;", f);
	}
}

static void property(FILE *f, const char *name, const char *value)
{
	fprintf(f, "        <property name=\"%s\" value=\"", name);
	xml_attr(f, value);
	fputs("\"/>\n", f);
}

/* known.h's verdicts: the entry of a known failure or a fixed one, a flaky test's rate */
static void testcase_properties(FILE *f, const struct rtest *t)
{
	char rate[64];

	if (t->cls != OUTCOME_KNOWN && t->cls != OUTCOME_FIXED && t->cls != OUTCOME_FLAKY && t->runs < 2)
		return;
	fputs("      <properties>\n", f);
	if (t->cls == OUTCOME_KNOWN) {
		property(f, "known-failure", t->known);
		property(f, "known-failure-entry", t->known_at);
	} else if (t->cls == OUTCOME_FIXED) {
		property(f, "fixed", t->known);
		property(f, "known-failure-entry", t->known_at);
	}
	if (t->runs > 1) {
		snprintf(rate, sizeof(rate), "%u/%u", t->fails, t->runs);
		property(f, t->cls == OUTCOME_FLAKY ? "flaky" : "runs-failed", rate);
	}
	fputs("      </properties>\n", f);
}

static void suite_write(FILE *f, const struct rsuite *s)
{
	struct rcount c;

	rsuite_count(s, &c);
	fputs("  <testsuite name=\"", f);
	xml_attr(f, s->name ? s->name : "rapido");
	fprintf(f, "\" tests=\"%u\" failures=\"%u\" errors=\"%u\" skipped=\"%u\"", c.tests,
		c.fail - c.error, c.error, c.skip);
	xml_secs(f, s->secs);
	if (s->timestamp) {
		fputs(" timestamp=\"", f);
		xml_attr(f, s->timestamp);
		fputc('"', f);
	}
	fputs(">\n    <properties>\n", f);
	fprintf(f, "      <property name=\"exit\" value=\"%d\"/>\n", s->exit);
	if (s->shard) {
		fputs("      <property name=\"shard\" value=\"", f);
		xml_attr(f, s->shard);
		fputs("\"/>\n", f);
	}
	/*
	 * The release a "meta kernel" record gave: run.json's provenance says it
	 * as kernel_release (and its "kernel" is the kernel image), so it is said
	 * once, under that name, and only where the provenance did not say it.
	 */
	if (s->kernel && !strv_contains(&s->prop_keys, "kernel_release")) {
		fputs("      <property name=\"kernel_release\" value=\"", f);
		xml_attr(f, s->kernel);
		fputs("\"/>\n", f);
	}
	/* run.json's provenance (provenance.c), each as it was recorded */
	for (size_t i = 0; i < s->prop_keys.n; i++) {
		fputs("      <property name=\"", f);
		xml_attr(f, s->prop_keys.v[i]);
		fputs("\" value=\"", f);
		xml_attr(f, s->prop_vals.v[i]);
		fputs("\"/>\n", f);
	}
	fputs("    </properties>\n", f);
	for (size_t i = 0; i < s->n; i++) {
		const struct rtest *t = &s->t[i];

		if (t->hidden)
			continue;
		fputs("    <testcase classname=\"", f);
		xml_attr(f, s->name ? s->name : "rapido");
		fputs("\" name=\"", f);
		xml_attr(f, t->name);
		fputc('"', f);
		xml_secs(f, t->secs);
		if (t->state == RT_PASS && !t->output && t->cls != OUTCOME_FLAKY && t->cls != OUTCOME_FIXED) {
			fputs("/>\n", f);
			continue;
		}
		fputs(">\n", f);
		testcase_properties(f, t);
		if (t->state == RT_FAIL) {
			/* <error>: no verdict (watchdog, not run); <failure>: a verdict */
			const char *el = t->error ? "error" : "failure";

			fprintf(f, "      <%s message=\"", el);
			xml_attr(f, t->reason ? t->reason : "failed");
			fprintf(f, "\" type=\"%s\">", t->kernel ? "kernel" : el);
			xml_text(f, t->output);
			fprintf(f, "</%s>\n", el);
		} else if (t->state == RT_SKIP) {
			fputs("      <skipped message=\"", f);
			xml_attr(f, t->reason ? t->reason : "skipped");
			fputs("\"/>\n", f);
		}
		if (t->output && t->state != RT_FAIL) {
			fputs("      <system-out>", f);
			xml_text(f, t->output);
			fputs("</system-out>\n", f);
		}
		fputs("    </testcase>\n", f);
	}
	fputs("  </testsuite>\n", f);
}

void junit_write(FILE *f, const struct rsuite *v, size_t n)
{
	struct rcount all = { 0 };
	double secs = 0;

	for (size_t i = 0; i < n; i++) {
		struct rcount c;

		rsuite_count(&v[i], &c);
		all.tests += c.tests;
		all.fail += c.fail - c.error;
		all.error += c.error;
		all.skip += c.skip;
		secs += v[i].secs;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<testsuites name=\"rapido\" tests=\"%u\" failures=\"%u\" errors=\"%u\" "
		"skipped=\"%u\"", all.tests, all.fail, all.error, all.skip);
	xml_secs(f, secs);
	fputs(">\n", f);
	for (size_t i = 0; i < n; i++)
		suite_write(f, &v[i]);
	fputs("</testsuites>\n", f);
}
