build-clang/obj/lib/synth.o: lib/synth.c lib/hash.h lib/netrule.h \
  lib/error.h lib/synth.h

lib/hash.h:

lib/netrule.h:

lib/error.h:

lib/synth.h:
