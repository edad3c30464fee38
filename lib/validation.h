/* SPDX-License-Identifier: MIT */
/* What an external validator said about a command (policy/validator.c asks it): one
 * fixed-size record, so that it crosses sandboxd's launcher socket whole, rides in the
 * exit summary (--json, the bus) and fills the audit record's SBX_VALIDATOR* fields. */
#pragma once

#include <stdbool.h>

enum sbx_vverdict {
        SBX_VV_NONE = 0, /* no validator ran */
        SBX_VV_ALLOW,
        SBX_VV_WARN,  /* the command runs; the warning is recorded */
        SBX_VV_BLOCK, /* the validator refused it: exit 126 */
        SBX_VV_ERROR, /* it could not answer (timeout, crash, garbage...): refused, fail closed */
        _SBX_VV_MAX,
};

struct sbx_validation {
        int verdict;           /* enum sbx_vverdict */
        char validator[256];   /* the program (its command[0]) */
        char reason[512];      /* one line: its reason, or why it could not answer */
        double confidence;     /* 0.0-1.0 when it said; -1: not given */
};

/* "allow", "warn", "block", "error"; "" for none, "unknown" out of range. */
const char *sbx_vverdict_name(int verdict);
