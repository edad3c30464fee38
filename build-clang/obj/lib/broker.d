build-clang/obj/lib/broker.o: lib/broker.c lib/broker.h lib/plan.h \
  lib/error.h lib/netrule.h lib/strv.h lib/cleanup.h

lib/broker.h:

lib/plan.h:

lib/error.h:

lib/netrule.h:

lib/strv.h:

lib/cleanup.h:
