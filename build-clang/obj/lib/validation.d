build-clang/obj/lib/validation.o: lib/validation.c lib/validation.h

lib/validation.h:
