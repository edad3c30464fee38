build-clang/obj/sbx-hook/spool.o: sbx-hook/spool.c sbx-hook/spool.h \
  sbx-hook/../lib/cleanup.h sbx-hook/../lib/hash.h sbx-hook/hook.h

sbx-hook/spool.h:

sbx-hook/../lib/cleanup.h:

sbx-hook/../lib/hash.h:

sbx-hook/hook.h:
