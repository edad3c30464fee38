build-clang/obj/lib/egress-dns.o: lib/egress-dns.c lib/cleanup.h \
  lib/dns.h lib/synth.h lib/egress-int.h lib/egress.h lib/error.h \
  lib/plan.h lib/netrule.h lib/strv.h lib/sync.h lib/sniff.h lib/ssrf.h

lib/cleanup.h:

lib/dns.h:

lib/synth.h:

lib/egress-int.h:

lib/egress.h:

lib/error.h:

lib/plan.h:

lib/netrule.h:

lib/strv.h:

lib/sync.h:

lib/sniff.h:

lib/ssrf.h:
