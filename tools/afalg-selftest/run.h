/* SPDX-License-Identifier: GPL-2.0 */
/* run.h: run a plan against the kernel and print TAP. */
#ifndef AFALG_RUN_H
#define AFALG_RUN_H

#include "plan.h"

/* Seconds one test may take before its blocking call is interrupted. */
#define TEST_TIMEOUT 120

/* TAP comments on algif_aead and the authencesn template; never a test. */
void run_info(void);
/* Print "1..N", run every test, a closing "# N passed, ..." line. 0 or 1 (a failure). */
int run_plan(const struct plan *p);

#endif
