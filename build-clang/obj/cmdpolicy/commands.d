build-clang/obj/cmdpolicy/commands.o: cmdpolicy/commands.c \
  cmdpolicy/commands.h cmdpolicy/../lib/strv.h \
  cmdpolicy/../lib/cleanup.h cmdpolicy/commands-int.h cmdpolicy/shell.h

cmdpolicy/commands.h:

cmdpolicy/../lib/strv.h:

cmdpolicy/../lib/cleanup.h:

cmdpolicy/commands-int.h:

cmdpolicy/shell.h:
