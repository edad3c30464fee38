build-clang/obj/cmdpolicy/commands-tools.o: cmdpolicy/commands-tools.c \
  cmdpolicy/../lib/cleanup.h cmdpolicy/commands-int.h \
  cmdpolicy/commands.h cmdpolicy/../lib/strv.h cmdpolicy/shell.h

cmdpolicy/../lib/cleanup.h:

cmdpolicy/commands-int.h:

cmdpolicy/commands.h:

cmdpolicy/../lib/strv.h:

cmdpolicy/shell.h:
