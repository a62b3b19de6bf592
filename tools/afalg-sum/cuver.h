/* SPDX-License-Identifier: GPL-2.0 */
/* cuver.h: which coreutils rapido-afalg-sum stands in for: the one beside it on PATH. */
#ifndef AFSUM_CUVER_H
#define AFSUM_CUVER_H

#include "fmt.h"

/*
 * Ask ALGsum (sha256sum when ALG names no such program) on PATH for its
 * --version and return its -c escaping rule (afsum_check_escape_of): in a
 * guest that is the coreutils the image carries, the host's. ALL when
 * there is none. Runs a program: callers ask only when the answer matters.
 */
enum afsum_check_escape afsum_check_escape_ask(const char *alg);

#endif
