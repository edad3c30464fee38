/* SPDX-License-Identifier: MIT */
/* Fuzzes sbx-run's command line: the input is split at NUL bytes into argv words.
 * The harness (an agent's hook) passes untrusted words straight through. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../sbx-run/options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        char *buf = malloc(size + 1);
        char *argv[130];
        struct sbx_options o;
        struct sbx_error e = { 0 };
        int argc = 0;

        if (!buf)
                return 0;
        memcpy(buf, data, size);
        buf[size] = '\0';
        argv[argc++] = "sbx-run";
        for (size_t i = 0; i < size && argc < 128;) {
                argv[argc++] = buf + i;
                i += strlen(buf + i) + 1;
        }
        argv[argc] = NULL;
        if (sbx_options_parse(argc, argv, &o, &e) < 0) {
                char msg[1024];
                sbx_error_format(&e, msg, sizeof(msg));
        }
        sbx_options_done(&o);
        free(buf);
        return 0;
}
