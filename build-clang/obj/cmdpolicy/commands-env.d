build-clang/obj/cmdpolicy/commands-env.o: cmdpolicy/commands-env.c \
  cmdpolicy/../lib/cleanup.h cmdpolicy/../lib/hash.h \
  cmdpolicy/../lib/plan.h lib/error.h lib/netrule.h lib/strv.h \
  cmdpolicy/commands-int.h cmdpolicy/commands.h cmdpolicy/../lib/strv.h \
  cmdpolicy/shell.h

cmdpolicy/../lib/cleanup.h:

cmdpolicy/../lib/hash.h:

cmdpolicy/../lib/plan.h:

lib/error.h:

lib/netrule.h:

lib/strv.h:

cmdpolicy/commands-int.h:

cmdpolicy/commands.h:

cmdpolicy/../lib/strv.h:

cmdpolicy/shell.h:
