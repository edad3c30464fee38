build-clang/obj/policy/gitident.o: policy/gitident.c \
  policy/../lib/cleanup.h policy/git-int.h policy/git.h \
  policy/../lib/caller.h lib/error.h policy/../lib/error.h \
  policy/../lib/jail.h lib/applied.h lib/plan.h lib/netrule.h lib/strv.h \
  lib/seccomp.h lib/tier.h lib/probe.h lib/validation.h \
  policy/../lib/plan.h policy/gitfmt.h policy/profile.h \
  policy/../lib/strv.h policy/../cmdpolicy/commands.h \
  cmdpolicy/../lib/strv.h policy/validator.h policy/../lib/validation.h \
  policy/yaml.h

policy/../lib/cleanup.h:

policy/git-int.h:

policy/git.h:

policy/../lib/caller.h:

lib/error.h:

policy/../lib/error.h:

policy/../lib/jail.h:

lib/applied.h:

lib/plan.h:

lib/netrule.h:

lib/strv.h:

lib/seccomp.h:

lib/tier.h:

lib/probe.h:

lib/validation.h:

policy/../lib/plan.h:

policy/gitfmt.h:

policy/profile.h:

policy/../lib/strv.h:

policy/../cmdpolicy/commands.h:

cmdpolicy/../lib/strv.h:

policy/validator.h:

policy/../lib/validation.h:

policy/yaml.h:
