build-clang/obj/lib/path.o: lib/path.c lib/path.h lib/error.h \
  lib/cleanup.h

lib/path.h:

lib/error.h:

lib/cleanup.h:
