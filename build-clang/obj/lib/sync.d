build-clang/obj/lib/sync.o: lib/sync.c lib/sync.h lib/error.h

lib/sync.h:

lib/error.h:
