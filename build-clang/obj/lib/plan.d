build-clang/obj/lib/plan.o: lib/plan.c lib/plan.h lib/error.h \
  lib/netrule.h lib/strv.h lib/cleanup.h lib/json.h

lib/plan.h:

lib/error.h:

lib/netrule.h:

lib/strv.h:

lib/cleanup.h:

lib/json.h:
