build-clang/obj/sbx-hook/install.o: sbx-hook/install.c sbx-hook/install.h \
  sbx-hook/hook.h sbx-hook/../lib/cleanup.h

sbx-hook/install.h:

sbx-hook/hook.h:

sbx-hook/../lib/cleanup.h:
