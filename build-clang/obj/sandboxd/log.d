build-clang/obj/sandboxd/log.o: sandboxd/log.c sandboxd/log.h

sandboxd/log.h:
