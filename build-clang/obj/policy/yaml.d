build-clang/obj/policy/yaml.o: policy/yaml.c policy/yaml.h \
  policy/../lib/cleanup.h

policy/yaml.h:

policy/../lib/cleanup.h:
