build-clang/obj/gen/seccomp_builtin.o: build-clang/gen/seccomp_builtin.c \
  build-clang/gen/../../lib/seccomp.h lib/error.h

build-clang/gen/../../lib/seccomp.h:

lib/error.h:
