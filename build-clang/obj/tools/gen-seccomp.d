build-clang/obj/tools/gen-seccomp.o: tools/gen-seccomp.c \
  tools/../lib/seccomp.h lib/error.h

tools/../lib/seccomp.h:

lib/error.h:
