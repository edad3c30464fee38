build-clang/obj/lib/jail.o: lib/jail.c lib/jail.h lib/applied.h \
  lib/error.h lib/plan.h lib/netrule.h lib/strv.h lib/seccomp.h \
  lib/tier.h lib/probe.h lib/validation.h lib/cgroup.h lib/cleanup.h \
  lib/egress.h lib/sync.h lib/exec.h lib/identity.h lib/init.h \
  lib/broker.h lib/nonet.h lib/jail-landlock.h lib/landlock.h \
  lib/mount.h lib/net.h lib/privs.h

lib/jail.h:

lib/applied.h:

lib/error.h:

lib/plan.h:

lib/netrule.h:

lib/strv.h:

lib/seccomp.h:

lib/tier.h:

lib/probe.h:

lib/validation.h:

lib/cgroup.h:

lib/cleanup.h:

lib/egress.h:

lib/sync.h:

lib/exec.h:

lib/identity.h:

lib/init.h:

lib/broker.h:

lib/nonet.h:

lib/jail-landlock.h:

lib/landlock.h:

lib/mount.h:

lib/net.h:

lib/privs.h:
