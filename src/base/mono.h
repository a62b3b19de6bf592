/* SPDX-License-Identifier: GPL-2.0 */
/* mono.h: the monotonic clock, for deadlines and elapsed times (never the wall clock). */
#ifndef RAPIDO_MONO_H
#define RAPIDO_MONO_H

/* CLOCK_MONOTONIC in milliseconds. */
long long mono_ms(void);
/* CLOCK_MONOTONIC in seconds. Both are async-signal-safe. */
double mono_secs(void);

#endif
