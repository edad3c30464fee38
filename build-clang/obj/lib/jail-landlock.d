build-clang/obj/lib/jail-landlock.o: lib/jail-landlock.c \
  lib/jail-landlock.h lib/cgroup.h lib/applied.h lib/error.h lib/plan.h \
  lib/netrule.h lib/strv.h lib/seccomp.h lib/cleanup.h lib/exec.h \
  lib/landlock.h lib/privs.h lib/sync.h

lib/jail-landlock.h:

lib/cgroup.h:

lib/applied.h:

lib/error.h:

lib/plan.h:

lib/netrule.h:

lib/strv.h:

lib/seccomp.h:

lib/cleanup.h:

lib/exec.h:

lib/landlock.h:

lib/privs.h:

lib/sync.h:
