build-clang/obj/lib/mountpoint.o: lib/mountpoint.c lib/validate.h \
  lib/caller.h lib/error.h lib/plan.h lib/netrule.h lib/strv.h \
  lib/cleanup.h lib/path.h

lib/validate.h:

lib/caller.h:

lib/error.h:

lib/plan.h:

lib/netrule.h:

lib/strv.h:

lib/cleanup.h:

lib/path.h:
