build-clang/obj/lib/etcview.o: lib/etcview.c lib/etcview.h lib/error.h \
  lib/plan.h lib/netrule.h lib/strv.h lib/cleanup.h

lib/etcview.h:

lib/error.h:

lib/plan.h:

lib/netrule.h:

lib/strv.h:

lib/cleanup.h:
