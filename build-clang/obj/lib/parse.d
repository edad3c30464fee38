build-clang/obj/lib/parse.o: lib/parse.c lib/parse.h

lib/parse.h:
