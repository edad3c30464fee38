build-clang/obj/sbx-hook/main.o: sbx-hook/main.c \
  sbx-hook/../lib/cleanup.h sbx-hook/../policy/profile.h \
  policy/../lib/plan.h lib/error.h lib/netrule.h lib/strv.h \
  policy/../lib/strv.h policy/../cmdpolicy/commands.h \
  cmdpolicy/../lib/strv.h policy/git.h policy/../lib/caller.h \
  policy/../lib/error.h policy/../lib/jail.h lib/applied.h lib/plan.h \
  lib/seccomp.h lib/tier.h lib/probe.h lib/validation.h \
  policy/validator.h policy/../lib/validation.h policy/yaml.h \
  sbx-hook/failsafe.h sbx-hook/hook.h sbx-hook/input.h \
  sbx-hook/install.h sbx-hook/post.h sbx-hook/prefix.h sbx-hook/reply.h \
  sbx-hook/spool.h sbx-hook/verdict.h

sbx-hook/../lib/cleanup.h:

sbx-hook/../policy/profile.h:

policy/../lib/plan.h:

lib/error.h:

lib/netrule.h:

lib/strv.h:

policy/../lib/strv.h:

policy/../cmdpolicy/commands.h:

cmdpolicy/../lib/strv.h:

policy/git.h:

policy/../lib/caller.h:

policy/../lib/error.h:

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

sbx-hook/failsafe.h:

sbx-hook/hook.h:

sbx-hook/input.h:

sbx-hook/install.h:

sbx-hook/post.h:

sbx-hook/prefix.h:

sbx-hook/reply.h:

sbx-hook/spool.h:

sbx-hook/verdict.h:
