/* SPDX-License-Identifier: MIT */
/* One cleanup header for the whole tree: scope-bound free/close/kill, and
 * TAKE_PTR/TAKE_FD to hand ownership on.  Only libc here: every file includes it, so a
 * library's types live in a small header of their own that only its users include
 * (cleanup-cap.h for libcap, cleanup-seccomp.h for libseccomp); sd-bus and sd-event
 * bring their own (sd_bus_message_unrefp, sd_event_source_disable_unrefp, ...). */
#pragma once

#include <errno.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static inline void freep(void *p) { free(*(void **)p); }
/* Closes *fd and forgets it (-1), so that a second call, or a later use, can never
 * reach an fd number the process has since handed out again. */
static inline void closep(int *fd)
{
        if (*fd >= 0) {
                int saved = errno; /* close() must not clobber the errno we report */
                close(*fd);
                errno = saved;
                *fd = -1;
        }
}

static inline void fclosep(FILE **f)
{
        if (*f)
                fclose(*f);
}

/* A child not handed on yet (a half-built launcher or jail): killed and reaped, so
 * that an error path leaves no process behind and no zombie.  Hand it on with
 * TAKE_PID, or set it to -1. */
static inline void sbx_kill_and_reapp(pid_t *pid)
{
        if (*pid > 0) {
                int saved = errno;

                (void)kill(*pid, SIGKILL);
                while (waitpid(*pid, NULL, 0) < 0 && errno == EINTR)
                        ;
                errno = saved;
                *pid = -1;
        }
}

#define _cleanup_(f) __attribute__((cleanup(f)))
#define _cleanup_free_ _cleanup_(freep)
#define _cleanup_close_ _cleanup_(closep)

#define TAKE_PTR(p)                          \
        ({                                   \
                __typeof__(p) _tp_ = (p);    \
                (p) = NULL;                  \
                _tp_;                        \
        })
#define TAKE_FD(fd)                          \
        ({                                   \
                int _tfd_ = (fd);            \
                (fd) = -1;                   \
                _tfd_;                       \
        })

#define TAKE_PID(pid)                        \
        ({                                   \
                pid_t _tpid_ = (pid);        \
                (pid) = -1;                  \
                _tpid_;                      \
        })

#define ELEMENTSOF(a) (sizeof(a) / sizeof((a)[0]))
