build-clang/obj/policy/resolve.o: policy/resolve.c \
  policy/../lib/cleanup.h policy/../lib/broker.h lib/plan.h lib/error.h \
  lib/netrule.h lib/strv.h policy/../lib/egress.h lib/sync.h \
  policy/../lib/json.h policy/../lib/tier.h lib/probe.h policy/profile.h \
  policy/../lib/plan.h policy/../lib/strv.h \
  policy/../cmdpolicy/commands.h cmdpolicy/../lib/strv.h policy/git.h \
  policy/../lib/caller.h policy/../lib/error.h policy/../lib/jail.h \
  lib/applied.h lib/seccomp.h lib/tier.h lib/validation.h \
  policy/validator.h policy/../lib/validation.h policy/yaml.h \
  policy/resolve.h policy/../lib/seccomp.h policy/options.h

policy/../lib/cleanup.h:

policy/../lib/broker.h:

lib/plan.h:

lib/error.h:

lib/netrule.h:

lib/strv.h:

policy/../lib/egress.h:

lib/sync.h:

policy/../lib/json.h:

policy/../lib/tier.h:

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

policy/resolve.h:

policy/../lib/seccomp.h:

policy/options.h:
