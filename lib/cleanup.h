/* SPDX-License-Identifier: MIT */
/* One cleanup header for the whole tree: scope-bound free/close, and
 * TAKE_PTR/TAKE_FD to hand ownership on. */
#pragma once

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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

#define ELEMENTSOF(a) (sizeof(a) / sizeof((a)[0]))
