build-clang/obj/lib/egress.o: lib/egress.c lib/cleanup-cap.h \
  lib/cleanup.h lib/egress-int.h lib/egress.h lib/error.h lib/plan.h \
  lib/netrule.h lib/strv.h lib/sync.h lib/sniff.h lib/ssrf.h lib/synth.h \
  lib/landlock.h lib/applied.h

lib/cleanup-cap.h:

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

lib/landlock.h:

lib/applied.h:
