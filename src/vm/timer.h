/* SPDX-License-Identifier: GPL-2.0 */
/* timer.h: one-shot timerfd deadlines (timer.c). */
#ifndef RAPIDO_VM_TIMER_H
#define RAPIDO_VM_TIMER_H

/* Arm timerfd fd to fire secs from now (at once for 0 or less). */
void vm_timer_arm(int fd, double secs);
/* No deadline any more. */
void vm_timer_disarm(int fd);

#endif
