build-clang/obj/cmdpolicy/shell-lex.o: cmdpolicy/shell-lex.c \
  cmdpolicy/shell-int.h cmdpolicy/shell.h cmdpolicy/../lib/cleanup.h

cmdpolicy/shell-int.h:

cmdpolicy/shell.h:

cmdpolicy/../lib/cleanup.h:
