build-clang/obj/sbx-hook/reply.o: sbx-hook/reply.c sbx-hook/reply.h \
  sbx-hook/hook.h sbx-hook/input.h sbx-hook/../lib/cleanup.h

sbx-hook/reply.h:

sbx-hook/hook.h:

sbx-hook/input.h:

sbx-hook/../lib/cleanup.h:
