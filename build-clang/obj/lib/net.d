build-clang/obj/lib/net.o: lib/net.c lib/net.h lib/error.h lib/cleanup.h

lib/net.h:

lib/error.h:

lib/cleanup.h:
