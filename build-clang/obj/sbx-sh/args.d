build-clang/obj/sbx-sh/args.o: sbx-sh/args.c sbx-sh/args.h

sbx-sh/args.h:
