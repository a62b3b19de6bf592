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

/* Length of the valid UTF-8 sequence at p (1..4), 0 if invalid. */
static size_t utf8_len(const unsigned char *p)
{
	size_t n;
	unsigned int cp;

	if (p[0] < 0x80)
		return 1;
	if ((p[0] & 0xe0) == 0xc0) {
		n = 2;
		cp = p[0] & 0x1f;
	} else if ((p[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = p[0] & 0x0f;
	} else if ((p[0] & 0xf8) == 0xf0) {
		n = 4;
		cp = p[0] & 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond Unicode, and U+FFFE/FFFF are not XML characters */
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff || cp == 0xfffe || cp == 0xffff)
		return 0;
	return n;
}

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

	if (t->cls != RC_KNOWN && t->cls != RC_FIXED && t->cls != RC_FLAKY && t->runs < 2)
		return;
	fputs("      <properties>\n", f);
	if (t->cls == RC_KNOWN) {
		property(f, "known-failure", t->known);
		property(f, "known-failure-entry", t->known_at);
	} else if (t->cls == RC_FIXED) {
		property(f, "fixed", t->known);
		property(f, "known-failure-entry", t->known_at);
	}
	if (t->runs > 1) {
		snprintf(rate, sizeof(rate), "%u/%u", t->fails, t->runs);
		property(f, t->cls == RC_FLAKY ? "flaky" : "runs-failed", rate);
	}
	fputs("      </properties>\n", f);
}

static void suite_write(FILE *f, const struct rsuite *s)
{
	struct rcount c;

	rsuite_count(s, &c);
	fputs("  <testsuite name=\"", f);
	xml_attr(f, s->name ? s->name : "rapido");
	fprintf(f, "\" tests=\"%u\" failures=\"%u\" errors=\"0\" skipped=\"%u\"", c.tests, c.fail,
		c.skip);
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
	if (s->kernel) {
		fputs("      <property name=\"kernel\" value=\"", f);
		xml_attr(f, s->kernel);
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
		if (t->state == RT_PASS && !t->output && t->cls != RC_FLAKY && t->cls != RC_FIXED) {
			fputs("/>\n", f);
			continue;
		}
		fputs(">\n", f);
		testcase_properties(f, t);
		if (t->state == RT_FAIL) {
			fputs("      <failure message=\"", f);
			xml_attr(f, t->reason ? t->reason : "failed");
			fprintf(f, "\" type=\"%s\">", t->kernel ? "kernel" : "failure");
			xml_text(f, t->output);
			fputs("</failure>\n", f);
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
		all.fail += c.fail;
		all.skip += c.skip;
		secs += v[i].secs;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<testsuites name=\"rapido\" tests=\"%u\" failures=\"%u\" errors=\"0\" "
		"skipped=\"%u\"", all.tests, all.fail, all.skip);
	xml_secs(f, secs);
	fputs(">\n", f);
	for (size_t i = 0; i < n; i++)
		suite_write(f, &v[i]);
	fputs("</testsuites>\n", f);
}
