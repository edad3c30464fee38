build-clang/obj/lib/applied.o: lib/applied.c lib/applied.h

lib/applied.h:
