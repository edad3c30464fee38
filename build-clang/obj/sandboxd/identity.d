build-clang/obj/sandboxd/identity.o: sandboxd/identity.c \
  sandboxd/../lib/cleanup.h sandboxd/identity.h sandboxd/../lib/plan.h \
  lib/error.h lib/netrule.h lib/strv.h

sandboxd/../lib/cleanup.h:

sandboxd/identity.h:

sandboxd/../lib/plan.h:

lib/error.h:

lib/netrule.h:

lib/strv.h:
