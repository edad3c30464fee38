build-clang/obj/policy/gitguard.o: policy/gitguard.c \
  policy/../lib/cleanup.h policy/../lib/path.h lib/error.h \
  policy/git-int.h policy/git.h policy/../lib/caller.h \
  policy/../lib/error.h policy/../lib/jail.h lib/applied.h lib/plan.h \
  lib/netrule.h lib/strv.h lib/seccomp.h lib/tier.h lib/probe.h \
  lib/validation.h policy/../lib/plan.h policy/gitfmt.h \
  policy/hostconfig.h policy/profile.h policy/../lib/strv.h \
  policy/../cmdpolicy/commands.h cmdpolicy/../lib/strv.h \
  policy/validator.h policy/../lib/validation.h policy/yaml.h

policy/../lib/cleanup.h:

policy/../lib/path.h:

lib/error.h:

policy/git-int.h:

policy/git.h:

policy/../lib/caller.h:

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

policy/hostconfig.h:

policy/profile.h:

policy/../lib/strv.h:

policy/../cmdpolicy/commands.h:

cmdpolicy/../lib/strv.h:

policy/validator.h:

policy/../lib/validation.h:

policy/yaml.h:
