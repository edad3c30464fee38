build-clang/obj/lib/dns.o: lib/dns.c lib/dns.h lib/synth.h lib/netrule.h \
  lib/error.h lib/ssrf.h

lib/dns.h:

lib/synth.h:

lib/netrule.h:

lib/error.h:

lib/ssrf.h:
