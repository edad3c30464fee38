build-clang/obj/gen/profiles_builtin.o: \
  build-clang/gen/profiles_builtin.c \
  build-clang/gen/../../policy/profile.h policy/../lib/plan.h \
  lib/error.h lib/netrule.h lib/strv.h policy/../lib/strv.h \
  policy/../cmdpolicy/commands.h policy/../cmdpolicy/../lib/strv.h \
  policy/git.h policy/../lib/caller.h policy/../lib/error.h \
  policy/../lib/jail.h lib/applied.h lib/plan.h lib/seccomp.h lib/tier.h \
  lib/probe.h lib/validation.h policy/validator.h \
  policy/../lib/validation.h policy/yaml.h

build-clang/gen/../../policy/profile.h:

policy/../lib/plan.h:

lib/error.h:

lib/netrule.h:

lib/strv.h:

policy/../lib/strv.h:

policy/../cmdpolicy/commands.h:

policy/../cmdpolicy/../lib/strv.h:

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
