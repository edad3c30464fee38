build-clang/obj/sbx-run/client.o: sbx-run/client.c sbx-run/client.h \
  sbx-run/options.h sbx-run/../lib/error.h sbx-run/../lib/tier.h \
  lib/plan.h lib/error.h lib/netrule.h lib/strv.h lib/probe.h \
  sbx-run/../policy/options.h policy/../lib/error.h policy/../lib/plan.h \
  sbx-run/../lib/busapi.h lib/jail.h lib/applied.h lib/seccomp.h \
  lib/tier.h lib/validation.h sbx-run/../lib/cleanup.h \
  sbx-run/../lib/path.h sbx-run/summary.h sbx-run/../lib/jail.h

sbx-run/client.h:

sbx-run/options.h:

sbx-run/../lib/error.h:

sbx-run/../lib/tier.h:

lib/plan.h:

lib/error.h:

lib/netrule.h:

lib/strv.h:

lib/probe.h:

sbx-run/../policy/options.h:

policy/../lib/error.h:

policy/../lib/plan.h:

sbx-run/../lib/busapi.h:

lib/jail.h:

lib/applied.h:

lib/seccomp.h:

lib/tier.h:

lib/validation.h:

sbx-run/../lib/cleanup.h:

sbx-run/../lib/path.h:

sbx-run/summary.h:

sbx-run/../lib/jail.h:
