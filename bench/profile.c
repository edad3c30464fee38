/* SPDX-License-Identifier: MIT */
/* How long loading, layering and resolving a profile takes: what sbx-run spends
 * before it starts building the jail.  Median over many rounds, in microseconds. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../policy/profile.h"
#include "../policy/resolve.h"

static double now_us(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
        double x = *(const double *)a, y = *(const double *)b;

        return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
        static char *cmd[] = { "sh", "-c", "ls -la | grep x && git status", NULL };
        enum { ROUNDS = 500 };
        static double t[ROUNDS];

        for (int a = 1; a < argc; a++) {
                for (int i = 0; i < ROUNDS; i++) {
                        struct sbx_profile pr;
                        struct sbx_ask cli;
                        struct sbx_vars vars;
                        struct sbx_diag d;
                        struct sbx_error e = { 0 };
                        struct sbx_verdict v;
                        double t0 = now_us();

                        sbx_profile_init(&pr);
                        sbx_ask_init(&cli);
                        if (sbx_vars_init(&vars, NULL, &d) < 0 || sbx_profile_load(argv[a], &vars, &pr, &d) < 0 ||
                            sbx_profile_resolve(&pr, &cli, &vars, &sbx_caller_self, &e) < 0 || sbx_cmd_check(&pr.commands, cmd, &v) < 0) {
                                fprintf(stderr, "bench-profile: %s: failed\n", argv[a]);
                                return 1;
                        }
                        t[i] = now_us() - t0;
                        sbx_profile_done(&pr);
                        sbx_ask_done(&cli);
                }
                qsort(t, ROUNDS, sizeof(t[0]), cmp);
                printf("profile %-10s load+resolve+check: median %.0f us, p90 %.0f us\n", argv[a], t[ROUNDS / 2],
                       t[ROUNDS * 9 / 10]);
        }
        return 0;
}
