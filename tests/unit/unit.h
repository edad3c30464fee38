/* SPDX-License-Identifier: MIT */
/* A minimal unit-test harness: each CHECK is one result line, in the format of
 * tests/lib.sh ("ok\tGROUP: NAME" / "fail\tGROUP: NAME\tWHY"), appended to
 * $SBX_RESULTS when set.  main() returns non-zero if any check failed. */
#pragma once

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int unit_failed;

static inline void unit_record(const char *group, const char *name, int ok, const char *why)
{
        const char *file = getenv("SBX_RESULTS");
        FILE *f = file ? fopen(file, "a") : NULL;

        printf("%s %s: %s%s%s\n", ok ? "ok  " : "FAIL", group, name, ok ? "" : " -- ", ok ? "" : why);
        if (f) {
                if (ok)
                        fprintf(f, "ok\t%s: %s\n", group, name);
                else
                        fprintf(f, "fail\t%s: %s\t%s\n", group, name, why);
                fclose(f);
        }
        if (!ok)
                unit_failed++;
}

#define CHECK(group, name, cond) unit_record(group, name, !!(cond), #cond)
