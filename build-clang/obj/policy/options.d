build-clang/obj/policy/options.o: policy/options.c policy/options.h \
  policy/../lib/error.h policy/../lib/plan.h lib/error.h lib/netrule.h \
  lib/strv.h policy/../lib/cleanup.h policy/../lib/parse.h

policy/options.h:

policy/../lib/error.h:

policy/../lib/plan.h:

lib/error.h:

lib/netrule.h:

lib/strv.h:

policy/../lib/cleanup.h:

policy/../lib/parse.h:
