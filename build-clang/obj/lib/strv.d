build-clang/obj/lib/strv.o: lib/strv.c lib/strv.h

lib/strv.h:
