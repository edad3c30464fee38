build-clang/obj/sbx-run/options.o: sbx-run/options.c sbx-run/options.h \
  sbx-run/../lib/error.h sbx-run/../lib/tier.h lib/plan.h lib/error.h \
  lib/netrule.h lib/strv.h lib/probe.h sbx-run/../policy/options.h \
  policy/../lib/error.h policy/../lib/plan.h sbx-run/../lib/cleanup.h \
  sbx-run/../lib/parse.h sbx-run/../lib/plan.h

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

sbx-run/../lib/cleanup.h:

sbx-run/../lib/parse.h:

sbx-run/../lib/plan.h:
