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
           clang libclang-rt-dev bubblewrap mandoc python3 systemd dbus passwd git gcc ccache tmux golang-go nettle-dev zlib1g-dev \
           debhelper dpkg-dev
RUN_LIBS = $(shell $(PKG_CONFIG) --libs libcap libmnl yaml-0.1 libseccomp libsystemd nettle zlib 2>/dev/null)
SECCOMP_LIBS = $(shell $(PKG_CONFIG) --libs libseccomp 2>/dev/null)

# libsbx: every stage of the jail.  The default seccomp filter and its common variants
# are compiled at build time (gen-seccomp) and embedded; seccomp.c compiles at launch
# only for a profile's own seccomp changes.
LIB_SRCS = lib/error.c lib/applied.c lib/busapi.c lib/strv.c lib/path.c lib/caller.c lib/json.c lib/plan.c lib/defaults.c lib/parse.c lib/validate.c lib/mountpoint.c lib/gitobjects.c \
           lib/mount.c lib/net.c lib/cgroup.c lib/privs.c lib/landlock.c lib/seccomp.c lib/seccomp-apply.c \
           lib/sync.c lib/exec.c lib/broker.c lib/init.c lib/jail.c lib/audit.c
# policy/: profiles, command rules, the shell tokenizer (libyaml links only here).
POLICY_SRCS = $(sort $(wildcard policy/*.c))
RUN_SRCS = sbx-run/options.c sbx-run/summary.c sbx-run/client.c sbx-run/main.c
# sandboxd: everything but main.c is also linked into the unit tests and fuzz targets.
DAEMON_LIB_SRCS = $(filter-out sandboxd/main.c,$(sort $(wildcard sandboxd/*.c)))
DAEMON_SRCS = $(DAEMON_LIB_SRCS) sandboxd/main.c
SBINDIR = $(PREFIX)/sbin
SYSCONFDIR ?= /etc
UNITDIR ?= /lib/systemd/system
PROFILES = $(sort $(wildcard profiles/*.yaml))
GEN_SRC = $(B)/gen/seccomp_builtin.c $(B)/gen/profiles_builtin.c
HDRS = $(wildcard lib/*.h policy/*.h sbx-run/*.h sandboxd/*.h)
UNIT_TESTS = $(patsubst tests/unit/%.c,%,$(wildcard tests/unit/test_*.c))
FUZZERS = $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz_*.c))

.PHONY: all deps check test unit integration asan demo bench fuzz install analyze clean

all: $(B)/sbx-run $(B)/sandboxd $(B)/probe

deps:
	@missing=""; for p in $(DEB_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then echo "deps: all installed"; \
	elif [ "$$(id -u)" = 0 ]; then \
	  echo "deps: installing$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	else echo "deps: missing$$missing; run: sudo apt-get install$$missing"; exit 1; fi

$(B)/gen-seccomp: tools/gen-seccomp.c lib/seccomp.c lib/seccomp-apply.c lib/error.c lib/parse.c $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) -O2 -o $@ tools/gen-seccomp.c lib/seccomp.c lib/seccomp-apply.c lib/error.c lib/parse.c $(SECCOMP_LIBS)

$(B)/gen/seccomp_builtin.c: $(B)/gen-seccomp
	@mkdir -p $(@D)
	$(B)/gen-seccomp > $@.tmp && mv $@.tmp $@

$(B)/embed-profiles: tools/embed-profiles.c
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) -O2 -o $@ $<

$(B)/gen/profiles_builtin.c: $(B)/embed-profiles $(PROFILES)
	@mkdir -p $(@D)
	$(B)/embed-profiles $(PROFILES) > $@.tmp && mv $@.tmp $@

$(B)/sbx-run: $(LIB_SRCS) $(POLICY_SRCS) $(RUN_SRCS) $(GEN_SRC) $(HDRS)
	$(CC) $(BASE_CFLAGS) $(HARDEN) $(CFLAGS) -o $@ $(LIB_SRCS) $(POLICY_SRCS) $(RUN_SRCS) $(GEN_SRC) $(HARDEN_LD) $(LDFLAGS) $(RUN_LIBS)

$(B)/sandboxd: $(LIB_SRCS) $(POLICY_SRCS) $(DAEMON_SRCS) $(GEN_SRC) $(HDRS)
	$(CC) $(BASE_CFLAGS) $(HARDEN) $(CFLAGS) -DSBX_SBINDIR='"$(SBINDIR)"' -o $@ $(LIB_SRCS) $(POLICY_SRCS) $(DAEMON_SRCS) $(GEN_SRC) $(HARDEN_LD) $(LDFLAGS) $(RUN_LIBS)

$(B)/asan/sandboxd: $(LIB_SRCS) $(POLICY_SRCS) $(DAEMON_SRCS) $(GEN_SRC) $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(SAN) -o $@ $(LIB_SRCS) $(POLICY_SRCS) $(DAEMON_SRCS) $(GEN_SRC) $(RUN_LIBS)

$(B)/asan/sbx-run: $(LIB_SRCS) $(POLICY_SRCS) $(RUN_SRCS) $(GEN_SRC) $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(SAN) -o $@ $(LIB_SRCS) $(POLICY_SRCS) $(RUN_SRCS) $(GEN_SRC) $(RUN_LIBS)

# Test tool: the Run calls busctl cannot make (tests/integration/t_daemon.sh).
$(B)/bus-call: tests/tools/bus-call.c
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) -O1 -o $@ $< $(shell $(PKG_CONFIG) --libs libsystemd 2>/dev/null)

# The probe runs inside jails: static, so it needs nothing from the jail's /usr.
$(B)/probe: tests/probe/probe.c
	@mkdir -p $(@D)
	$(CC) -static -O2 -std=gnu17 -Wall -Wextra -Werror -o $@ $<

# Unit tests link the library pieces they test, under ASan+UBSan.
$(B)/tests/%: tests/unit/%.c tests/unit/unit.h $(LIB_SRCS) $(POLICY_SRCS) $(DAEMON_LIB_SRCS) sbx-run/options.c $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(SAN) -o $@ $< $(LIB_SRCS) $(POLICY_SRCS) $(DAEMON_LIB_SRCS) sbx-run/options.c $(GEN_SRC) $(RUN_LIBS)

# Fuzz targets double as corpus regression tests (a plain main over the corpus).
$(B)/fuzz/%-regress: tests/fuzz/%.c tests/fuzz/regress_main.c $(LIB_SRCS) $(POLICY_SRCS) $(DAEMON_LIB_SRCS) sbx-run/options.c $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(SAN) -o $@ $< tests/fuzz/regress_main.c $(LIB_SRCS) $(POLICY_SRCS) $(DAEMON_LIB_SRCS) sbx-run/options.c $(GEN_SRC) $(RUN_LIBS)

$(B)/fuzz/%: tests/fuzz/%.c $(LIB_SRCS) $(POLICY_SRCS) $(DAEMON_LIB_SRCS) sbx-run/options.c $(HDRS)
	@mkdir -p $(@D)
	$(CLANG) $(BASE_CFLAGS) -O1 -fsanitize=fuzzer,address,undefined -o $@ $< $(LIB_SRCS) $(POLICY_SRCS) $(DAEMON_LIB_SRCS) sbx-run/options.c $(GEN_SRC) $(RUN_LIBS)

unit: $(GEN_SRC) $(addprefix $(B)/tests/,$(UNIT_TESTS)) $(addprefix $(B)/fuzz/,$(addsuffix -regress,$(FUZZERS)))
asan: $(B)/asan/sbx-run $(B)/asan/sandboxd

# The one test command: everything, ASan+UBSan included; ends with "N passed, N failed".
check: deps all unit asan $(B)/bus-call
	@bash tests/run.sh

test: check

demo: deps all
	@bash contrib/demo.sh $(B)/sbx-run

bench: deps all
	$(CC) -O2 -std=gnu17 -D_GNU_SOURCE -Wall -Wextra -Werror -o $(B)/bench-launch bench/launch.c
	$(CC) $(BASE_CFLAGS) -O2 -o $(B)/bench-profile bench/profile.c $(LIB_SRCS) $(POLICY_SRCS) $(GEN_SRC) $(RUN_LIBS)
	bash bench/run.sh $(B)/sbx-run $(B)/sandboxd
	$(B)/bench-profile workspace strict git

FUZZ_SECONDS ?= 60
fuzz: $(GEN_SRC) $(addprefix $(B)/fuzz/,$(FUZZERS))
	@for f in $(FUZZERS); do \
	  mkdir -p $(B)/fuzz/corpus-$$f; \
	  $(B)/fuzz/$$f -max_total_time=$(FUZZ_SECONDS) $(B)/fuzz/corpus-$$f tests/fuzz/corpus/$${f#fuzz_} || exit 1; \
	done

# The system bus reads its policies here (sandboxd's: root may own io.sbx.Sandbox1).
DBUSDIR ?= /usr/share/dbus-1/system.d

# sandboxd.service names /usr/local/sbin/sandboxd; the installed copy names $(SBINDIR).
# The site policy is installed only where there is none: a site's own is never replaced.
install: $(B)/sbx-run $(B)/sandboxd
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
	  $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(PROFILEDIR) $(DESTDIR)$(UNITDIR) $(DESTDIR)$(DBUSDIR) $(DESTDIR)$(SYSCONFDIR)/sbx
	install -m 0755 $(B)/sbx-run $(DESTDIR)$(BINDIR)/sbx-run
	install -m 0755 $(B)/sandboxd $(DESTDIR)$(SBINDIR)/sandboxd
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
	  --include=/usr/include/systemd/sd-bus-vtable.h -q lib policy sbx-run sandboxd tools
	clang-tidy --quiet $(LIB_SRCS) $(POLICY_SRCS) $(RUN_SRCS) $(DAEMON_SRCS) tools/gen-seccomp.c -- $(BASE_CFLAGS)

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
