# sbx — build, test, install.  `make deps` installs what the build needs (Debian).
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man
PROFILEDIR = $(PREFIX)/share/sbx/profiles
VERSION = 0.1

CC ?= cc
CLANG ?= clang
PKG_CONFIG ?= pkg-config
B = build

WARN = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 \
       -Wimplicit-fallthrough -fno-common
BASE_CFLAGS = -std=gnu17 -D_GNU_SOURCE -DSBX_VERSION='"$(VERSION)"' -DSBX_PROFILE_DIR='"$(PROFILEDIR)"' $(WARN) -g
HARDEN = -O2 -fstack-protector-strong -D_FORTIFY_SOURCE=3 -fPIE
HARDEN_LD = -pie -Wl,-z,relro,-z,now
SAN = -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

DEB_PKGS = libseccomp-dev libcap-dev libmnl-dev libsystemd-dev libyaml-dev pkg-config \
           clang libclang-rt-dev bubblewrap mandoc python3 systemd dbus passwd git gcc g++ ccache tmux golang-go nettle-dev zlib1g-dev strace gdb \
           debhelper dpkg-dev \
           default-jdk-headless maven fontconfig man-db libpython3.11-testsuite libjson-c-dev nodejs podman crun \
           dnsmasq-base bind9-dnsutils socat netcat-openbsd libldns-dev libc-ares-dev curl openssl iproute2
# External libraries, per layer: each is linked only into what uses that layer, and
# --as-needed drops one an archive member never pulled in (test_shell needs none).
# Expanded when a link runs, after `make deps` has installed them.
PC_LIBS = $(shell $(PKG_CONFIG) --libs $(1) 2>/dev/null)
SBX_EXT = $(call PC_LIBS,libcap libmnl libsystemd nettle zlib libseccomp ldns libcares)
CMDPOLICY_EXT =
POLICY_EXT = $(call PC_LIBS,yaml-0.1 nettle libcap json-c)
BUS_EXT = $(call PC_LIBS,libsystemd)
# json-c: the policy layer (the validator's JSON) and sbx-hook (the harnesses').
HOOK_EXT = $(call PC_LIBS,json-c)
SECCOMP_LIBS = $(call PC_LIBS,libseccomp)
AS_NEEDED = -Wl,--as-needed

# The layers, bottom up; each points only down (make check-layers proves it):
#   lib/        libsbx.a            every stage of the jail; includes nothing of the tree
#   cmdpolicy/  libsbx-cmdpolicy.a  the command checker (shell parser, command rules)
#   policy/     libsbx-policy.a     profiles, site policy, git guards, the validator (libyaml, json-c)
#   sbx-run/, sandboxd/, sbx-hook/, sbx-sh/  the programs, on all three
# The default seccomp filter and its common variants are compiled at build time
# (gen-seccomp) and embedded in libsbx; seccomp.c compiles at launch only for a
# profile's own seccomp changes.  The builtin profiles are embedded in libsbx-policy.
LIB_SRCS = lib/error.c lib/applied.c lib/busapi.c lib/strv.c lib/path.c lib/caller.c lib/json.c lib/plan.c lib/forecast.c lib/defaults.c lib/etcview.c lib/parse.c lib/validate.c lib/mountpoint.c lib/gitobjects.c \
           lib/mount.c lib/net.c lib/cgroup.c lib/privs.c lib/identity.c lib/landlock.c lib/seccomp.c lib/seccomp-apply.c \
           lib/sync.c lib/exec.c lib/broker.c lib/init.c lib/jail.c lib/jail-landlock.c lib/probe.c lib/tier.c lib/audit.c lib/auditfile.c lib/spawn.c lib/validation.c \
           lib/ssrf.c lib/netrule.c lib/synth.c lib/dns.c lib/sniff.c \
           lib/egress.c lib/egress-netns.c lib/egress-conn.c lib/egress-relay.c lib/egress-accept.c lib/egress-dns.c lib/egress-decide.c lib/egress-resolve.c lib/egress-log.c lib/egress-report.c lib/egress-factory.c lib/nonet.c
CMDPOLICY_SRCS = $(sort $(wildcard cmdpolicy/*.c))
POLICY_SRCS = $(sort $(wildcard policy/*.c))
RUN_LIB_SRCS = sbx-run/options.c sbx-run/summary.c sbx-run/client.c sbx-run/doctor.c
RUN_SRCS = $(RUN_LIB_SRCS) sbx-run/main.c
# sbx-sh: the shell drop-in; only its own files (it execs sbx-run).
SH_LIB_SRCS = sbx-sh/args.c
SH_SRCS = $(SH_LIB_SRCS) sbx-sh/main.c
DAEMON_LIB_SRCS = $(filter-out sandboxd/main.c,$(sort $(wildcard sandboxd/*.c)))
DAEMON_SRCS = $(DAEMON_LIB_SRCS) sandboxd/main.c
HOOK_LIB_SRCS = $(filter-out sbx-hook/main.c,$(sort $(wildcard sbx-hook/*.c)))
HOOK_SRCS = $(HOOK_LIB_SRCS) sbx-hook/main.c
SBINDIR = $(PREFIX)/sbin
SYSCONFDIR ?= /etc
UNITDIR ?= /lib/systemd/system
PROFILES = $(sort $(wildcard profiles/*.yaml))
GEN_SRC = $(B)/gen/seccomp_builtin.c $(B)/gen/profiles_builtin.c
UNIT_TESTS = $(patsubst tests/unit/%.c,%,$(wildcard tests/unit/test_*.c))
FUZZERS = $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz_*.c))

# Each directory sees only the layers below it.  The tree's own includes are written
# relative ("../lib/x.h") and checked by check-layers; these -iquote paths are the only
# search paths a layer gets for the short form ("x.h").
INC_lib =
INC_cmdpolicy = -iquote lib
INC_policy = -iquote lib -iquote cmdpolicy
INC_sbx-run = -iquote lib -iquote cmdpolicy -iquote policy
INC_sandboxd = $(INC_sbx-run)
INC_sbx-hook = $(INC_sbx-run)
DEF_sbx-hook = -DSBX_BINDIR='"$(BINDIR)"'
INC_tests = $(INC_sbx-run)
INC_tools = -iquote lib
INC_bench = $(INC_sbx-run)
INC_build = -iquote lib -iquote policy
DEF_sandboxd = -DSBX_SBINDIR='"$(SBINDIR)"'
DEF_sbx-sh = -DSBX_BINDIR='"$(BINDIR)"'
# The flags a source gets from its directory (its first path component).
dirflags = $(INC_$(firstword $(subst /, ,$(1)))) $(DEF_$(firstword $(subst /, ,$(1))))
DEPFLAGS = -MMD -MP

# Three builds of every object, each compiled once: hardened (the programs), ASan+UBSan
# (unit tests, fuzz corpus regressions, build/asan/*), clang libFuzzer (make fuzz).
OBJ = $(B)/obj
AOBJ = $(B)/asan-obj
FOBJ = $(B)/fuzz-obj
A = $(B)/asan
F = $(B)/fuzz
objs = $(patsubst %.c,$(1)/%.o,$(patsubst $(B)/%.c,$(1)/%.o,$(2)))

$(OBJ)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(HARDEN) $(CFLAGS) $(call dirflags,$<) $(DEPFLAGS) -c -o $@ $<
$(OBJ)/%.o: $(B)/%.c
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(HARDEN) $(CFLAGS) $(INC_build) $(DEPFLAGS) -c -o $@ $<
$(AOBJ)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(SAN) $(call dirflags,$<) $(DEPFLAGS) -c -o $@ $<
$(AOBJ)/%.o: $(B)/%.c
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(SAN) $(INC_build) $(DEPFLAGS) -c -o $@ $<
$(FOBJ)/%.o: %.c
	@mkdir -p $(@D)
	$(CLANG) $(BASE_CFLAGS) -O1 -fsanitize=fuzzer-no-link,address,undefined $(call dirflags,$<) $(DEPFLAGS) -c -o $@ $<
$(FOBJ)/%.o: $(B)/%.c
	@mkdir -p $(@D)
	$(CLANG) $(BASE_CFLAGS) -O1 -fsanitize=fuzzer-no-link,address,undefined $(INC_build) $(DEPFLAGS) -c -o $@ $<

# The libraries of one build ($(1): object dir, $(2): library dir; the libFuzzer build
# keeps its libraries with its objects, away from build/fuzz/'s binaries).  libsbx-run.a
# and libsandboxd.a (the programs without main.o) exist for the tests and fuzz targets.
define LIBS_RULES
$(2)/libsbx.a: $(call objs,$(1),$(LIB_SRCS) $(B)/gen/seccomp_builtin.c)
$(2)/libsbx-cmdpolicy.a: $(call objs,$(1),$(CMDPOLICY_SRCS))
$(2)/libsbx-policy.a: $(call objs,$(1),$(POLICY_SRCS) $(B)/gen/profiles_builtin.c)
$(2)/libsbx-run.a: $(call objs,$(1),$(RUN_LIB_SRCS))
$(2)/libsandboxd.a: $(call objs,$(1),$(DAEMON_LIB_SRCS))
$(2)/libsbx-hook.a: $(call objs,$(1),$(HOOK_LIB_SRCS))
$(2)/libsbx-sh.a: $(call objs,$(1),$(SH_LIB_SRCS))
$(2)/libsbx.a $(2)/libsbx-cmdpolicy.a $(2)/libsbx-policy.a $(2)/libsbx-run.a $(2)/libsandboxd.a $(2)/libsbx-hook.a $(2)/libsbx-sh.a:
	@mkdir -p $$(@D)
	rm -f $$@
	$$(AR) rcs $$@ $$^
endef
$(eval $(call LIBS_RULES,$(OBJ),$(B)))
$(eval $(call LIBS_RULES,$(AOBJ),$(A)))
$(eval $(call LIBS_RULES,$(FOBJ),$(FOBJ)))

# What each binary links, top layer first (static archives resolve in order).
LAYERS = libsbx-policy.a libsbx-cmdpolicy.a libsbx.a
LAYERS_EXT = $(POLICY_EXT) $(CMDPOLICY_EXT) $(SBX_EXT)
RUN_LINK = $(LAYERS) $(LAYERS_EXT) $(BUS_EXT)
DAEMON_LINK = $(LAYERS) $(LAYERS_EXT) $(BUS_EXT)
HOOK_LINK = $(LAYERS) $(LAYERS_EXT) $(HOOK_EXT)
# Unit tests and fuzz targets may test any layer or program piece; the archives give
# each only the members it calls.
TEST_LINK = libsbx-sh.a libsandboxd.a libsbx-run.a libsbx-hook.a $(LAYERS) $(LAYERS_EXT) $(BUS_EXT) $(HOOK_EXT)
TEST_ARCHIVES = $(filter %.a,$(TEST_LINK))
link = $(foreach l,$(1),$(if $(filter %.a,$(l)),$(2)/$(l),$(l)))

.PHONY: all deps check-layers check compat test unit integration asan demo bench fuzz install analyze clean

all: $(B)/sbx-run $(B)/sandboxd $(B)/sbx-hook $(B)/sbx-sh $(B)/probe

deps:
	@missing=""; for p in $(DEB_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then echo "deps: all installed"; \
	elif [ "$$(id -u)" = 0 ]; then \
	  echo "deps: installing$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	else echo "deps: missing$$missing; run: sudo apt-get install$$missing"; exit 1; fi

# gen-seccomp links lib/'s seccomp objects directly: libsbx.a embeds its output.
GEN_SECCOMP_OBJS = $(call objs,$(OBJ),tools/gen-seccomp.c lib/seccomp.c lib/seccomp-apply.c lib/error.c lib/parse.c)
$(B)/gen-seccomp: $(GEN_SECCOMP_OBJS)
	$(CC) $(HARDEN_LD) $(LDFLAGS) -o $@ $^ $(SECCOMP_LIBS)

$(B)/gen/seccomp_builtin.c: $(B)/gen-seccomp
	@mkdir -p $(@D)
	$(B)/gen-seccomp > $@.tmp && mv $@.tmp $@

$(B)/embed-profiles: tools/embed-profiles.c
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) -O2 -o $@ $<

$(B)/gen/profiles_builtin.c: $(B)/embed-profiles $(PROFILES)
	@mkdir -p $(@D)
	$(B)/embed-profiles $(PROFILES) > $@.tmp && mv $@.tmp $@

# The programs: their own objects over the layers.
$(B)/sbx-run: $(call objs,$(OBJ),$(RUN_SRCS)) $(call link,$(LAYERS),$(B))
	$(CC) $(HARDEN_LD) $(LDFLAGS) $(AS_NEEDED) -o $@ $(filter %.o,$^) $(call link,$(RUN_LINK),$(B))

$(B)/sbx-sh: $(call objs,$(OBJ),$(SH_SRCS))
	$(CC) $(HARDEN_LD) $(LDFLAGS) -o $@ $^

$(B)/sandboxd: $(call objs,$(OBJ),$(DAEMON_SRCS)) $(call link,$(LAYERS),$(B))
	$(CC) $(HARDEN_LD) $(LDFLAGS) $(AS_NEEDED) -o $@ $(filter %.o,$^) $(call link,$(DAEMON_LINK),$(B))

# sbx-hook, and its name as Claude Code's shell prefix (it dispatches on argv[0]).
$(B)/sbx-hook: $(call objs,$(OBJ),$(HOOK_SRCS)) $(call link,$(LAYERS),$(B))
	$(CC) $(HARDEN_LD) $(LDFLAGS) $(AS_NEEDED) -o $@ $(filter %.o,$^) $(call link,$(HOOK_LINK),$(B))
	ln -sf sbx-hook $(B)/sbx-shell-prefix

$(A)/sandboxd: $(call objs,$(AOBJ),$(DAEMON_SRCS)) $(call link,$(LAYERS),$(A))
	$(CC) $(SAN) $(AS_NEEDED) -o $@ $(filter %.o,$^) $(call link,$(DAEMON_LINK),$(A))

$(A)/sbx-run: $(call objs,$(AOBJ),$(RUN_SRCS)) $(call link,$(LAYERS),$(A))
	$(CC) $(SAN) $(AS_NEEDED) -o $@ $(filter %.o,$^) $(call link,$(RUN_LINK),$(A))

# Test tool: the Run calls busctl cannot make (tests/integration/t_daemon.sh).
$(B)/bus-call: tests/tools/bus-call.c
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) -O1 -o $@ $< $(shell $(PKG_CONFIG) --libs libsystemd 2>/dev/null)

# The probe runs inside jails: static, so it needs nothing from the jail's /usr.
$(B)/probe: tests/probe/probe.c
	@mkdir -p $(@D)
	$(CC) -static -O2 -std=gnu17 -Wall -Wextra -Werror -o $@ $<

# Unit tests compile only their own .c and link the libraries, under ASan+UBSan.
$(B)/tests/%: $(AOBJ)/tests/unit/%.o $(call link,$(TEST_ARCHIVES),$(A))
	@mkdir -p $(@D)
	$(CC) $(SAN) $(AS_NEEDED) -o $@ $< $(call link,$(TEST_LINK),$(A))

# Fuzz targets double as corpus regression tests (a plain main over the corpus).
$(F)/%-regress: $(AOBJ)/tests/fuzz/%.o $(AOBJ)/tests/fuzz/regress_main.o $(call link,$(TEST_ARCHIVES),$(A))
	@mkdir -p $(@D)
	$(CC) $(SAN) $(AS_NEEDED) -o $@ $(filter %.o,$^) $(call link,$(TEST_LINK),$(A))

$(F)/%: $(FOBJ)/tests/fuzz/%.o $(call link,$(TEST_ARCHIVES),$(FOBJ))
	@mkdir -p $(@D)
	$(CLANG) -fsanitize=fuzzer,address,undefined $(AS_NEEDED) -o $@ $< $(call link,$(TEST_LINK),$(FOBJ))

# The test objects named here are kept (not intermediate), so a rebuild compiles only
# what changed.
TEST_OBJS = $(call objs,$(AOBJ),$(wildcard tests/unit/test_*.c tests/fuzz/*.c)) \
            $(call objs,$(FOBJ),$(wildcard tests/fuzz/fuzz_*.c))
.SECONDARY: $(TEST_OBJS)
unit: $(addprefix $(B)/tests/,$(UNIT_TESTS)) $(addprefix $(B)/fuzz/,$(addsuffix -regress,$(FUZZERS)))
asan: $(B)/asan/sbx-run $(B)/asan/sandboxd

# The one test command: everything, ASan+UBSan included; ends with "N passed, N failed".
check: deps check-layers all unit asan $(B)/bus-call
	@python3 tools/check-layers.py --objects $(OBJ)
	@bash tests/run.sh

# Includes point only down the layers and make no circle inside a directory (before
# anything is built); make check then checks the same on the objects' calls.
check-layers:
	@python3 tools/check-layers.py

test: check

# The compatibility suite alone (make check runs it too): Debian's tools outside and
# inside the jail, as root and as a user; the table goes to build/compat-table.txt.
compat: deps all
	@bash tests/compat/run.sh

demo: deps all
	@bash contrib/demo.sh $(B)/sbx-run

bench: deps all $(call link,$(LAYERS),$(B))
	$(CC) -O2 -std=gnu17 -D_GNU_SOURCE -Wall -Wextra -Werror -o $(B)/bench-launch bench/launch.c
	$(CC) -O2 -std=gnu17 -D_GNU_SOURCE -Wall -Wextra -Werror -o $(B)/bench-netpeer bench/netpeer.c
	$(CC) $(BASE_CFLAGS) -O2 $(INC_bench) -o $(B)/bench-profile bench/profile.c $(call link,$(LAYERS),$(B)) $(AS_NEEDED) $(LAYERS_EXT)
	bash bench/run.sh $(B)/sbx-run $(B)/sandboxd
	$(B)/bench-profile workspace strict git
	bash bench/egress.sh $(B)/sbx-run

FUZZ_SECONDS ?= 60
fuzz: $(addprefix $(B)/fuzz/,$(FUZZERS))
	@for f in $(FUZZERS); do \
	  mkdir -p $(B)/fuzz/corpus-$$f; \
	  $(B)/fuzz/$$f -max_total_time=$(FUZZ_SECONDS) $(B)/fuzz/corpus-$$f tests/fuzz/corpus/$${f#fuzz_} || exit 1; \
	done

# The system bus reads its policies here (sandboxd's: root may own io.sbx.Sandbox1).
DBUSDIR ?= /usr/share/dbus-1/system.d

# sandboxd.service names /usr/local/sbin/sandboxd; the installed copy names $(SBINDIR).
# The site policy is installed only where there is none: a site's own is never replaced.
install: $(B)/sbx-run $(B)/sandboxd $(B)/sbx-hook $(B)/sbx-sh
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
	  $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(PROFILEDIR) $(DESTDIR)$(UNITDIR) $(DESTDIR)$(DBUSDIR) $(DESTDIR)$(SYSCONFDIR)/sbx
	install -m 0755 $(B)/sbx-run $(DESTDIR)$(BINDIR)/sbx-run
	install -m 0755 $(B)/sbx-sh $(DESTDIR)$(BINDIR)/sbx-sh
	install -m 0644 man/sbx-sh.1 $(DESTDIR)$(MANDIR)/man1/sbx-sh.1
	install -m 0755 $(B)/sandboxd $(DESTDIR)$(SBINDIR)/sandboxd
	install -m 0755 $(B)/sbx-hook $(DESTDIR)$(BINDIR)/sbx-hook
	ln -sf sbx-hook $(DESTDIR)$(BINDIR)/sbx-shell-prefix
	install -m 0644 man/sbx-hook.1 $(DESTDIR)$(MANDIR)/man1/sbx-hook.1
	install -d $(DESTDIR)$(PREFIX)/share/sbx/opencode
	install -m 0644 contrib/opencode/sbx.js $(DESTDIR)$(PREFIX)/share/sbx/opencode/sbx.js
	install -d $(DESTDIR)$(PREFIX)/share/sbx/container
	install -m 0755 contrib/container/sbx-entrypoint $(DESTDIR)$(PREFIX)/share/sbx/container/sbx-entrypoint
	install -m 0644 contrib/container/Containerfile contrib/container/policy.yaml $(DESTDIR)$(PREFIX)/share/sbx/container/
	install -m 0644 man/sbx-run.1 $(DESTDIR)$(MANDIR)/man1/sbx-run.1
	install -m 0644 man/sbx-profile.5 $(DESTDIR)$(MANDIR)/man5/sbx-profile.5
	install -m 0644 man/sbx-policy.5 $(DESTDIR)$(MANDIR)/man5/sbx-policy.5
	install -m 0644 man/sandboxd.8 $(DESTDIR)$(MANDIR)/man8/sandboxd.8
	install -m 0644 $(PROFILES) $(DESTDIR)$(PROFILEDIR)/
	sed 's|^ExecStart=/usr/local/sbin/sandboxd|ExecStart=$(SBINDIR)/sandboxd|' systemd/sandboxd.service >$(B)/sandboxd.service
	install -m 0644 $(B)/sandboxd.service $(DESTDIR)$(UNITDIR)/sandboxd.service
	install -m 0644 systemd/sandboxd.socket $(DESTDIR)$(UNITDIR)/sandboxd.socket
	install -m 0644 systemd/io.sbx.Sandbox1.conf $(DESTDIR)$(DBUSDIR)/io.sbx.Sandbox1.conf
	@if [ -e $(DESTDIR)$(SYSCONFDIR)/sbx/policy.yaml ]; then \
	  echo "install: keeping $(DESTDIR)$(SYSCONFDIR)/sbx/policy.yaml"; \
	else \
	  echo "install -m 0644 profiles/site/policy.yaml $(DESTDIR)$(SYSCONFDIR)/sbx/policy.yaml"; \
	  install -m 0644 profiles/site/policy.yaml $(DESTDIR)$(SYSCONFDIR)/sbx/policy.yaml; \
	fi

# cppcheck cannot see __attribute__((cleanup)), so its leak reports on _cleanup_free_
# variables are noise; leaks are LeakSanitizer's job in make check.
analyze: $(GEN_SRC)
	cppcheck --std=c11 --enable=warning,portability,performance --error-exitcode=1 --inline-suppr \
	  --suppress=missingIncludeSystem --suppress=memleak -D_GNU_SOURCE \
	  --include=/usr/include/systemd/sd-bus-vtable.h -q lib cmdpolicy policy sbx-run sandboxd sbx-hook sbx-sh tools
	clang-tidy --quiet $(LIB_SRCS) $(CMDPOLICY_SRCS) $(POLICY_SRCS) $(RUN_SRCS) $(DAEMON_SRCS) $(HOOK_SRCS) $(SH_SRCS) tools/gen-seccomp.c -- $(BASE_CFLAGS)

clean:
	rm -rf $(B)

# Debian packages (debian/) from a copy of the tree, so that dpkg-buildpackage's
# ../*.deb land in $(B)/deb/ and never beside the repository: make deps first.
.PHONY: deb
deb:
	rm -rf $(B)/deb && mkdir -p $(B)/deb/src
	git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xf - -C $(B)/deb/src
	cd $(B)/deb/src && dpkg-buildpackage -us -uc -b
	@ls $(B)/deb/*.deb

# Header dependencies, written by -MMD -MP next to each object.
-include $(shell find $(B) -name '*.d' 2>/dev/null)
