/* SPDX-License-Identifier: MIT */
/* Fuzzes the size, duration and count parsers, and the JSON string writer. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/json.h"
#include "../../lib/parse.h"
#include "../../lib/plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        char *s = malloc(size + 1);
        FILE *null = fopen("/dev/null", "w");
        uint64_t v;

        if (!s || !null) {
                free(s);
                if (null)
                        fclose(null);
                return 0;
        }
        memcpy(s, data, size);
        s[size] = '\0';
        (void)sbx_parse_size(s, &v);
        (void)sbx_parse_duration_ms(s, &v);
        (void)sbx_parse_u64(s, &v);
        (void)sbx_path_is_normal(s);
        sbx_json_string(null, s);
        fclose(null);
        free(s);
        return 0;
}
