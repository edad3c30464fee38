build-clang/obj/sbx-run/doctor.o: sbx-run/doctor.c sbx-run/doctor.h \
  sbx-run/../lib/error.h sbx-run/options.h sbx-run/../lib/tier.h \
  lib/plan.h lib/error.h lib/netrule.h lib/strv.h lib/probe.h \
  sbx-run/../policy/options.h policy/../lib/error.h policy/../lib/plan.h \
  sbx-run/../lib/json.h sbx-run/../lib/probe.h \
  sbx-run/../policy/profile.h policy/../lib/strv.h \
  policy/../cmdpolicy/commands.h cmdpolicy/../lib/strv.h policy/git.h \
  policy/../lib/caller.h policy/../lib/jail.h lib/applied.h \
  lib/seccomp.h lib/tier.h lib/validation.h policy/validator.h \
  policy/../lib/validation.h policy/yaml.h

sbx-run/doctor.h:

sbx-run/../lib/error.h:

sbx-run/options.h:

sbx-run/../lib/tier.h:

lib/plan.h:

lib/error.h:

lib/netrule.h:

lib/strv.h:

lib/probe.h:

sbx-run/../policy/options.h:

policy/../lib/error.h:

policy/../lib/plan.h:

sbx-run/../lib/json.h:

sbx-run/../lib/probe.h:

sbx-run/../policy/profile.h:

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
