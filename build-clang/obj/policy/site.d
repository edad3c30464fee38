build-clang/obj/policy/site.o: policy/site.c policy/site.h \
  policy/../lib/netrule.h lib/error.h policy/../lib/strv.h \
  policy/../cmdpolicy/commands.h cmdpolicy/../lib/strv.h \
  policy/validator.h policy/../lib/error.h policy/../lib/validation.h \
  policy/yaml.h policy/../lib/cleanup.h policy/../lib/parse.h \
  policy/../lib/tier.h lib/plan.h lib/netrule.h lib/strv.h lib/probe.h \
  policy/options.h policy/../lib/plan.h policy/profile.h policy/git.h \
  policy/../lib/caller.h policy/../lib/jail.h lib/applied.h \
  lib/seccomp.h lib/tier.h lib/validation.h policy/schema-int.h

policy/site.h:

policy/../lib/netrule.h:

lib/error.h:

policy/../lib/strv.h:

policy/../cmdpolicy/commands.h:

cmdpolicy/../lib/strv.h:

policy/validator.h:

policy/../lib/error.h:

policy/../lib/validation.h:

policy/yaml.h:

policy/../lib/cleanup.h:

policy/../lib/parse.h:

policy/../lib/tier.h:

lib/plan.h:

lib/netrule.h:

lib/strv.h:

lib/probe.h:

policy/options.h:

policy/../lib/plan.h:

policy/profile.h:

policy/git.h:

policy/../lib/caller.h:

policy/../lib/jail.h:

lib/applied.h:

lib/seccomp.h:

lib/tier.h:

lib/validation.h:

policy/schema-int.h:
