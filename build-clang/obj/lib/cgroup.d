build-clang/obj/lib/cgroup.o: lib/cgroup.c lib/cgroup.h lib/applied.h \
  lib/error.h lib/plan.h lib/netrule.h lib/strv.h lib/cleanup.h

lib/cgroup.h:

lib/applied.h:

lib/error.h:

lib/plan.h:

lib/netrule.h:

lib/strv.h:

lib/cleanup.h:
