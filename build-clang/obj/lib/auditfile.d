build-clang/obj/lib/auditfile.o: lib/auditfile.c lib/auditfile.h \
  lib/error.h lib/cleanup.h lib/json.h

lib/auditfile.h:

lib/error.h:

lib/cleanup.h:

lib/json.h:
