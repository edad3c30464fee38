build-clang/obj/sbx-hook/failsafe.o: sbx-hook/failsafe.c \
  sbx-hook/failsafe.h sbx-hook/hook.h

sbx-hook/failsafe.h:

sbx-hook/hook.h:
