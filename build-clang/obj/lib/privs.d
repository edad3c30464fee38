build-clang/obj/lib/privs.o: lib/privs.c lib/privs.h lib/applied.h \
  lib/error.h lib/plan.h lib/netrule.h lib/strv.h lib/cleanup-cap.h \
  lib/cleanup.h

lib/privs.h:

lib/applied.h:

lib/error.h:

lib/plan.h:

lib/netrule.h:

lib/strv.h:

lib/cleanup-cap.h:

lib/cleanup.h:
