build-clang/obj/sbx-hook/input.o: sbx-hook/input.c sbx-hook/input.h \
  sbx-hook/hook.h sbx-hook/../policy/options.h policy/../lib/error.h \
  policy/../lib/plan.h lib/error.h lib/netrule.h lib/strv.h

sbx-hook/input.h:

sbx-hook/hook.h:

sbx-hook/../policy/options.h:

policy/../lib/error.h:

policy/../lib/plan.h:

lib/error.h:

lib/netrule.h:

lib/strv.h:
