build-clang/obj/cmdpolicy/commands-text.o: cmdpolicy/commands-text.c \
  cmdpolicy/../lib/cleanup.h cmdpolicy/commands-int.h \
  cmdpolicy/commands.h cmdpolicy/../lib/strv.h cmdpolicy/shell.h

cmdpolicy/../lib/cleanup.h:

cmdpolicy/commands-int.h:

cmdpolicy/commands.h:

cmdpolicy/../lib/strv.h:

cmdpolicy/shell.h:
