build-clang/obj/sbx-run/main.o: sbx-run/main.c sbx-run/../lib/audit.h \
  lib/error.h lib/jail.h lib/applied.h lib/plan.h lib/netrule.h \
  lib/strv.h lib/seccomp.h lib/tier.h lib/probe.h lib/validation.h \
  sbx-run/../lib/auditfile.h sbx-run/../lib/cleanup.h \
  sbx-run/../lib/jail.h sbx-run/../lib/path.h sbx-run/../lib/privs.h \
  sbx-run/../policy/decide.h policy/../lib/caller.h \
  policy/../lib/error.h policy/../lib/seccomp.h policy/../lib/tier.h \
  policy/../cmdpolicy/commands.h cmdpolicy/../lib/strv.h \
  policy/options.h policy/../lib/plan.h policy/profile.h \
  policy/../lib/strv.h policy/git.h policy/../lib/jail.h \
  policy/validator.h policy/../lib/validation.h policy/yaml.h \
  policy/site.h policy/../lib/netrule.h sbx-run/../policy/resolve.h \
  sbx-run/client.h sbx-run/options.h sbx-run/../lib/error.h \
  sbx-run/../lib/tier.h sbx-run/../policy/options.h sbx-run/doctor.h \
  sbx-run/summary.h

sbx-run/../lib/audit.h:

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

sbx-run/../lib/auditfile.h:

sbx-run/../lib/cleanup.h:

sbx-run/../lib/jail.h:

sbx-run/../lib/path.h:

sbx-run/../lib/privs.h:

sbx-run/../policy/decide.h:

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

policy/validator.h:

policy/../lib/validation.h:

policy/yaml.h:

policy/site.h:

policy/../lib/netrule.h:

sbx-run/../policy/resolve.h:

sbx-run/client.h:

sbx-run/options.h:

sbx-run/../lib/error.h:

sbx-run/../lib/tier.h:

sbx-run/../policy/options.h:

sbx-run/doctor.h:

sbx-run/summary.h:
