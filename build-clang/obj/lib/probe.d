build-clang/obj/lib/probe.o: lib/probe.c lib/probe.h lib/cgroup.h \
  lib/applied.h lib/error.h lib/plan.h lib/netrule.h lib/strv.h \
  lib/cleanup-cap.h lib/cleanup.h lib/landlock.h lib/net.h

lib/probe.h:

lib/cgroup.h:

lib/applied.h:

lib/error.h:

lib/plan.h:

lib/netrule.h:

lib/strv.h:

lib/cleanup-cap.h:

lib/cleanup.h:

lib/landlock.h:

lib/net.h:
