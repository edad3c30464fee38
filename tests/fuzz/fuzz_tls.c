/* SPDX-License-Identifier: MIT */
/* Fuzzes the TLS ClientHello sniffer (lib/sniff).  Besides crashes and reads past the
 * buffer (ASan), it aborts on a broken promise: a result outside the four codes; a
 * refusal without its reason; an OK whose record_len is past the input or the limit,
 * whose server name is not a normalised host name or is an address, or that is not
 * OK again on exactly its records and MORE one byte short of them; an input whose
 * prefix is BAD or TOO_BIG while the whole is not (the broker must be able to refuse
 * at the first bad byte and never change its mind). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/netrule.h"
#include "../../lib/sniff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_name(const char *sni)
{
        char n[SBX_NETNAME_MAX + 1];
        const char *why = NULL;
        struct in6_addr a6;

        if (sbx_netname_normalize(sni, n, &why) < 0 || strcmp(n, sni) != 0)
                abort();
        if (inet_pton(AF_INET, sni, &a6) == 1 || inet_pton(AF_INET6, sni, &a6) == 1)
                abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        struct sbx_tls_hello h, p;
        int r = sbx_sniff_tls(data, size, &h), rp;
        size_t cut = size ? data[0] % size : 0;

        if (r < SBX_SNIFF_TOO_BIG || r > SBX_SNIFF_OK)
                abort();
        if ((r == SBX_SNIFF_BAD || r == SBX_SNIFF_TOO_BIG) && !h.why)
                abort();
        if (h.multiple_names && r != SBX_SNIFF_BAD)
                abort();
        if (r == SBX_SNIFF_OK) {
                if (h.record_len == 0 || h.record_len > size || h.record_len > SBX_SNIFF_TLS_MAX)
                        abort();
                if (h.has_sni != (h.sni[0] != '\0'))
                        abort();
                if (h.has_sni)
                        check_name(h.sni);
                if (sbx_sniff_tls(data, h.record_len, &p) != SBX_SNIFF_OK || p.record_len != h.record_len ||
                    strcmp(p.sni, h.sni) != 0 || p.has_ech != h.has_ech)
                        abort();
                if (sbx_sniff_tls(data, h.record_len - 1, &p) != SBX_SNIFF_MORE)
                        abort();
        }
        /* A prefix's verdict, when final, is the whole input's. */
        rp = sbx_sniff_tls(data, cut, &p);
        if (rp != SBX_SNIFF_MORE && rp != r)
                abort();
        if (r == SBX_SNIFF_OK && rp == SBX_SNIFF_OK && p.record_len != h.record_len)
                abort();
        return 0;
}
