build-clang/obj/sandboxd/request.o: sandboxd/request.c sandboxd/request.h \
  sandboxd/../lib/error.h sandboxd/../lib/strv.h \
  sandboxd/../policy/options.h policy/../lib/error.h \
  policy/../lib/plan.h lib/error.h lib/netrule.h lib/strv.h \
  sandboxd/../lib/cleanup.h sandboxd/../policy/profile.h \
  policy/../lib/strv.h policy/../cmdpolicy/commands.h \
  cmdpolicy/../lib/strv.h policy/git.h policy/../lib/caller.h \
  policy/../lib/jail.h lib/applied.h lib/plan.h lib/seccomp.h lib/tier.h \
  lib/probe.h lib/validation.h policy/validator.h \
  policy/../lib/validation.h policy/yaml.h

sandboxd/request.h:

sandboxd/../lib/error.h:

sandboxd/../lib/strv.h:

sandboxd/../policy/options.h:

policy/../lib/error.h:

policy/../lib/plan.h:

lib/error.h:

lib/netrule.h:

lib/strv.h:

sandboxd/../lib/cleanup.h:

sandboxd/../policy/profile.h:

policy/../lib/strv.h:

policy/../cmdpolicy/commands.h:

cmdpolicy/../lib/strv.h:

policy/git.h:

policy/../lib/caller.h:

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
