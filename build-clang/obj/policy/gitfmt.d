build-clang/obj/policy/gitfmt.o: policy/gitfmt.c policy/gitfmt.h \
  policy/gitfmt-int.h

policy/gitfmt.h:

policy/gitfmt-int.h:
