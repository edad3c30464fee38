build-clang/obj/lib/sniff.o: lib/sniff.c lib/sniff.h lib/netrule.h \
  lib/error.h

lib/sniff.h:

lib/netrule.h:

lib/error.h:
