build-clang/obj/lib/egress-factory.o: lib/egress-factory.c lib/cleanup.h \
  lib/egress-int.h lib/egress.h lib/error.h lib/plan.h lib/netrule.h \
  lib/strv.h lib/sync.h lib/sniff.h lib/ssrf.h lib/synth.h

lib/cleanup.h:

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
