/* SPDX-License-Identifier: MIT */
/* The audit file (auditfile.h): runs in sbx-run (direct mode, as its caller) and in
 * sandboxd (as root, at start, on a path from its own command line), never in a jail. */
#include "auditfile.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "json.h"

#define WRITE_WAIT_MS 5000 /* a non-blocking fd that stays full this long: the line is lost */

/* What a regular file must be for records to be trusted in it: ours alone. */
static int check_regular(const struct stat *st, const char *what, struct sbx_error *e)
{
        if (st->st_uid != geteuid()) {
                sbx_error_set(e, SBX_STAGE_OPTIONS, EPERM, "fstat", what, "the audit file is owned by uid %u, not by uid %u",
                              (unsigned)st->st_uid, (unsigned)geteuid());
                sbx_error_hint(e, "remove it, or name a file of your own");
                return -EPERM;
        }
        if (st->st_mode & (S_IWGRP | S_IWOTH)) {
                sbx_error_set(e, SBX_STAGE_OPTIONS, EPERM, "fstat", what, "the audit file is writable by %s (mode %04o)",
                              st->st_mode & S_IWOTH ? "everyone" : "its group", (unsigned)(st->st_mode & 07777));
                sbx_error_hint(e, "chmod go-w it: others could forge or erase records");
                return -EPERM;
        }
        /* A hard link may be another name of a file someone else relies on. */
        if (st->st_nlink != 1) {
                sbx_error_set(e, SBX_STAGE_OPTIONS, EMLINK, "fstat", what, "the audit file has %ju links",
                              (uintmax_t)st->st_nlink);
                sbx_error_hint(e, "name a file with a single link");
                return -EMLINK;
        }
        return 0;
}

int sbx_audit_file_open(const char *path, struct sbx_error *e)
{
        _cleanup_close_ int fd = -1;
        struct stat st;
        int r;

        /* O_NONBLOCK: a FIFO planted under the name must not hang us until a reader
         * comes (it is refused below); O_NOFOLLOW: nor a symbolic link send the records
         * (as root, for sandboxd) to a file of someone else's choosing. */
        fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0600);
        if (fd < 0) {
                r = -errno;
                sbx_error_set(e, SBX_STAGE_OPTIONS, -r, "open", path, "cannot open the audit file");
                sbx_error_hint(e, r == -ELOOP ? "it is a symbolic link: name the file itself"
                                              : "its directory must exist and be writable by you");
                return r;
        }
        if (fstat(fd, &st) < 0)
                return sbx_error_set(e, SBX_STAGE_OPTIONS, errno, "fstat", path, "cannot stat the audit file");
        if (!S_ISREG(st.st_mode)) {
                sbx_error_set(e, SBX_STAGE_OPTIONS, EINVAL, "", path, "the audit file is not a regular file");
                sbx_error_hint(e, "name a regular file, or pass an open fd with --audit-fd");
                return -EINVAL;
        }
        if ((r = check_regular(&st, path, e)) < 0)
                return r;
        if (fcntl(fd, F_SETFL, O_APPEND) < 0)
                return sbx_error_set(e, SBX_STAGE_OPTIONS, errno, "fcntl", path, "cannot make the audit file blocking");
        return TAKE_FD(fd);
}

int sbx_audit_fd_take(int fd, struct sbx_error *e)
{
        char what[32];
        struct stat st;
        int fl, r;

        snprintf(what, sizeof(what), "fd %d", fd);
        if (fd < 0 || (fl = fcntl(fd, F_GETFL)) < 0 || fstat(fd, &st) < 0) {
                sbx_error_set(e, SBX_STAGE_OPTIONS, EBADF, "fcntl", "", "--audit-fd %d is not open", fd);
                sbx_error_hint(e, "open it for writing in the caller, e.g. 3>>FILE");
                return -EBADF;
        }
        if ((fl & O_ACCMODE) == O_RDONLY || (fl & O_PATH)) {
                sbx_error_set(e, SBX_STAGE_OPTIONS, EBADF, "fcntl", "", "--audit-fd %d is not open for writing", fd);
                sbx_error_hint(e, "open it for writing in the caller, e.g. 3>>FILE");
                return -EBADF;
        }
        if (S_ISREG(st.st_mode)) {
                if ((r = check_regular(&st, what, e)) < 0)
                        return r;
                /* Appended, whoever else holds the same file: lines never overwrite. */
                if (!(fl & O_APPEND) && fcntl(fd, F_SETFL, fl | O_APPEND) < 0)
                        return sbx_error_set(e, SBX_STAGE_OPTIONS, errno, "fcntl", what, "cannot set O_APPEND");
        }
        if (fd > 2 && fcntl(fd, F_SETFD, FD_CLOEXEC) < 0)
                return sbx_error_set(e, SBX_STAGE_OPTIONS, errno, "fcntl", what, "cannot set FD_CLOEXEC");
        return fd;
}

/* The device a character device fd writes to: its node's, except for the nodes that
 * stand for another terminal -- /dev/tty (the opener's controlling terminal),
 * /dev/console, and a pty master (/dev/ptmx, /dev/pts/ptmx), whose writes reach its
 * slave's readers as echoed input -- where the kernel says which (TIOCGDEV, asked of
 * those terminal nodes only).  0: not a device, or none known. */
static dev_t stream_dev(int fd, const struct stat *st)
{
        unsigned int v;

        if (!S_ISCHR(st->st_mode))
                return 0;
        if (major(st->st_rdev) == 5 && minor(st->st_rdev) <= 2) {
                if (ioctl(fd, TIOCGDEV, &v) < 0)
                        return st->st_rdev;
                /* The kernel's new_encode_dev. */
                return makedev((v & 0xfff00) >> 8, (v & 0xff) | ((v >> 12) & 0xfff00));
        }
        return st->st_rdev;
}

int sbx_audit_shared(int audit, const int *fds, size_t n)
{
        struct stat st, io;
        dev_t dev;

        if (fstat(audit, &st) < 0)
                return -errno;
        dev = stream_dev(audit, &st);
        /* Nothing written to the null device is read by anyone. */
        if (dev == makedev(1, 3))
                return (int)n;
        for (size_t i = 0; i < n; i++) {
                if (fstat(fds[i], &io) < 0)
                        continue;
                if (io.st_dev == st.st_dev && io.st_ino == st.st_ino)
                        return (int)i;
                if (dev && stream_dev(fds[i], &io) == dev)
                        return (int)i;
        }
        return (int)n;
}

/* All of @buf, retrying what EINTR and a full non-blocking fd interrupt. */
static int write_all(int fd, const char *buf, size_t len)
{
        while (len > 0) {
                ssize_t n = write(fd, buf, len);

                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0 && errno == EAGAIN) {
                        struct pollfd p = { .fd = fd, .events = POLLOUT };

                        if (poll(&p, 1, WRITE_WAIT_MS) <= 0)
                                return -EAGAIN;
                        continue;
                }
                if (n < 0)
                        return -errno;
                if (n == 0)
                        return -EIO;
                buf += n;
                len -= (size_t)n;
        }
        return 0;
}

int sbx_audit_jsonl(int fd, const struct iovec *fields, size_t n)
{
        _cleanup_free_ char *line = NULL;
        size_t size = 0;
        struct timespec ts;
        FILE *f = open_memstream(&line, &size);

        if (!f)
                return -errno;
        clock_gettime(CLOCK_REALTIME, &ts);
        fprintf(f, "{\"__REALTIME_TIMESTAMP\":\"%" PRIu64 "\"",
                (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u);
        for (size_t i = 0; i < n; i++) {
                const char *kv = fields[i].iov_base;
                const char *eq = strchr(kv, '=');

                if (!eq)
                        continue;
                /* Names are audit.c's own (A-Z, 0-9, _): no escaping needed. */
                fprintf(f, ",\"%.*s\":", (int)(eq - kv), kv);
                sbx_json_exact(f, eq + 1);
        }
        fputs("}\n", f);
        if (fclose(f) != 0)
                return -ENOMEM;
        return write_all(fd, line, size);
}
