build-clang/obj/sandboxd/sandbox.o: sandboxd/sandbox.c sandboxd/sandbox.h \
  sandboxd/../lib/audit.h lib/error.h lib/jail.h lib/applied.h \
  lib/plan.h lib/netrule.h lib/strv.h lib/seccomp.h lib/tier.h \
  lib/probe.h lib/validation.h sandboxd/../lib/error.h \
  sandboxd/../lib/jail.h sandboxd/../lib/tier.h

sandboxd/sandbox.h:

sandboxd/../lib/audit.h:

lib/error.h:

lib/jail.h:

lib/applied.h:

lib/plan.h:

lib/netrule.h:

lib/strv.h:

lib/seccomp.h:

lib/tier.h:

lib/probe.h:

lib/validation.h:

sandboxd/../lib/error.h:

sandboxd/../lib/jail.h:

sandboxd/../lib/tier.h:
