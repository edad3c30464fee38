build-clang/obj/sbx-hook/prefix.o: sbx-hook/prefix.c sbx-hook/prefix.h \
  sbx-hook/hook.h sbx-hook/../lib/cleanup.h sbx-hook/../lib/plan.h \
  lib/error.h lib/netrule.h lib/strv.h sbx-hook/../policy/options.h \
  policy/../lib/error.h policy/../lib/plan.h sbx-hook/spool.h

sbx-hook/prefix.h:

sbx-hook/hook.h:

sbx-hook/../lib/cleanup.h:

sbx-hook/../lib/plan.h:

lib/error.h:

lib/netrule.h:

lib/strv.h:

sbx-hook/../policy/options.h:

policy/../lib/error.h:

policy/../lib/plan.h:

sbx-hook/spool.h:
