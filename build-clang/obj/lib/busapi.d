build-clang/obj/lib/busapi.o: lib/busapi.c lib/busapi.h lib/jail.h \
  lib/applied.h lib/error.h lib/plan.h lib/netrule.h lib/strv.h \
  lib/seccomp.h lib/tier.h lib/probe.h lib/validation.h

lib/busapi.h:

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
