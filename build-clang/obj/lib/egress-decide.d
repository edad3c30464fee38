build-clang/obj/lib/egress-decide.o: lib/egress-decide.c lib/egress-int.h \
  lib/egress.h lib/error.h lib/plan.h lib/netrule.h lib/strv.h \
  lib/sync.h lib/sniff.h lib/ssrf.h lib/synth.h

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
