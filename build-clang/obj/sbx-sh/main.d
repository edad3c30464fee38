build-clang/obj/sbx-sh/main.o: sbx-sh/main.c sbx-sh/args.h

sbx-sh/args.h:
