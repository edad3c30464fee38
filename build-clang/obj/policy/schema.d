build-clang/obj/policy/schema.o: policy/schema.c policy/../lib/cleanup.h \
  policy/../lib/egress.h lib/error.h lib/plan.h lib/netrule.h lib/strv.h \
  lib/sync.h policy/../lib/parse.h policy/../lib/seccomp.h \
  policy/../lib/tier.h lib/probe.h policy/options.h \
  policy/../lib/error.h policy/../lib/plan.h policy/profile.h \
  policy/../lib/strv.h policy/../cmdpolicy/commands.h \
  cmdpolicy/../lib/strv.h policy/git.h policy/../lib/caller.h \
  policy/../lib/jail.h lib/applied.h lib/seccomp.h lib/tier.h \
  lib/validation.h policy/validator.h policy/../lib/validation.h \
  policy/yaml.h policy/schema.h policy/schema-int.h

policy/../lib/cleanup.h:

policy/../lib/egress.h:

lib/error.h:

lib/plan.h:

lib/netrule.h:

lib/strv.h:

lib/sync.h:

policy/../lib/parse.h:

policy/../lib/seccomp.h:

policy/../lib/tier.h:

lib/probe.h:

policy/options.h:

policy/../lib/error.h:

policy/../lib/plan.h:

policy/profile.h:

policy/../lib/strv.h:

policy/../cmdpolicy/commands.h:

cmdpolicy/../lib/strv.h:

policy/git.h:

policy/../lib/caller.h:

policy/../lib/jail.h:

lib/applied.h:

lib/seccomp.h:

lib/tier.h:

lib/validation.h:

policy/validator.h:

policy/../lib/validation.h:

policy/yaml.h:

policy/schema.h:

policy/schema-int.h:
