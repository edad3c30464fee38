build-clang/obj/lib/defaults.o: lib/defaults.c lib/plan.h lib/error.h \
  lib/netrule.h lib/strv.h

lib/plan.h:

lib/error.h:

lib/netrule.h:

lib/strv.h:
