build-clang/obj/sandboxd/intake.o: sandboxd/intake.c \
  sandboxd/../lib/cleanup.h sandboxd/intake.h sandboxd/daemon.h \
  sandboxd/../lib/audit.h lib/error.h lib/jail.h lib/applied.h \
  lib/plan.h lib/netrule.h lib/strv.h lib/seccomp.h lib/tier.h \
  lib/probe.h lib/validation.h sandboxd/../lib/busapi.h \
  sandboxd/config.h sandboxd/../lib/probe.h sandboxd/../policy/profile.h \
  policy/../lib/plan.h policy/../lib/strv.h \
  policy/../cmdpolicy/commands.h cmdpolicy/../lib/strv.h policy/git.h \
  policy/../lib/caller.h policy/../lib/error.h policy/../lib/jail.h \
  policy/validator.h policy/../lib/validation.h policy/yaml.h \
  sandboxd/../policy/site.h policy/../lib/netrule.h sandboxd/identity.h \
  sandboxd/../lib/plan.h sandboxd/sandbox.h sandboxd/../lib/error.h \
  sandboxd/../lib/jail.h sandboxd/../lib/tier.h sandboxd/log.h \
  sandboxd/request.h sandboxd/../lib/strv.h sandboxd/../policy/options.h

sandboxd/../lib/cleanup.h:

sandboxd/intake.h:

sandboxd/daemon.h:

sandboxd/../lib/audit.h:

lib/error.h:

lib/jail.h:

lib/applied.h:

lib/plan.h:

lib/netrule.h:

lib/strv.h:

lib/seccomp.h:

lib/tier.h:

lib/probe.h:

lib/validation.h:

sandboxd/../lib/busapi.h:

sandboxd/config.h:

sandboxd/../lib/probe.h:

sandboxd/../policy/profile.h:

policy/../lib/plan.h:

policy/../lib/strv.h:

policy/../cmdpolicy/commands.h:

cmdpolicy/../lib/strv.h:

policy/git.h:

policy/../lib/caller.h:

policy/../lib/error.h:

policy/../lib/jail.h:

policy/validator.h:

policy/../lib/validation.h:

policy/yaml.h:

sandboxd/../policy/site.h:

policy/../lib/netrule.h:

sandboxd/identity.h:

sandboxd/../lib/plan.h:

sandboxd/sandbox.h:

sandboxd/../lib/error.h:

sandboxd/../lib/jail.h:

sandboxd/../lib/tier.h:

sandboxd/log.h:

sandboxd/request.h:

sandboxd/../lib/strv.h:

sandboxd/../policy/options.h:
