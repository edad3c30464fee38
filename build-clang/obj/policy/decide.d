build-clang/obj/policy/decide.o: policy/decide.c policy/decide.h \
  policy/../lib/caller.h lib/error.h policy/../lib/error.h \
  policy/../lib/seccomp.h policy/../lib/tier.h lib/plan.h lib/netrule.h \
  lib/strv.h lib/probe.h policy/../cmdpolicy/commands.h \
  cmdpolicy/../lib/strv.h policy/options.h policy/../lib/plan.h \
  policy/profile.h policy/../lib/strv.h policy/git.h \
  policy/../lib/jail.h lib/applied.h lib/seccomp.h lib/tier.h \
  lib/validation.h policy/validator.h policy/../lib/validation.h \
  policy/yaml.h policy/site.h policy/../lib/netrule.h \
  policy/../lib/validate.h lib/caller.h policy/resolve.h

policy/decide.h:

policy/../lib/caller.h:

lib/error.h:

policy/../lib/error.h:

policy/../lib/seccomp.h:

policy/../lib/tier.h:

lib/plan.h:

lib/netrule.h:

lib/strv.h:

lib/probe.h:

policy/../cmdpolicy/commands.h:

cmdpolicy/../lib/strv.h:

policy/options.h:

policy/../lib/plan.h:

policy/profile.h:

policy/../lib/strv.h:

policy/git.h:

policy/../lib/jail.h:

lib/applied.h:

lib/seccomp.h:

lib/tier.h:

lib/validation.h:

policy/validator.h:

policy/../lib/validation.h:

policy/yaml.h:

policy/site.h:

policy/../lib/netrule.h:

policy/../lib/validate.h:

lib/caller.h:

policy/resolve.h:
