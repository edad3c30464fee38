build-clang/obj/sandboxd/launch.o: sandboxd/launch.c \
  sandboxd/../lib/cleanup.h sandboxd/../lib/path.h lib/error.h \
  sandboxd/../lib/privs.h lib/applied.h lib/plan.h lib/netrule.h \
  lib/strv.h sandboxd/../lib/probe.h sandboxd/../lib/tier.h lib/probe.h \
  sandboxd/../policy/decide.h policy/../lib/caller.h \
  policy/../lib/error.h policy/../lib/seccomp.h policy/../lib/tier.h \
  policy/../cmdpolicy/commands.h cmdpolicy/../lib/strv.h \
  policy/options.h policy/../lib/plan.h policy/profile.h \
  policy/../lib/strv.h policy/git.h policy/../lib/jail.h lib/seccomp.h \
  lib/tier.h lib/validation.h policy/validator.h \
  policy/../lib/validation.h policy/yaml.h policy/site.h \
  policy/../lib/netrule.h sandboxd/../policy/resolve.h sandboxd/asuser.h \
  sandboxd/../lib/caller.h sandboxd/../lib/error.h sandboxd/launch.h \
  sandboxd/../policy/site.h sandboxd/config.h \
  sandboxd/../policy/profile.h sandboxd/request.h sandboxd/../lib/strv.h \
  sandboxd/../policy/options.h sandboxd/sandbox.h \
  sandboxd/../lib/audit.h lib/jail.h sandboxd/../lib/jail.h

sandboxd/../lib/cleanup.h:

sandboxd/../lib/path.h:

lib/error.h:

sandboxd/../lib/privs.h:

lib/applied.h:

lib/plan.h:

lib/netrule.h:

lib/strv.h:

sandboxd/../lib/probe.h:

sandboxd/../lib/tier.h:

lib/probe.h:

sandboxd/../policy/decide.h:

policy/../lib/caller.h:

policy/../lib/error.h:

policy/../lib/seccomp.h:

policy/../lib/tier.h:

policy/../cmdpolicy/commands.h:

cmdpolicy/../lib/strv.h:

policy/options.h:

policy/../lib/plan.h:

policy/profile.h:

policy/../lib/strv.h:

policy/git.h:

policy/../lib/jail.h:

lib/seccomp.h:

lib/tier.h:

lib/validation.h:

policy/validator.h:

policy/../lib/validation.h:

policy/yaml.h:

policy/site.h:

policy/../lib/netrule.h:

sandboxd/../policy/resolve.h:

sandboxd/asuser.h:

sandboxd/../lib/caller.h:

sandboxd/../lib/error.h:

sandboxd/launch.h:

sandboxd/../policy/site.h:

sandboxd/config.h:

sandboxd/../policy/profile.h:

sandboxd/request.h:

sandboxd/../lib/strv.h:

sandboxd/../policy/options.h:

sandboxd/sandbox.h:

sandboxd/../lib/audit.h:

lib/jail.h:

sandboxd/../lib/jail.h:
