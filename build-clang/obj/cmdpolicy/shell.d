build-clang/obj/cmdpolicy/shell.o: cmdpolicy/shell.c cmdpolicy/shell.h \
  cmdpolicy/../lib/cleanup.h cmdpolicy/shell-int.h

cmdpolicy/shell.h:

cmdpolicy/../lib/cleanup.h:

cmdpolicy/shell-int.h:
