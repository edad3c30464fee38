build-clang/obj/sbx-run/summary.o: sbx-run/summary.c sbx-run/summary.h \
  sbx-run/../lib/error.h sbx-run/../lib/jail.h lib/applied.h lib/error.h \
  lib/plan.h lib/netrule.h lib/strv.h lib/seccomp.h lib/tier.h \
  lib/probe.h lib/validation.h sbx-run/../lib/tier.h \
  sbx-run/../lib/json.h

sbx-run/summary.h:

sbx-run/../lib/error.h:

sbx-run/../lib/jail.h:

lib/applied.h:

lib/error.h:

lib/plan.h:

lib/netrule.h:

lib/strv.h:

lib/seccomp.h:

lib/tier.h:

lib/probe.h:

lib/validation.h:

sbx-run/../lib/tier.h:

sbx-run/../lib/json.h:
