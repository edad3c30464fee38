build-clang/obj/cmdpolicy/commands-rules.o: cmdpolicy/commands-rules.c \
  cmdpolicy/../lib/cleanup.h cmdpolicy/commands-int.h \
  cmdpolicy/commands.h cmdpolicy/../lib/strv.h cmdpolicy/shell.h

cmdpolicy/../lib/cleanup.h:

cmdpolicy/commands-int.h:

cmdpolicy/commands.h:

cmdpolicy/../lib/strv.h:

cmdpolicy/shell.h:
