build-clang/obj/lib/mount.o: lib/mount.c lib/mount.h lib/error.h \
  lib/plan.h lib/netrule.h lib/strv.h lib/cleanup.h

lib/mount.h:

lib/error.h:

lib/plan.h:

lib/netrule.h:

lib/strv.h:

lib/cleanup.h:
