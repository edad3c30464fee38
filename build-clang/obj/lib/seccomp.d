build-clang/obj/lib/seccomp.o: lib/seccomp.c lib/seccomp.h lib/error.h \
  lib/cleanup-seccomp.h lib/cleanup.h lib/parse.h

lib/seccomp.h:

lib/error.h:

lib/cleanup-seccomp.h:

lib/cleanup.h:

lib/parse.h:
