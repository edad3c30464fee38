build-clang/obj/lib/nonet.o: lib/nonet.c lib/nonet.h lib/error.h \
  lib/cleanup.h lib/egress.h lib/plan.h lib/netrule.h lib/strv.h \
  lib/sync.h

lib/nonet.h:

lib/error.h:

lib/cleanup.h:

lib/egress.h:

lib/plan.h:

lib/netrule.h:

lib/strv.h:

lib/sync.h:
