build-clang/obj/sandboxd/options.o: sandboxd/options.c sandboxd/options.h \
  sandboxd/../lib/error.h

sandboxd/options.h:

sandboxd/../lib/error.h:
