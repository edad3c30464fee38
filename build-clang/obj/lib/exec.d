build-clang/obj/lib/exec.o: lib/exec.c lib/exec.h lib/error.h lib/plan.h \
  lib/netrule.h lib/strv.h

lib/exec.h:

lib/error.h:

lib/plan.h:

lib/netrule.h:

lib/strv.h:
