/* SPDX-License-Identifier: MIT */
/* Runs a helper as a filter (spawn.h).  Parent side: sbx-run or sandboxd's launcher,
 * before any jail, single-threaded.  Child side: between clone3 and execve, only
 * syscalls (no allocation, no NSS), then the helper's own image. */
#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/close_range.h>
#include <linux/sched.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"

#define ERR_KEEP 4096 /* bytes of stderr read for its last line; the rest is drained */

static uint64_t now_ms(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* ---- child ------------------------------------------------------------------------- */

/* Tells the parent why the helper did not start, and ends. */
_Noreturn static void child_fail(int report_fd, int err)
{
        (void)!write(report_fd, &err, sizeof(err));
        _exit(127);
}

/* Child, after clone3: fds, session, identity, no_new_privs, signals, exec.  The order
 * matters where privilege does: the identity changes before PDEATHSIG (a credential
 * change clears it) and before no_new_privs (which only narrows what exec may gain). */
_Noreturn static void child(const struct sbx_spawn *s, int in, int out, int err, int report_fd, pid_t parent)
{
        static char *const env[] = { "PATH=/usr/local/bin:/usr/bin:/bin", NULL };
        sigset_t none;

        /* 1. stdin, stdout, stderr; every other fd closes at exec (report_fd tells the
         * parent exec happened, by closing).  The sources are all above 2: fds 0-2 were
         * open when the pipes were made. */
        if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
                child_fail(report_fd, errno);
        if (syscall(SYS_close_range, 3, ~0u, CLOSE_RANGE_CLOEXEC) < 0)
                child_fail(report_fd, errno);
        /* 2. A session and process group of its own: killed as a group, and no
         * controlling terminal to write to or inject into. */
        if (setsid() < 0)
                child_fail(report_fd, errno);
        /* 2b. Its working directory is "/", never the launcher's: that is the
         * workspace, which the jail writes, and what a helper finds in its cwd
         * (python3 -m's first import path, npx's node_modules, a ./config) would
         * otherwise be the jail's code, run outside it. */
        if (chdir("/") < 0)
                child_fail(report_fd, errno);
        /* 3. Its identity: no supplementary group, then the gid, then the uid (from
         * root, setresuid to a non-zero uid clears every capability). */
        if (s->drop) {
                if (setgroups(0, NULL) < 0 || setresgid(s->gid, s->gid, s->gid) < 0 || setresuid(s->uid, s->uid, s->uid) < 0)
                        child_fail(report_fd, errno);
                if (getuid() != s->uid || geteuid() != s->uid || getgid() != s->gid)
                        child_fail(report_fd, EPERM);
        }
        /* 4. Dies with its parent (after the identity change, which clears this).  In a
         * PID namespace of its own its parent is outside: getppid() reads 0. */
        if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
                child_fail(report_fd, errno);
        if (getppid() != parent && getppid() != 0)
                _exit(127);
        /* 5. Nothing it executes gains privilege (setuid bits, file capabilities). */
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
                child_fail(report_fd, errno);
        /* 6. Signals as a fresh process has them: sbx-run's caller may have ignored
         * SIGPIPE or SIGTERM, and the launcher blocks some. */
        for (int sig = 1; sig < NSIG; sig++)
                if (sig != SIGKILL && sig != SIGSTOP)
                        (void)signal(sig, SIG_DFL);
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        execve(s->argv[0], s->argv, env);
        child_fail(report_fd, errno);
}

/* ---- parent ------------------------------------------------------------------------ */

struct pipes {
        int in[2], out[2], err[2], report[2];
};

static void pipes_close(struct pipes *p)
{
        int *all[] = { p->in, p->out, p->err, p->report };

        for (size_t i = 0; i < ELEMENTSOF(all); i++) {
                closep(&all[i][0]);
                closep(&all[i][1]);
        }
}

/* clone3 with a pidfd (and a PID namespace when asked and allowed); fork where clone3
 * is refused (a container's seccomp profile answers ENOSYS). */
static pid_t start(const struct sbx_spawn *s, const struct pipes *p, int *pidfd)
{
        pid_t parent = getpid(), pid;
        struct clone_args args = {
                .flags = CLONE_PIDFD | (s->pidns ? CLONE_NEWPID : 0),
                .pidfd = (uint64_t)(uintptr_t)pidfd,
                .exit_signal = SIGCHLD,
        };

        pid = (pid_t)syscall(SYS_clone3, &args, sizeof(args));
        if (pid < 0 && s->pidns && (errno == EPERM || errno == EINVAL)) {
                args.flags &= ~(uint64_t)CLONE_NEWPID;
                pid = (pid_t)syscall(SYS_clone3, &args, sizeof(args));
        }
        if (pid < 0 && errno == ENOSYS) {
                pid = fork();
                if (pid > 0 && (*pidfd = (int)syscall(SYS_pidfd_open, pid, 0)) < 0) {
                        int saved = errno;

                        sbx_kill_and_reapp(&pid);
                        errno = saved;
                        return -1;
                }
        }
        if (pid == 0)
                child(s, p->in[1], p->out[1], p->err[1], p->report[1], parent);
        return pid;
}

/* Kills the helper and whatever it started: its PID namespace dies with it; its
 * process group is killed too (the whole of it where there is no namespace). */
static void kill_all(pid_t pid, int pidfd)
{
        (void)syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0);
        (void)kill(-pid, SIGKILL);
}

/* Appends what @fd has to @buf (at most @max bytes kept, *@over set past it); 0 at
 * EOF, 1 while open. */
static int drain(int fd, char *buf, size_t *len, size_t max, bool *over)
{
        char tmp[4096];
        ssize_t n = read(fd, tmp, sizeof(tmp));

        if (n < 0)
                return errno == EAGAIN || errno == EINTR ? 1 : 0;
        if (n == 0)
                return 0;
        if (*len + (size_t)n > max) {
                *over = true;
                n = (ssize_t)(max - *len);
        }
        memcpy(buf + *len, tmp, (size_t)n);
        *len += (size_t)n;
        return 1;
}

static void last_line(const char *buf, size_t len, char *out, size_t size)
{
        size_t end = len, start;
        size_t o = 0;

        while (end > 0 && (buf[end - 1] == '\n' || buf[end - 1] == '\r' || buf[end - 1] == ' '))
                end--;
        start = end;
        while (start > 0 && buf[start - 1] != '\n')
                start--;
        /* Controls become spaces; the caller keeps only what is UTF-8. */
        for (size_t i = start; i < end && o + 1 < size; i++) {
                unsigned char c = (unsigned char)buf[i];

                if (c < 0x20 || c == 0x7f)
                        out[o++] = ' ';
                else
                        out[o++] = buf[i];
        }
        out[o] = '\0';
}

/* Feeds stdin, reads stdout and stderr until both end, the deadline passes or stdout
 * overflows; the helper's own exit does not end the wait for its pipes (what it
 * started may still write), the deadline does. */
static void supervise(const struct sbx_spawn *s, struct pipes *p, pid_t pid, int pidfd, struct sbx_spawn_result *res,
                      char *errbuf, size_t *errlen)
{
        uint64_t deadline = now_ms() + s->timeout_ms;
        size_t written = 0;
        bool out_open = true, err_open = true, exited = false, err_over = false;

        if (s->input_len == 0)
                (void)shutdown(p->in[0], SHUT_WR);
        while (out_open || err_open || !exited) {
                struct pollfd fds[4] = {
                        { .fd = out_open ? p->out[0] : -1, .events = POLLIN },
                        { .fd = err_open ? p->err[0] : -1, .events = POLLIN },
                        { .fd = written < s->input_len ? p->in[0] : -1, .events = POLLOUT },
                        { .fd = exited ? -1 : pidfd, .events = POLLIN },
                };
                uint64_t now = now_ms();
                int n;

                if (now >= deadline) {
                        res->timed_out = true;
                        break;
                }
                n = poll(fds, 4, (int)(deadline - now));
                if (n < 0 && errno != EINTR)
                        break;
                if (n <= 0)
                        continue;
                if (fds[0].revents) {
                        out_open = drain(p->out[0], res->output, &res->len, s->output_max, &res->overflow) == 1;
                        if (res->overflow)
                                break;
                }
                if (fds[1].revents) /* the first ERR_KEEP bytes kept, the rest drained */
                        err_open = drain(p->err[0], errbuf, errlen, ERR_KEEP, &err_over) == 1;
                if (fds[2].revents) {
                        ssize_t w = send(p->in[0], s->input + written, s->input_len - written, MSG_NOSIGNAL | MSG_DONTWAIT);

                        if (w > 0)
                                written += (size_t)w;
                        else if (w < 0 && errno != EAGAIN && errno != EINTR)
                                written = s->input_len; /* it stopped reading: no more to give */
                        if (written == s->input_len)
                                (void)shutdown(p->in[0], SHUT_WR);
                }
                if (fds[3].revents) {
                        /* Ended: whatever it left running goes now, so that its pipes
                         * close and nothing outlives the answer. */
                        exited = true;
                        (void)kill(-pid, SIGKILL);
                }
        }
        kill_all(pid, pidfd);
}

int sbx_spawn_run(const struct sbx_spawn *s, struct sbx_spawn_result *res, struct sbx_error *e)
{
        struct pipes p = { { -1, -1 }, { -1, -1 }, { -1, -1 }, { -1, -1 } };
        _cleanup_close_ int pidfd = -1;
        _cleanup_free_ char *errbuf = NULL;
        size_t errlen = 0;
        siginfo_t si = { 0 };
        pid_t pid;
        int started_err = 0;
        ssize_t n;

        *res = (struct sbx_spawn_result){ .exit_code = -1 };
        res->output = malloc(s->output_max + 1);
        errbuf = malloc(ERR_KEEP + 1);
        if (!res->output || !errbuf)
                return sbx_error_set(e, SBX_STAGE_VALIDATOR, ENOMEM, "", "", "out of memory");
        /* stdin is a socket, so that a helper that stops reading costs an EPIPE from
         * send(MSG_NOSIGNAL), never a SIGPIPE here. */
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p.in) < 0 || pipe2(p.out, O_CLOEXEC) < 0 ||
            pipe2(p.err, O_CLOEXEC) < 0 || pipe2(p.report, O_CLOEXEC) < 0) {
                pipes_close(&p);
                return sbx_error_set(e, SBX_STAGE_VALIDATOR, errno, "pipe2", "", "cannot make the validator's pipes");
        }
        pid = start(s, &p, &pidfd);
        if (pid < 0) {
                int r = sbx_error_set(e, SBX_STAGE_VALIDATOR, errno, "clone3", s->argv[0], "cannot start the validator");

                pipes_close(&p);
                return r;
        }
        /* The child's ends are its own now. */
        closep(&p.in[1]);
        closep(&p.out[1]);
        closep(&p.err[1]);
        closep(&p.report[1]);
        /* EOF: exec happened (the CLOEXEC end closed); an int: why it did not.  The
         * child makes only syscalls before exec, so this read does not hang. */
        while ((n = read(p.report[0], &started_err, sizeof(started_err))) < 0 && errno == EINTR)
                ;
        if (n == (ssize_t)sizeof(started_err)) {
                res->exec_errno = started_err;
                kill_all(pid, pidfd);
        } else {
                (void)fcntl(p.out[0], F_SETFL, O_NONBLOCK);
                (void)fcntl(p.err[0], F_SETFL, O_NONBLOCK);
                supervise(s, &p, pid, pidfd, res, errbuf, &errlen);
        }
        pipes_close(&p);
        while (waitid(P_PIDFD, (id_t)pidfd, &si, WEXITED) < 0 && errno == EINTR)
                ;
        if (si.si_code == CLD_EXITED) {
                res->exit_code = si.si_status;
        } else {
                res->signal = si.si_status;
                /* Killed by us at the deadline or for its output: that is the cause. */
        }
        res->output[res->len] = '\0';
        last_line(errbuf, errlen, res->errtail, sizeof(res->errtail));
        return 0;
}

void sbx_spawn_result_done(struct sbx_spawn_result *res)
{
        free(res->output);
        res->output = NULL;
}
