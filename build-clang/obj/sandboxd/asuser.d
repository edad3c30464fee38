build-clang/obj/sandboxd/asuser.o: sandboxd/asuser.c \
  sandboxd/../lib/cleanup.h sandboxd/asuser.h sandboxd/../lib/caller.h \
  lib/error.h sandboxd/../lib/error.h

sandboxd/../lib/cleanup.h:

sandboxd/asuser.h:

sandboxd/../lib/caller.h:

lib/error.h:

sandboxd/../lib/error.h:
