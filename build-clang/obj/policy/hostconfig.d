build-clang/obj/policy/hostconfig.o: policy/hostconfig.c \
  policy/hostconfig.h

policy/hostconfig.h:
