build-clang/obj/lib/egress-relay.o: lib/egress-relay.c lib/egress-conn.h \
  lib/egress-int.h lib/egress.h lib/error.h lib/plan.h lib/netrule.h \
  lib/strv.h lib/sync.h lib/sniff.h lib/ssrf.h lib/synth.h

lib/egress-conn.h:

lib/egress-int.h:

lib/egress.h:

lib/error.h:

lib/plan.h:

lib/netrule.h:

lib/strv.h:

lib/sync.h:

lib/sniff.h:

lib/ssrf.h:

lib/synth.h:
