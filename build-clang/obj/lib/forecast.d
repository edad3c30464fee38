build-clang/obj/lib/forecast.o: lib/forecast.c lib/plan.h lib/error.h \
  lib/netrule.h lib/strv.h lib/cgroup.h lib/applied.h lib/landlock.h \
  lib/mount.h

lib/plan.h:

lib/error.h:

lib/netrule.h:

lib/strv.h:

lib/cgroup.h:

lib/applied.h:

lib/landlock.h:

lib/mount.h:
