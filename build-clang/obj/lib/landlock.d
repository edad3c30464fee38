build-clang/obj/lib/landlock.o: lib/landlock.c lib/landlock.h \
  lib/applied.h lib/error.h lib/plan.h lib/netrule.h lib/strv.h \
  lib/cleanup.h

lib/landlock.h:

lib/applied.h:

lib/error.h:

lib/plan.h:

lib/netrule.h:

lib/strv.h:

lib/cleanup.h:
