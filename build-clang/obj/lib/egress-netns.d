build-clang/obj/lib/egress-netns.o: lib/egress-netns.c lib/egress.h \
  lib/error.h lib/plan.h lib/netrule.h lib/strv.h lib/sync.h \
  lib/cleanup.h lib/net.h

lib/egress.h:

lib/error.h:

lib/plan.h:

lib/netrule.h:

lib/strv.h:

lib/sync.h:

lib/cleanup.h:

lib/net.h:
