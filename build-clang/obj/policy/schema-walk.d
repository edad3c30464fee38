build-clang/obj/policy/schema-walk.o: policy/schema-walk.c \
  policy/../lib/cleanup.h policy/../lib/netrule.h lib/error.h \
  policy/../lib/parse.h policy/../lib/plan.h lib/netrule.h lib/strv.h \
  policy/../lib/tier.h lib/plan.h lib/probe.h policy/schema-int.h \
  policy/../lib/strv.h policy/options.h policy/../lib/error.h \
  policy/yaml.h

policy/../lib/cleanup.h:

policy/../lib/netrule.h:

lib/error.h:

policy/../lib/parse.h:

policy/../lib/plan.h:

lib/netrule.h:

lib/strv.h:

policy/../lib/tier.h:

lib/plan.h:

lib/probe.h:

policy/schema-int.h:

policy/../lib/strv.h:

policy/options.h:

policy/../lib/error.h:

policy/yaml.h:
