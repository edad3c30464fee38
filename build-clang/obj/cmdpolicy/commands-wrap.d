build-clang/obj/cmdpolicy/commands-wrap.o: cmdpolicy/commands-wrap.c \
  cmdpolicy/../lib/cleanup.h cmdpolicy/../lib/plan.h lib/error.h \
  lib/netrule.h lib/strv.h cmdpolicy/commands-int.h cmdpolicy/commands.h \
  cmdpolicy/../lib/strv.h cmdpolicy/shell.h

cmdpolicy/../lib/cleanup.h:

cmdpolicy/../lib/plan.h:

lib/error.h:

lib/netrule.h:

lib/strv.h:

cmdpolicy/commands-int.h:

cmdpolicy/commands.h:

cmdpolicy/../lib/strv.h:

cmdpolicy/shell.h:
