build-clang/obj/policy/gitconfig.o: policy/gitconfig.c policy/gitfmt.h \
  policy/../lib/cleanup.h policy/gitfmt-int.h

policy/gitfmt.h:

policy/../lib/cleanup.h:

policy/gitfmt-int.h:
