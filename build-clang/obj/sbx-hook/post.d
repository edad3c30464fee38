build-clang/obj/sbx-hook/post.o: sbx-hook/post.c sbx-hook/post.h \
  sbx-hook/hook.h sbx-hook/input.h sbx-hook/../lib/cleanup.h \
  sbx-hook/reply.h sbx-hook/spool.h

sbx-hook/post.h:

sbx-hook/hook.h:

sbx-hook/input.h:

sbx-hook/../lib/cleanup.h:

sbx-hook/reply.h:

sbx-hook/spool.h:
