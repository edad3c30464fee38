/* SPDX-License-Identifier: MIT */
/* The audit file: the journal's records as JSON lines, for hosts and containers that
 * have no journald (sbx-run --audit-file/--audit-fd, sandboxd --audit-file/--audit-fd).
 *
 * A line is one JSON object: the entry's fields under the journal's own names
 * (MESSAGE, MESSAGE_ID, PRIORITY, SYSLOG_IDENTIFIER, SBX_*), each value a JSON string
 * exactly as the journal holds it -- or, when it is not valid UTF-8, the array of its
 * bytes, as `journalctl -o json` prints such a value -- after __REALTIME_TIMESTAMP
 * (microseconds since the epoch, a string, as journalctl has it).  One write(2) of the
 * whole line to an O_APPEND file: the kernel appends it whole, so lines of concurrent
 * writers never interleave (a pipe keeps that promise only for lines of at most
 * PIPE_BUF bytes).  No fsync: like journald's default, a record is in the page cache
 * when the call returns, so it survives the writer being killed, not a crash of the
 * kernel. */
#pragma once

#include <stddef.h>
#include <sys/uio.h>

#include "error.h"

/* Opens @path for appending records, as the caller (no privilege of its own):
 * O_WRONLY|O_APPEND|O_CREAT|O_NOFOLLOW|O_CLOEXEC|O_NOCTTY|O_NONBLOCK, created 0600.
 * Refused (so that nobody else can forge, reorder or erase what is written, and no
 * write lands on a file the caller was tricked into naming): a symbolic link as the last
 * component, anything but a regular file, a file owned by another uid than the
 * effective one, writable by its group or by others, or with more than one link.
 * Returns the fd (blocking again) or -errno with @e filled (stage options, the path). */
int sbx_audit_file_open(const char *path, struct sbx_error *e);

/* Takes the inherited @fd (--audit-fd N): it must be open for writing; a regular file
 * passes the same checks as a path and gets O_APPEND; an fd above 2 gets FD_CLOEXEC
 * (0-2 are inherited by design).  Returns @fd or -errno with @e filled. */
int sbx_audit_fd_take(int fd, struct sbx_error *e);

/* The @n "NAME=value" fields of one entry as one line on @fd, in one write(2) (the rest
 * of a short write follows, so a line is never cut).  Returns 0 or -errno. */
int sbx_audit_jsonl(int fd, const struct iovec *fields, size_t n);

/* Which of @fds[0..@n) reaches the stream the audit fd @audit writes to: the same
 * file, pipe, socket or terminal (the same inode, whatever open file description or
 * name -- a symlink, /proc/self/fd/N, a FIFO's path -- it was reached by), or the same
 * terminal through another device node (/dev/tty, /dev/console, a pty's master, a
 * copy of the node).  A command given that fd as its stdin, stdout or stderr could
 * write lines of its own choosing among the records, or half of one that swallows the
 * next record, or read records away.  The null device is nobody's stream; an fd that
 * is not open is skipped.  Returns the index of the first such fd, @n when none is,
 * or -errno when @audit cannot be looked at. */
int sbx_audit_shared(int audit, const int *fds, size_t n);
