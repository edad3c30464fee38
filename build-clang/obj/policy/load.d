build-clang/obj/policy/load.o: policy/load.c policy/../lib/cleanup.h \
  policy/../lib/path.h lib/error.h policy/../lib/tier.h lib/plan.h \
  lib/netrule.h lib/strv.h lib/probe.h policy/profile.h \
  policy/../lib/plan.h policy/../lib/strv.h \
  policy/../cmdpolicy/commands.h cmdpolicy/../lib/strv.h policy/git.h \
  policy/../lib/caller.h policy/../lib/error.h policy/../lib/jail.h \
  lib/applied.h lib/seccomp.h lib/tier.h lib/validation.h \
  policy/validator.h policy/../lib/validation.h policy/yaml.h

policy/../lib/cleanup.h:

policy/../lib/path.h:

lib/error.h:

policy/../lib/tier.h:

lib/plan.h:

lib/netrule.h:

lib/strv.h:

lib/probe.h:

policy/profile.h:

policy/../lib/plan.h:

policy/../lib/strv.h:

policy/../cmdpolicy/commands.h:

cmdpolicy/../lib/strv.h:

policy/git.h:

policy/../lib/caller.h:

policy/../lib/error.h:

policy/../lib/jail.h:

lib/applied.h:

lib/seccomp.h:

lib/tier.h:

lib/validation.h:

policy/validator.h:

policy/../lib/validation.h:

policy/yaml.h:
