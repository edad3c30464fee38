build-clang/obj/lib/validate.o: lib/validate.c lib/validate.h \
  lib/caller.h lib/error.h lib/plan.h lib/netrule.h lib/strv.h \
  lib/cleanup.h lib/etcview.h lib/path.h lib/probe.h

lib/validate.h:

lib/caller.h:

lib/error.h:

lib/plan.h:

lib/netrule.h:

lib/strv.h:

lib/cleanup.h:

lib/etcview.h:

lib/path.h:

lib/probe.h:
