/* SPDX-License-Identifier: MIT */
/* Launch-latency benchmark: runs several commands ("variants") N times each,
 * round-robin, so that whatever noise the machine makes falls on all of them alike.
 *
 * usage: launch [-n N] [-w WARMUP] [-C DIR] NAME PATH [ARG...] \; NAME PATH [ARG...] \; ...
 *
 * Each run is fork + execve + wait4, timed with CLOCK_MONOTONIC from just before
 * fork to just after wait4.  Standard input and output go to /dev/null; standard
 * error goes to a memfd that is printed if the run fails.  Prints, per variant, the
 * median and p90 in milliseconds and the peak RSS (max ru_maxrss over its runs, in
 * KiB), then the ratio of the first variant's median to the second's.
 *
 * Exits 0 when every run exited 0, 1 as soon as one did not (printing what it
 * said), 2 on bad usage.  It never fails on a slow figure. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

struct variant {
        const char *name;
        char **argv; /* argv[0] is the path given to execve */
        double *ms;  /* one sample per counted run */
        long max_rss_kib;
};

static void usage(void) {
        fprintf(stderr,
                "usage: launch [-n N] [-w WARMUP] [-C DIR] NAME PATH [ARG...] ';' "
                "[NAME PATH [ARG...] ';' ...]\n");
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

/* One run: fork, execve, wait4.  Returns the wall time in ms, or -1 (reported) if the
 * variant did not exit 0. */
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
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                if (WIFSIGNALED(status))
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

/* Nearest-rank percentile on sorted samples. */
static double percentile(const double *s, long n, int p) {
        long rank = (n * p + 99) / 100;
        return s[rank > 0 ? rank - 1 : 0];
}

int main(int argc, char **argv) {
        long n = 200, warmup = 3;
        const char *dir = NULL;
        int opt;

        while ((opt = getopt(argc, argv, "+n:w:C:")) != -1) {
                switch (opt) {
                case 'n': n = parse_count(optarg, "count"); break;
                case 'w': warmup = parse_count(optarg, "warm-up count"); break;
                case 'C': dir = optarg; break;
                default: usage();
                }
        }
        if (n < 1)
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
                vs[nv].ms = calloc((size_t)n, sizeof(double));
                if (!vs[nv].ms) {
                        perror("launch: calloc");
                        return 1;
                }
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
        int errfd = memfd_create("launch-stderr", MFD_CLOEXEC);
        if (nullfd < 0 || errfd < 0) {
                perror("launch: open");
                return 1;
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
        printf("%-10s %10s %10s %14s\n", "variant", "median_ms", "p90_ms", "peak_rss_kib");
        for (size_t k = 0; k < nv; k++) {
                struct variant *v = &vs[k];
                qsort(v->ms, (size_t)n, sizeof(double), cmp_double);
                printf("%-10s %10.3f %10.3f %14ld\n", v->name, median(v->ms, n),
                       percentile(v->ms, n, 90), v->max_rss_kib);
        }
        if (nv >= 2)
                printf("ratio median(%s)/median(%s): %.2f\n", vs[0].name, vs[1].name,
                       median(vs[0].ms, n) / median(vs[1].ms, n));
        printf("peak RSS of %s: %ld KiB\n", vs[0].name, vs[0].max_rss_kib);
        return 0;
}
