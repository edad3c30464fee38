build-clang/obj/lib/caller.o: lib/caller.c lib/caller.h lib/error.h \
  lib/cleanup.h lib/gitobjects.h lib/path.h

lib/caller.h:

lib/error.h:

lib/cleanup.h:

lib/gitobjects.h:

lib/path.h:
