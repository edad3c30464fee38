/* SPDX-License-Identifier: MIT */
/* Launch benchmark: runs several commands ("variants") and times them, in one of two
 * modes.
 *
 * Latency:  launch [-n N] [-w WARMUP] [-C DIR] [-T SECONDS] [-r A/B]... VARIANTS
 *   Runs each variant N times, round-robin, so that whatever noise the machine makes
 *   falls on all of them alike.  Prints, per variant, the mean, median and p90 in
 *   milliseconds and the peak RSS (max ru_maxrss over its runs, in KiB); then for
 *   each -r A/B the ratios of A's median and mean to B's (without -r: the first
 *   variant over the second).
 *
 * Load:     launch -c CLIENTS[,CLIENTS...] -d SECONDS [-p PID] [-C DIR] [-T SECONDS] [-r A/B]...
 *                   VARIANTS
 *   For each client count, for each variant in turn: that many client processes, each
 *   running the variant back to back until SECONDS have passed.  Prints launches per
 *   second (runs finished / time until the last client stopped) and the mean time of
 *   one run; with -p, also PID's VmRSS (max and mean) and open fds (max), sampled
 *   every 50 ms while the clients run; then for each -r A/B the ratio of A's launches
 *   per second to B's at each client count.  A cell where a client fails is reported
 *   as failed, and the others still run.
 *
 * VARIANTS is NAME PATH [ARG...] \; NAME PATH [ARG...] \; ...
 *
 * Each run is fork + execve + wait4, timed with CLOCK_MONOTONIC from just before
 * fork to just after wait4.  Standard input and output go to /dev/null; standard
 * error goes to a memfd that is printed if the run fails.  With -T, a run still going
 * after SECONDS is killed (SIGKILL) and counts as failed.
 *
 * Exits 0 when every run exited 0; 1 when one did not (printing what it said): in
 * latency mode at once, in load mode at the end; 2 on bad usage.  It never fails on a
 * slow figure. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define MAX_COUNTS 8
#define MAX_CLIENTS 64
#define MAX_RATIOS 8
#define SAMPLE_MS 50

struct variant {
        const char *name;
        char **argv; /* argv[0] is the path given to execve */
        double *ms;  /* latency: one sample per counted run */
        long max_rss_kib;
        int timeout_ms;          /* a run still going after this is killed; 0: never */
        double rate[MAX_COUNTS]; /* load: launches per second at each client count; <0 failed */
};

/* What one load client did; in shared memory, written by the client, read after it
 * is reaped. */
struct tally {
        long runs;
        double sum_ms;
        double end_ms;
};

/* What the sampler saw of the watched process during one load cell. */
struct watch {
        long rss_max_kib, rss_sum_kib, samples, fds_max;
};

static void usage(void) {
        fprintf(stderr,
                "usage: launch [-n N] [-w WARMUP] [-C DIR] [-T SECONDS] [-r A/B]... VARIANTS\n"
                "       launch -c CLIENTS[,CLIENTS...] -d SECONDS [-p PID] [-C DIR] [-T SECONDS]\n"
                "              [-r A/B]... VARIANTS\n"
                "VARIANTS: NAME PATH [ARG...] ';' [NAME PATH [ARG...] ';' ...]\n");
        exit(2);
}

static long parse_count(const char *s, const char *what) {
        char *end;
        errno = 0;
        long v = strtol(s, &end, 10);
        if (errno || *end || end == s || v < 0 || v > 1000000) {
                fprintf(stderr, "launch: bad %s '%s'\n", what, s);
                exit(2);
        }
        return v;
}

/* "1,2,8": at most MAX_COUNTS client counts, each from 1 to MAX_CLIENTS. */
static size_t parse_clients(char *s, long *out) {
        size_t n = 0;
        for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
                long c = parse_count(tok, "client count");
                if (n == MAX_COUNTS || c < 1 || c > MAX_CLIENTS) {
                        fprintf(stderr, "launch: client counts: at most %d, each 1 to %d\n",
                                MAX_COUNTS, MAX_CLIENTS);
                        exit(2);
                }
                out[n++] = c;
        }
        return n;
}

static double now_ms(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Prints what the failed run wrote on stderr, at most 4 KiB of it. */
static void dump_stderr(int errfd) {
        char buf[4096];
        ssize_t n = pread(errfd, buf, sizeof(buf), 0);
        if (n > 0)
                fprintf(stderr, "--- its stderr ---\n%.*s%s", (int)n, buf,
                        buf[n - 1] == '\n' ? "" : "\n");
}

/* Whether pid exits within timeout_ms.  Polls its pidfd, so the wait4 that follows
 * returns at once; true when it cannot watch (wait4 then blocks as before). */
static bool exited_within(pid_t pid, int timeout_ms) {
        int fd = (int)syscall(SYS_pidfd_open, pid, 0);
        if (fd < 0)
                return true;
        struct pollfd p = { .fd = fd, .events = POLLIN };
        int r;
        do
                r = poll(&p, 1, timeout_ms);
        while (r < 0 && errno == EINTR);
        close(fd);
        return r != 0;
}

/* One run: fork, execve, wait4.  Returns the wall time in ms, or -1 (reported) if the
 * variant did not exit 0 or ran out of time. */
static double run_once(struct variant *v, int nullfd, int errfd) {
        if (ftruncate(errfd, 0) < 0) {
                perror("launch: ftruncate");
                return -1;
        }
        double t0 = now_ms();
        pid_t pid = fork();
        if (pid < 0) {
                perror("launch: fork");
                return -1;
        }
        if (pid == 0) {
                /* dup2 clears O_CLOEXEC on the copies; the originals close at execve. */
                if (dup2(nullfd, 0) < 0 || dup2(nullfd, 1) < 0 || dup2(errfd, 2) < 0)
                        _exit(127);
                execve(v->argv[0], v->argv, environ);
                dprintf(2, "launch: execve '%s': %s\n", v->argv[0], strerror(errno));
                _exit(127);
        }
        bool late = v->timeout_ms > 0 && !exited_within(pid, v->timeout_ms);
        if (late)
                kill(pid, SIGKILL);
        int status;
        struct rusage ru;
        pid_t r;
        do
                r = wait4(pid, &status, 0, &ru);
        while (r < 0 && errno == EINTR);
        double t1 = now_ms();
        if (r < 0) {
                perror("launch: wait4");
                return -1;
        }
        if (late || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                if (late)
                        fprintf(stderr, "launch: variant '%s' still running after %d ms: killed\n",
                                v->name, v->timeout_ms);
                else if (WIFSIGNALED(status))
                        fprintf(stderr, "launch: variant '%s' killed by signal %d\n", v->name,
                                WTERMSIG(status));
                else
                        fprintf(stderr, "launch: variant '%s' exited %d\n", v->name,
                                WEXITSTATUS(status));
                dump_stderr(errfd);
                return -1;
        }
        if (ru.ru_maxrss > v->max_rss_kib)
                v->max_rss_kib = ru.ru_maxrss;
        return t1 - t0;
}

static int cmp_double(const void *a, const void *b) {
        double x = *(const double *)a, y = *(const double *)b;
        return (x > y) - (x < y);
}

static double median(const double *s, long n) {
        return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static double mean(const double *s, long n) {
        double sum = 0;
        for (long i = 0; i < n; i++)
                sum += s[i];
        return sum / (double)n;
}

/* Nearest-rank percentile on sorted samples. */
static double percentile(const double *s, long n, int p) {
        long rank = (n * p + 99) / 100;
        return s[rank > 0 ? rank - 1 : 0];
}

static struct variant *find_variant(struct variant *vs, size_t nv, const char *name) {
        for (size_t k = 0; k < nv; k++)
                if (strcmp(vs[k].name, name) == 0)
                        return &vs[k];
        fprintf(stderr, "launch: -r names no variant '%s'\n", name);
        exit(2);
}

/* ---- latency ------------------------------------------------------------------- */

static int latency(struct variant *vs, size_t nv, long n, long warmup, char **ratios,
                   size_t nr, int nullfd) {
        int errfd = memfd_create("launch-stderr", MFD_CLOEXEC);
        if (errfd < 0) {
                perror("launch: memfd_create");
                return 1;
        }
        for (size_t k = 0; k < nv; k++) {
                vs[k].ms = calloc((size_t)n, sizeof(double));
                if (!vs[k].ms) {
                        perror("launch: calloc");
                        return 1;
                }
        }

        /* Round-robin; the starting variant rotates each round so that no variant
         * always runs right after the same other one. */
        for (long round = -warmup; round < n; round++) {
                for (size_t k = 0; k < nv; k++) {
                        size_t idx = (size_t)(round + warmup + (long)k) % nv;
                        struct variant *v = &vs[idx];
                        double ms = run_once(v, nullfd, errfd);
                        if (ms < 0)
                                return 1;
                        if (round >= 0)
                                v->ms[round] = ms;
                }
        }

        printf("%ld runs per variant, round-robin, after %ld warm-up rounds\n", n, warmup);
        printf("%-10s %10s %10s %10s %14s\n", "variant", "mean_ms", "median_ms", "p90_ms",
               "peak_rss_kib");
        for (size_t k = 0; k < nv; k++) {
                struct variant *v = &vs[k];
                qsort(v->ms, (size_t)n, sizeof(double), cmp_double);
                printf("%-10s %10.3f %10.3f %10.3f %14ld\n", v->name, mean(v->ms, n),
                       median(v->ms, n), percentile(v->ms, n, 90), v->max_rss_kib);
        }
        for (size_t i = 0; i < nr; i++) {
                struct variant *a = find_variant(vs, nv, ratios[2 * i]);
                struct variant *b = find_variant(vs, nv, ratios[2 * i + 1]);
                printf("ratio %s/%s: median %.2f, mean %.2f\n", a->name, b->name,
                       median(a->ms, n) / median(b->ms, n), mean(a->ms, n) / mean(b->ms, n));
        }
        if (nr == 0 && nv >= 2)
                printf("ratio median(%s)/median(%s): %.2f\n", vs[0].name, vs[1].name,
                       median(vs[0].ms, n) / median(vs[1].ms, n));
        printf("peak RSS of %s: %ld KiB\n", vs[0].name, vs[0].max_rss_kib);
        return 0;
}

/* ---- load ---------------------------------------------------------------------- */

/* One load client, in its own process: runs v back to back until the deadline. */
_Noreturn static void client(struct variant *v, struct tally *t, double deadline, int nullfd) {
        int errfd = memfd_create("launch-stderr", MFD_CLOEXEC);
        if (errfd < 0) {
                perror("launch: memfd_create");
                _exit(1);
        }
        while (now_ms() < deadline) {
                double ms = run_once(v, nullfd, errfd);
                if (ms < 0)
                        _exit(1);
                t->runs++;
                t->sum_ms += ms;
        }
        t->end_ms = now_ms();
        _exit(0);
}

/* VmRSS and the number of open fds of pid; false when it is gone. */
static bool sample(pid_t pid, struct watch *w) {
        char path[64], line[256];
        long rss = -1, fds = 0;

        snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
        FILE *f = fopen(path, "re");
        if (!f)
                return false;
        while (rss < 0 && fgets(line, sizeof(line), f))
                if (strncmp(line, "VmRSS:", 6) == 0)
                        rss = strtol(line + 6, NULL, 10);
        fclose(f);
        snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
        DIR *d = opendir(path);
        if (!d || rss < 0) {
                if (d)
                        closedir(d);
                return false;
        }
        for (struct dirent *de; (de = readdir(d));)
                fds += de->d_name[0] != '.';
        closedir(d);
        if (rss > w->rss_max_kib)
                w->rss_max_kib = rss;
        if (fds > w->fds_max)
                w->fds_max = fds;
        w->rss_sum_kib += rss;
        w->samples++;
        return true;
}

/* Waits for the clients, sampling the watched process meanwhile.  Returns how many
 * clients failed. */
static long reap(pid_t *pids, long clients, pid_t watched, struct watch *w) {
        const struct timespec tick = { 0, SAMPLE_MS * 1000000L };
        long left = clients, failed = 0;

        while (left > 0) {
                if (watched > 0 && !sample(watched, w))
                        watched = 0; /* gone: the clients will fail and say so */
                nanosleep(&tick, NULL);
                for (long i = 0; i < clients; i++) {
                        int status;
                        if (pids[i] <= 0 || waitpid(pids[i], &status, WNOHANG) != pids[i])
                                continue;
                        failed += !WIFEXITED(status) || WEXITSTATUS(status) != 0;
                        pids[i] = 0;
                        left--;
                }
        }
        return failed;
}

/* One cell: `clients` clients of v for `secs` seconds.  Prints its row; returns 1 when
 * a client failed (the row then says "failed", and what it did before that). */
static int load_cell(struct variant *v, long clients, double secs, pid_t watched,
                     struct tally *t, double *rate, int nullfd) {
        pid_t pids[MAX_CLIENTS] = { 0 };
        struct watch w = { 0 };

        memset(t, 0, sizeof(*t) * (size_t)clients);
        fflush(stdout);
        double t0 = now_ms(), deadline = t0 + secs * 1e3;
        long started = 0;
        while (started < clients) {
                pid_t pid = fork();
                if (pid < 0) {
                        perror("launch: fork");
                        break;
                }
                if (pid == 0)
                        client(v, &t[started], deadline, nullfd);
                pids[started++] = pid;
        }
        /* Those started run to the deadline even when one could not start. */
        long failed = reap(pids, started, watched, &w) + clients - started;
        if (failed)
                fprintf(stderr, "launch: %s, %ld client(s): %ld failed\n", v->name,
                        clients, failed);

        long runs = 0;
        double sum_ms = 0, end = t0;
        for (long i = 0; i < clients; i++) {
                runs += t[i].runs;
                sum_ms += t[i].sum_ms;
                end = t[i].end_ms > end ? t[i].end_ms : end;
        }
        *rate = failed ? -1 : (double)runs / ((end - t0) / 1e3);
        printf("%-10s %7ld %7ld", v->name, clients, runs);
        if (failed)
                printf(" %11s %9s", "failed", "-");
        else
                printf(" %11.1f %9.3f", *rate, runs ? sum_ms / (double)runs : 0.0);
        if (watched > 0 && w.samples)
                printf(" %15ld %16ld %11ld", w.rss_max_kib, w.rss_sum_kib / w.samples, w.fds_max);
        else if (watched > 0)
                printf(" %15s %16s %11s", "gone", "gone", "gone");
        printf("\n");
        fflush(stdout);
        return failed != 0;
}

static int load(struct variant *vs, size_t nv, const long *counts, size_t nc, double secs,
                pid_t watched, char **ratios, size_t nr, int nullfd) {
        struct tally *t = mmap(NULL, sizeof(*t) * MAX_CLIENTS, PROT_READ | PROT_WRITE,
                               MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (t == MAP_FAILED) {
                perror("launch: mmap");
                return 1;
        }
        printf("each client runs its variant back to back for %.1f s; variants take turns\n",
               secs);
        if (watched > 0)
                printf("pid %d watched: VmRSS and open fds sampled every %d ms\n", (int)watched,
                       SAMPLE_MS);
        printf("%-10s %7s %7s %11s %9s", "variant", "clients", "runs", "launches_s", "mean_ms");
        if (watched > 0)
                printf(" %15s %16s %11s", "pid_rss_max_kib", "pid_rss_mean_kib", "pid_fds_max");
        printf("\n");
        int failed = 0;
        for (size_t c = 0; c < nc; c++)
                for (size_t k = 0; k < nv; k++) {
                        /* The starting variant rotates, as in latency mode. */
                        struct variant *v = &vs[(c + k) % nv];
                        failed |= load_cell(v, counts[c], secs, watched, t, &v->rate[c], nullfd);
                }
        for (size_t i = 0; i < nr; i++) {
                struct variant *a = find_variant(vs, nv, ratios[2 * i]);
                struct variant *b = find_variant(vs, nv, ratios[2 * i + 1]);
                printf("ratio launches/s %s/%s:", a->name, b->name);
                for (size_t c = 0; c < nc; c++) {
                        printf(" %ld client%s ", counts[c], counts[c] == 1 ? "" : "s");
                        if (a->rate[c] < 0 || b->rate[c] < 0)
                                printf("n/a");
                        else
                                printf("%.2f", a->rate[c] / b->rate[c]);
                        printf("%s", c + 1 < nc ? "," : "\n");
                }
        }
        return failed;
}

/* ---- main ---------------------------------------------------------------------- */

int main(int argc, char **argv) {
        long n = 200, warmup = 3, counts[MAX_COUNTS];
        int timeout_ms = 0;
        size_t nc = 0, nr = 0;
        double secs = 0;
        pid_t watched = 0;
        char *ratios[2 * MAX_RATIOS];
        const char *dir = NULL;
        int opt;

        while ((opt = getopt(argc, argv, "+n:w:C:r:c:d:p:T:")) != -1) {
                switch (opt) {
                case 'n': n = parse_count(optarg, "count"); break;
                case 'w': warmup = parse_count(optarg, "warm-up count"); break;
                case 'C': dir = optarg; break;
                case 'c': nc = parse_clients(optarg, counts); break;
                case 'd': secs = (double)parse_count(optarg, "duration"); break;
                case 'p': watched = (pid_t)parse_count(optarg, "pid"); break;
                case 'T': timeout_ms = (int)parse_count(optarg, "timeout") * 1000; break;
                case 'r': {
                        char *slash = strchr(optarg, '/');
                        if (!slash || nr == MAX_RATIOS)
                                usage();
                        *slash = '\0';
                        ratios[2 * nr] = optarg;
                        ratios[2 * nr++ + 1] = slash + 1;
                        break;
                }
                default: usage();
                }
        }
        if (n < 1 || (nc > 0) != (secs > 0))
                usage();

        /* Split the rest into variants at each ";". */
        struct variant *vs = calloc((size_t)argc, sizeof(*vs));
        size_t nv = 0;
        if (!vs) {
                perror("launch: calloc");
                return 1;
        }
        for (int i = optind; i < argc;) {
                int j = i;
                while (j < argc && strcmp(argv[j], ";") != 0)
                        j++;
                if (j - i < 2)
                        usage();
                argv[j < argc ? j : argc] = NULL; /* terminates this variant's argv */
                vs[nv].name = argv[i];
                vs[nv].argv = &argv[i + 1];
                vs[nv].timeout_ms = timeout_ms;
                nv++;
                i = j + 1;
        }
        if (nv == 0)
                usage();

        if (dir && chdir(dir) < 0) {
                fprintf(stderr, "launch: chdir '%s': %s\n", dir, strerror(errno));
                return 1;
        }
        int nullfd = open("/dev/null", O_RDWR | O_CLOEXEC);
        if (nullfd < 0) {
                perror("launch: open '/dev/null'");
                return 1;
        }
        if (nc > 0)
                return load(vs, nv, counts, nc, secs, watched, ratios, nr, nullfd);
        return latency(vs, nv, n, warmup, ratios, nr, nullfd);
}
