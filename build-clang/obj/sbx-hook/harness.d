build-clang/obj/sbx-hook/harness.o: sbx-hook/harness.c sbx-hook/hook.h

sbx-hook/hook.h:
