build-clang/obj/lib/egress-report.o: lib/egress-report.c lib/auditfile.h \
  lib/error.h lib/cleanup.h lib/egress-int.h lib/egress.h lib/plan.h \
  lib/netrule.h lib/strv.h lib/sync.h lib/sniff.h lib/ssrf.h lib/synth.h \
  lib/json.h

lib/auditfile.h:

lib/error.h:

lib/cleanup.h:

lib/egress-int.h:

lib/egress.h:

lib/plan.h:

lib/netrule.h:

lib/strv.h:

lib/sync.h:

lib/sniff.h:

lib/ssrf.h:

lib/synth.h:

lib/json.h:
