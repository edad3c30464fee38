/* SPDX-License-Identifier: MIT */
/* Fuzzes the external validator's answer: any bytes through sbx_validator_parse.  The
 * verdict is one of allow, warn, block or error (never none); the reason is a
 * non-empty line with no control character; the confidence is -1 or within 0..1. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../policy/validator.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        struct sbx_validation v;
        int r;

        if (size > SBX_VALIDATOR_OUTPUT_MAX)
                return 0;
        memset(&v, 0x55, sizeof(v));
        v.reason[sizeof(v.reason) - 1] = '\0';
        r = sbx_validator_parse((const char *)data, size, &v);
        if (r != v.verdict || r < SBX_VV_ALLOW || r > SBX_VV_ERROR)
                abort();
        if (!v.reason[0] || strlen(v.reason) >= sizeof(v.reason))
                abort();
        for (const unsigned char *c = (const unsigned char *)v.reason; *c; c++)
                if (*c < 0x20 || *c == 0x7f)
                        abort();
        if (v.confidence != -1 && !(v.confidence >= 0 && v.confidence <= 1))
                abort();
        return 0;
}
