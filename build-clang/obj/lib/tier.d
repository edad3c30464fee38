build-clang/obj/lib/tier.o: lib/tier.c lib/tier.h lib/plan.h lib/error.h \
  lib/netrule.h lib/strv.h lib/probe.h lib/cleanup.h lib/json.h

lib/tier.h:

lib/plan.h:

lib/error.h:

lib/netrule.h:

lib/strv.h:

lib/probe.h:

lib/cleanup.h:

lib/json.h:
