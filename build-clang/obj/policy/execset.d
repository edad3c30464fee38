build-clang/obj/policy/execset.o: policy/execset.c \
  policy/../lib/cleanup.h policy/profile.h policy/../lib/plan.h \
  lib/error.h lib/netrule.h lib/strv.h policy/../lib/strv.h \
  policy/../cmdpolicy/commands.h cmdpolicy/../lib/strv.h policy/git.h \
  policy/../lib/caller.h policy/../lib/error.h policy/../lib/jail.h \
  lib/applied.h lib/plan.h lib/seccomp.h lib/tier.h lib/probe.h \
  lib/validation.h policy/validator.h policy/../lib/validation.h \
  policy/yaml.h policy/resolve.h policy/../lib/seccomp.h \
  policy/options.h

policy/../lib/cleanup.h:

policy/profile.h:

policy/../lib/plan.h:

lib/error.h:

lib/netrule.h:

lib/strv.h:

policy/../lib/strv.h:

policy/../cmdpolicy/commands.h:

cmdpolicy/../lib/strv.h:

policy/git.h:

policy/../lib/caller.h:

policy/../lib/error.h:

policy/../lib/jail.h:

lib/applied.h:

lib/plan.h:

lib/seccomp.h:

lib/tier.h:

lib/probe.h:

lib/validation.h:

policy/validator.h:

policy/../lib/validation.h:

policy/yaml.h:

policy/resolve.h:

policy/../lib/seccomp.h:

policy/options.h:
