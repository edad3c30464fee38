build-clang/obj/lib/spawn.o: lib/spawn.c lib/spawn.h lib/error.h \
  lib/cleanup.h

lib/spawn.h:

lib/error.h:

lib/cleanup.h:
