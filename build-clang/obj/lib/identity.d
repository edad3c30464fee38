build-clang/obj/lib/identity.o: lib/identity.c lib/identity.h lib/error.h \
  lib/plan.h lib/netrule.h lib/strv.h lib/applied.h lib/cleanup.h \
  lib/privs.h lib/sync.h

lib/identity.h:

lib/error.h:

lib/plan.h:

lib/netrule.h:

lib/strv.h:

lib/applied.h:

lib/cleanup.h:

lib/privs.h:

lib/sync.h:
