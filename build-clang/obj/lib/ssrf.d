build-clang/obj/lib/ssrf.o: lib/ssrf.c lib/ssrf.h

lib/ssrf.h:
