/* SPDX-License-Identifier: MIT */
/* Fuzzes the SOCKS5 sniffers (lib/sniff): the greeting, then the request after it (as
 * the broker reads them), and the request alone.  Besides crashes and reads past the
 * buffer, it aborts on: a result outside the four codes; @used past the input; an OK
 * request with port 0, a name that is not a normalised host name, an address whose
 * sockaddr does not hold the port and the text; a prefix whose final verdict differs
 * from the whole input's. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/netrule.h"
#include "../../lib/sniff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_request(const uint8_t *data, size_t size)
{
        struct sbx_socks_req q, p;
        int r = sbx_sniff_socks_request(data, size, &q), rp;
        size_t cut = size ? data[size - 1] % size : 0;

        if (r != SBX_SNIFF_MORE && r != SBX_SNIFF_OK && r != SBX_SNIFF_BAD)
                abort();
        if (r == SBX_SNIFF_BAD && !q.why)
                abort();
        if (r == SBX_SNIFF_OK) {
                char n[SBX_NETNAME_MAX + 1], text[INET6_ADDRSTRLEN];
                const char *why;

                if (q.used > size || q.used < 8 || q.port == 0 || q.cmd != data[1])
                        abort();
                if (q.is_name) {
                        if (q.addr.ss_family != 0 || sbx_netname_normalize(q.host, n, &why) < 0 || strcmp(n, q.host))
                                abort();
                } else if (q.addr.ss_family == AF_INET) {
                        const struct sockaddr_in *in = (const struct sockaddr_in *)&q.addr;
                        if (ntohs(in->sin_port) != q.port || !inet_ntop(AF_INET, &in->sin_addr, text, sizeof(text)) ||
                            strcmp(text, q.host))
                                abort();
                } else if (q.addr.ss_family == AF_INET6) {
                        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)&q.addr;
                        if (ntohs(in6->sin6_port) != q.port ||
                            !inet_ntop(AF_INET6, &in6->sin6_addr, text, sizeof(text)) || strcmp(text, q.host))
                                abort();
                } else
                        abort();
                if (sbx_sniff_socks_request(data, q.used - 1, &p) != SBX_SNIFF_MORE)
                        abort();
        }
        rp = sbx_sniff_socks_request(data, cut, &p);
        if (rp != SBX_SNIFF_MORE && rp != r)
                abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        size_t used = 0;
        int r = sbx_sniff_socks_greeting(data, size, &used);

        if (r != SBX_SNIFF_MORE && r != SBX_SNIFF_OK && r != SBX_SNIFF_BAD)
                abort();
        if (r == SBX_SNIFF_OK) {
                if (used < 3 || used > size || !memchr(data + 2, 0, used - 2))
                        abort();
                check_request(data + used, size - used);
        }
        check_request(data, size);
        return 0;
}
