build-clang/obj/cmdpolicy/commands-opts.o: cmdpolicy/commands-opts.c \
  cmdpolicy/commands-int.h cmdpolicy/commands.h cmdpolicy/../lib/strv.h \
  cmdpolicy/shell.h

cmdpolicy/commands-int.h:

cmdpolicy/commands.h:

cmdpolicy/../lib/strv.h:

cmdpolicy/shell.h:
