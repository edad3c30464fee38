build-clang/obj/cmdpolicy/commands-git.o: cmdpolicy/commands-git.c \
  cmdpolicy/../lib/cleanup.h cmdpolicy/commands-int.h \
  cmdpolicy/commands.h cmdpolicy/../lib/strv.h cmdpolicy/shell.h

cmdpolicy/../lib/cleanup.h:

cmdpolicy/commands-int.h:

cmdpolicy/commands.h:

cmdpolicy/../lib/strv.h:

cmdpolicy/shell.h:
