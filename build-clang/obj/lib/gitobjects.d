build-clang/obj/lib/gitobjects.o: lib/gitobjects.c lib/gitobjects.h \
  lib/error.h lib/cleanup.h

lib/gitobjects.h:

lib/error.h:

lib/cleanup.h:
