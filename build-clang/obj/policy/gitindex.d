build-clang/obj/policy/gitindex.o: policy/gitindex.c policy/gitfmt.h \
  policy/gitfmt-int.h

policy/gitfmt.h:

policy/gitfmt-int.h:
