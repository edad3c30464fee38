build-clang/obj/lib/init.o: lib/init.c lib/init.h lib/broker.h lib/plan.h \
  lib/error.h lib/netrule.h lib/strv.h lib/nonet.h lib/sync.h

lib/init.h:

lib/broker.h:

lib/plan.h:

lib/error.h:

lib/netrule.h:

lib/strv.h:

lib/nonet.h:

lib/sync.h:
