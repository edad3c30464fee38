build-clang/obj/lib/seccomp-apply.o: lib/seccomp-apply.c lib/seccomp.h \
  lib/error.h lib/cleanup.h

lib/seccomp.h:

lib/error.h:

lib/cleanup.h:
