build-clang/obj/lib/audit.o: lib/audit.c lib/audit.h lib/error.h \
  lib/jail.h lib/applied.h lib/plan.h lib/netrule.h lib/strv.h \
  lib/seccomp.h lib/tier.h lib/probe.h lib/validation.h lib/auditfile.h \
  lib/cleanup.h lib/json.h

lib/audit.h:

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

lib/auditfile.h:

lib/cleanup.h:

lib/json.h:
