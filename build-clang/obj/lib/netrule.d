build-clang/obj/lib/netrule.o: lib/netrule.c lib/netrule.h lib/error.h \
  lib/json.h lib/ssrf.h

lib/netrule.h:

lib/error.h:

lib/json.h:

lib/ssrf.h:
