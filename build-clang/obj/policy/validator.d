build-clang/obj/policy/validator.o: policy/validator.c policy/validator.h \
  policy/../lib/error.h policy/../lib/strv.h policy/../lib/validation.h \
  policy/../lib/cleanup.h policy/../lib/json.h policy/../lib/spawn.h \
  lib/error.h

policy/validator.h:

policy/../lib/error.h:

policy/../lib/strv.h:

policy/../lib/validation.h:

policy/../lib/cleanup.h:

policy/../lib/json.h:

policy/../lib/spawn.h:

lib/error.h:
