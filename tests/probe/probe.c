/* SPDX-License-Identifier: MIT */
/*
 * probe — the payload the integration tests run INSIDE an sbx jail.
 *
 * Runs as the jailed command (usually PID 2, no capabilities, seccomp on).
 * It is linked statically so that it needs nothing from the jail's /usr,
 * and it never decides pass or fail: every subcommand prints `key=value`
 * lines on stdout and exits 0 once the probe itself ran, so the test on
 * the host side compares exact values instead of matching human text.
 *
 * Errors are printed by errno name ("EPERM"), "ok" on success, and
 * "SIGxxx" when an attempt was killed by a signal.
 *
 * Build: gcc -static -O2 -std=gnu17 -Wall -Wextra -Werror -o build/probe tests/probe/probe.c
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <net/if.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

/* Syscall numbers newer than the build host's headers (same on every arch). */
#ifndef SYS_open_tree
#define SYS_open_tree 428
#endif
#ifndef SYS_move_mount
#define SYS_move_mount 429
#endif
#ifndef SYS_fsopen
#define SYS_fsopen 430
#endif
#ifndef SYS_fsmount
#define SYS_fsmount 432
#endif
#ifndef SYS_fspick
#define SYS_fspick 433
#endif
#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452
#endif
#ifndef SYS_setxattrat
#define SYS_setxattrat 463
#endif
#ifndef SYS_removexattrat
#define SYS_removexattrat 466
#endif

#ifndef AF_VSOCK
#define AF_VSOCK 40
#endif
#ifndef AF_XDP
#define AF_XDP 44
#endif
#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif
#ifndef MOUNT_ATTR_RDONLY
#define MOUNT_ATTR_RDONLY 0x00000001
#endif

#define UFFD_USER_MODE_ONLY_FLAG 1          /* linux/userfaultfd.h */
#define KEY_SPEC_SESSION_KEYRING_ID (-3)    /* linux/keyctl.h */
#define KEY_SPEC_PROCESS_KEYRING_ID (-2)
#define KEYCTL_GET_KEYRING_ID_CMD 0
#define NETLINK_ROUTE_PROTO 0               /* linux/netlink.h */
#define NETLINK_SOCK_DIAG_PROTO 4
#define NETLINK_AUDIT_PROTO 9
#define NETLINK_KOBJECT_UEVENT_PROTO 15
#define PF_KEY_V2_PROTO 2

/* Upper bound for `forkbomb`, so a jail without a pids limit cannot hurt the host. */
#define FORKBOMB_MAX 1000

/* The kernel's fixed inode numbers of the initial namespaces (include/linux/
 * proc_ns.h); the default "this is the host" answer of in_new_ns(). */
#define PROC_PID_INIT_INO 0xEFFFFFFCUL
#define PROC_MNT_INIT_INO 0xEFFFFFF8UL

/* ---------------------------------------------------------------- output */

/* Values go on one line; anything unprintable (a newline in an env value)
 * is escaped so that one key never spills into the next line. */
static void put_escaped(const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\\')
			fputs("\\\\", stdout);
		else if (c < 0x20 || c == 0x7f)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
}

__attribute__((format(printf, 2, 3)))
static void kv(const char *key, const char *fmt, ...)
{
	char buf[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	put_escaped(key);
	putchar('=');
	put_escaped(buf);
	putchar('\n');
}

static const char *errname(int err)
{
	static char buf[32];
	const char *n = strerrorname_np(err);

	if (n)
		return n;
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}

/* "ok" for 0, else the errno name. */
static void kv_result(const char *key, int err)
{
	kv(key, "%s", err == 0 ? "ok" : errname(err));
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Prints `key=1,2,3` from an int array, sorted. */
static void kv_int_list(const char *key, int *v, size_t n)
{
	char buf[8192] = "";
	size_t off = 0;

	qsort(v, n, sizeof(*v), cmp_int);
	for (size_t i = 0; i < n && off < sizeof(buf) - 16; i++)
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%d", i ? "," : "", v[i]);
	kv(key, "%s", buf);
}

static long parse_long(const char *s, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end) {
		fprintf(stderr, "probe: bad %s '%s'\n", what, s);
		exit(2);
	}
	return v;
}

static double parse_seconds(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || v < 0) {
		fprintf(stderr, "probe: bad seconds '%s'\n", s);
		exit(2);
	}
	return v;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_s(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s, .tv_nsec = (long)((s - (double)(time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* The inode of one of our namespaces, 0 if unknown. */
static unsigned long ns_inode(const char *ns)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/self/ns/%s", ns);
	return stat(path, &st) < 0 ? 0 : (unsigned long)st.st_ino;
}

/* Safety catch for the subcommands that would harm the host if the jail
 * failed to isolate them (kill(-1), remounting /): they only act in a
 * namespace other than the host's. HOST is the host's inode as the test
 * read it (argument), or NULL to compare with the initial namespace. A
 * refusal prints result=refused-host-ns, which no test accepts. */
static bool in_new_ns(const char *ns, const char *host, unsigned long init_ino)
{
	unsigned long own = ns_inode(ns);
	unsigned long other = host ? strtoul(host, NULL, 10) : init_ino;

	if (own != 0 && own != other)
		return true;
	kv("result", "refused-host-ns");
	return false;
}

/* ---------------------------------------------------------------- status */

/* Copies the security-relevant lines of /proc/self/status verbatim. */
static void status_proc_fields(void)
{
	static const char *const keys[] = {
		"CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb",
		"NoNewPrivs", "Seccomp", "Seccomp_filters",
	};
	char line[512];
	FILE *f = fopen("/proc/self/status", "re");

	if (!f) {
		kv("proc_status", "%s", errname(errno));
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			if (strcmp(line, keys[i]) != 0)
				continue;
			char *v = colon + 1;
			v += strspn(v, " \t");
			v[strcspn(v, "\n")] = '\0';
			kv(keys[i], "%s", v);
		}
	}
	fclose(f);
}

static void status_ids(void)
{
	uid_t ru, eu, su;
	gid_t rg, eg, sg;
	gid_t groups[256];
	int n, ints[256];

	getresuid(&ru, &eu, &su);
	getresgid(&rg, &eg, &sg);
	kv("uid", "%u", ru);
	kv("euid", "%u", eu);
	kv("suid", "%u", su);
	kv("gid", "%u", rg);
	kv("egid", "%u", eg);
	kv("sgid", "%u", sg);
	n = getgroups(256, groups);
	if (n < 0)
		n = 0;
	for (int i = 0; i < n; i++)
		ints[i] = (int)groups[i];
	kv_int_list("groups", ints, (size_t)n);
}

/* The same facts from system calls, for a jail without /proc (the container-userns
 * tier's proc=none): capability sets as hex, no_new_privs, the seccomp mode (2: a
 * filter). */
static void status_syscalls(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = { 0 };
	unsigned long long bnd = 0, amb = 0;

	if (syscall(SYS_capget, &h, d) == 0) {
		kv("sys.CapEff", "%016llx", (unsigned long long)d[1].effective << 32 | d[0].effective);
		kv("sys.CapPrm", "%016llx", (unsigned long long)d[1].permitted << 32 | d[0].permitted);
		kv("sys.CapInh", "%016llx", (unsigned long long)d[1].inheritable << 32 | d[0].inheritable);
	}
	for (int c = 0; c < 64; c++) {
		if (prctl(PR_CAPBSET_READ, c, 0, 0, 0) == 1)
			bnd |= 1ull << c;
		if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, c, 0, 0) == 1)
			amb |= 1ull << c;
	}
	kv("sys.CapBnd", "%016llx", bnd);
	kv("sys.CapAmb", "%016llx", amb);
	kv("sys.NoNewPrivs", "%d", prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
	kv("sys.Seccomp", "%d", prctl(PR_GET_SECCOMP, 0, 0, 0, 0));
}

/* Namespace identity is the inode in "pid:[4026531836]"; the host compares it
 * with its own to prove every namespace is new. */
static void status_namespaces(void)
{
	static const char *const ns[] = { "pid", "net", "mnt", "uts", "ipc", "cgroup", "user", "time" };

	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		char path[64], target[128], key[32];
		ssize_t n;

		snprintf(path, sizeof(path), "/proc/self/ns/%s", ns[i]);
		snprintf(key, sizeof(key), "ns.%s", ns[i]);
		n = readlink(path, target, sizeof(target) - 1);
		if (n < 0) {
			kv(key, "%s", errname(errno));
			continue;
		}
		target[n] = '\0';
		char *lb = strchr(target, '[');
		if (lb)
			target[strcspn(target, "]")] = '\0';
		kv(key, "%s", lb ? lb + 1 : target);
	}
}

/* Every fd but the one opendir() uses to list them: a leak from the caller
 * (CVE-2016-9962 class) shows up here. */
static void status_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int fds[1024];
	size_t n = 0;

	if (!d) {
		kv("fds", "%s", errname(errno));
		return;
	}
	while ((e = readdir(d)) && n < 1024) {
		if (e->d_name[0] == '.')
			continue;
		int fd = atoi(e->d_name);
		if (fd == dirfd(d))
			continue;
		fds[n++] = fd;
	}
	kv_int_list("fds", fds, n);
	for (size_t i = 0; i < n; i++) {
		char path[64], target[PATH_MAX], key[32];
		ssize_t len;

		snprintf(path, sizeof(path), "/proc/self/fd/%d", fds[i]);
		snprintf(key, sizeof(key), "fd.%d", fds[i]);
		len = readlink(path, target, sizeof(target) - 1);
		target[len < 0 ? 0 : len] = '\0';
		kv(key, "%s", target);
	}
	closedir(d);
}

static void status_env(void)
{
	extern char **environ;
	char *names[1024];
	char list[8192] = "";
	size_t n = 0, off = 0;

	for (char **e = environ; *e && n < 1024; e++) {
		char *eq = strchr(*e, '=');
		size_t len = eq ? (size_t)(eq - *e) : strlen(*e);
		char key[300];

		names[n++] = strndup(*e, len);
		snprintf(key, sizeof(key), "env.%.*s", (int)(len > 256 ? 256 : len), *e);
		kv(key, "%s", eq ? eq + 1 : "");
	}
	qsort(names, n, sizeof(names[0]), cmp_str);
	for (size_t i = 0; i < n; i++) {
		if (off < sizeof(list) - 1)
			off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s", i ? "," : "", names[i]);
		free(names[i]);
	}
	kv("env_names", "%s", list);
}

/* Numeric /proc entries: the processes this PID namespace can see. */
static void status_procs(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int pids[4096];
	size_t n = 0;

	if (!d) {
		kv("procs", "%s", errname(errno));
		return;
	}
	while ((e = readdir(d)) && n < 4096)
		if (e->d_name[0] >= '0' && e->d_name[0] <= '9')
			pids[n++] = atoi(e->d_name);
	closedir(d);
	kv("nprocs", "%zu", n);
	kv_int_list("procs", pids, n);
}

static void status_netifs(void)
{
	struct if_nameindex *ifs = if_nameindex();
	char list[1024] = "";
	size_t off = 0;
	int s;

	if (!ifs) {
		kv("netifs", "%s", errname(errno));
		return;
	}
	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	for (struct if_nameindex *i = ifs; i->if_index; i++) {
		struct ifreq ifr = { 0 };
		char key[64];

		if (off < sizeof(list) - 1)
			off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s", off ? "," : "", i->if_name);
		snprintf(ifr.ifr_name, IFNAMSIZ, "%s", i->if_name);
		snprintf(key, sizeof(key), "if.%s", i->if_name);
		if (s < 0 || ioctl(s, SIOCGIFFLAGS, &ifr) < 0)
			kv(key, "%s", errname(errno));
		else
			kv(key, "%s", (ifr.ifr_flags & IFF_UP) ? "up" : "down");
	}
	if (s >= 0)
		close(s);
	if_freenameindex(ifs);
	kv("netifs", "%s", list);
}

static int cmd_status(char **argv)
{
	struct utsname u;
	char cwd[PATH_MAX];

	(void)argv;
	status_ids();
	status_proc_fields();
	status_syscalls();
	status_namespaces();
	status_fds();
	status_env();
	uname(&u);
	kv("hostname", "%s", u.nodename);
	kv("pid", "%d", getpid());
	kv("ppid", "%d", getppid());
	kv("sid", "%d", getsid(0));
	kv("pgid", "%d", getpgid(0));
	kv("cwd", "%s", getcwd(cwd, sizeof(cwd)) ? cwd : errname(errno));
	status_procs();
	status_netifs();
	kv("result", "ok");
	return 0;
}

/* ---------------------------------------------------------------- files */

/* PTRACE_ATTACH to PID (this jail's, or a host PID the jail cannot name), then
 * detaches: result= is what the kernel said. */
static int cmd_ptrace_attach(char **argv)
{
	pid_t pid = (pid_t)strtol(argv[0], NULL, 10);
	int err = 0;

	if (ptrace(PTRACE_ATTACH, pid, NULL, NULL) < 0) {
		err = errno;
	} else {
		waitpid(pid, NULL, __WALL);
		ptrace(PTRACE_DETACH, pid, NULL, NULL);
	}
	kv_result("result", err);
	return 0;
}

static int cmd_read(char **argv)
{
	char buf[65536];
	ssize_t n, total = 0;
	int fd = open(argv[0], O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

	if (fd < 0) {
		kv_result("result", errno);
		return 0;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		total += n;
	kv_result("result", n < 0 ? errno : 0);
	kv("bytes", "%zd", total);
	close(fd);
	return 0;
}

/* write PATH [BYTES]: creates or truncates PATH and writes BYTES bytes
 * (default: the 10 bytes "sbx-probe\n", which the host side checks for). */
static int cmd_write(char **argv)
{
	static const char marker[] = "sbx-probe\n";
	long want = argv[1] ? parse_long(argv[1], "bytes") : (long)strlen(marker);
	char buf[65536];
	long done = 0;
	int fd, err = 0;

	fd = open(argv[0], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0644);
	if (fd < 0) {
		kv_result("result", errno);
		return 0;
	}
	memset(buf, 'x', sizeof(buf));
	if (!argv[1])
		memcpy(buf, marker, strlen(marker));
	while (done < want) {
		size_t chunk = (size_t)(want - done) < sizeof(buf) ? (size_t)(want - done) : sizeof(buf);
		ssize_t n = write(fd, buf, chunk);
		if (n < 0) {
			err = errno;
			break;
		}
		done += n;
	}
	/* ENOSPC on a tmpfs may only surface at close/fsync. */
	if (!err && fsync(fd) < 0 && errno != EINVAL)
		err = errno;
	if (close(fd) < 0 && !err)
		err = errno;
	kv_result("result", err);
	kv("bytes", "%ld", done);
	return 0;
}

static int cmd_ls(char **argv)
{
	DIR *d = opendir(argv[0]);
	struct dirent *e;
	char *names[4096];
	size_t n = 0;

	if (!d) {
		kv_result("result", errno);
		return 0;
	}
	while ((e = readdir(d)) && n < 4096)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			names[n++] = strdup(e->d_name);
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_str);
	for (size_t i = 0; i < n; i++) {
		kv("entry", "%s", names[i]);
		free(names[i]);
	}
	kv("count", "%zu", n);
	kv("result", "ok");
	return 0;
}

/* remount-rw PATH [HOST_MNTNS]: the two ways to make a read-only bind
 * writable again, then a real write to see what the kernel actually allows.
 * Only in a mount namespace other than the host's (see in_new_ns). */
static int cmd_remount_rw(char **argv)
{
	const char *path = argv[0];
	struct { uint64_t attr_set, attr_clr, propagation, userns_fd; } attr = {
		.attr_clr = MOUNT_ATTR_RDONLY,
	};
	char file[PATH_MAX];
	int fd;

	if (!in_new_ns("mnt", argv[1], PROC_MNT_INIT_INO))
		return 0;
	kv_result("remount", mount(NULL, path, NULL, MS_REMOUNT | MS_BIND, NULL) < 0 ? errno : 0);
	kv_result("mount_setattr",
		  syscall(SYS_mount_setattr, AT_FDCWD, path, 0, &attr, sizeof(attr)) < 0 ? errno : 0);
	snprintf(file, sizeof(file), "%s/.sbx-probe-remount-%d", path, getpid());
	fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	kv_result("write_after", fd < 0 ? errno : 0);
	if (fd >= 0) {
		close(fd);
		unlink(file);
	}
	kv("result", "ok");
	return 0;
}

static int mode_of(const char *path)
{
	struct stat st;

	return stat(path, &st) < 0 ? -1 : (int)(st.st_mode & 07777);
}

static void kv_mode(const char *key, const char *path)
{
	int m = mode_of(path);

	if (m < 0)
		kv(key, "%s", errname(errno));
	else
		kv(key, "%04o", (unsigned)m);
}

/* suid-create DIR: every way to end up with a set-id file that the host
 * might later run as its owner; the final mode is what matters. */
static int cmd_suid_create(char **argv)
{
	char p[PATH_MAX];
	int fd;

	umask(0);

	snprintf(p, sizeof(p), "%s/suid-open", argv[0]);
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 04755);
	kv_result("open", fd < 0 ? errno : 0);
	if (fd >= 0)
		close(fd);
	kv_mode("open_mode", p);

	snprintf(p, sizeof(p), "%s/sgid-open", argv[0]);
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 02755);
	if (fd >= 0)
		close(fd);
	kv_mode("open_sgid_mode", p);

	snprintf(p, sizeof(p), "%s/suid-chmod", argv[0]);
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
	kv_result("chmod", chmod(p, 04755) < 0 ? errno : 0);
	kv_result("fchmod", fd >= 0 && fchmod(fd, 06755) < 0 ? errno : (fd < 0 ? EBADF : 0));
	kv_result("fchmodat", fchmodat(AT_FDCWD, p, 02755, 0) < 0 ? errno : 0);
	kv_result("fchmodat2", syscall(SYS_fchmodat2, AT_FDCWD, p, 04755, 0) < 0 ? errno : 0);
	if (fd >= 0)
		close(fd);
	kv_mode("chmod_mode", p);

	snprintf(p, sizeof(p), "%s/suid-mknod", argv[0]);
	kv_result("mknod", mknod(p, S_IFREG | 04755, 0) < 0 ? errno : 0);
	kv_mode("mknod_mode", p);

	snprintf(p, sizeof(p), "%s/sgid-dir", argv[0]);
	kv_result("mkdir", mkdir(p, 02755) < 0 ? errno : 0);
	kv_mode("mkdir_mode", p);
	kv("result", "ok");
	return 0;
}

/* write-sys: kernel knobs that must be read-only even for uid 0 inside.
 * Only values that are harmless if the write went through are written
 * (the hostname is written back unchanged); the rest are just opened for
 * writing, which a read-only mount already refuses. */
static int cmd_write_sys(char **argv)
{
	static const char *const open_only[] = {
		"/proc/sysrq-trigger",
		"/proc/sys/kernel/core_pattern",     /* pipe handler = code as root on the host */
		"/proc/sys/kernel/modprobe",
		"/sys/kernel/uevent_helper",
		"/sys/kernel/mm/transparent_hugepage/enabled",
		"/sys/fs/cgroup/cgroup.procs",
		"/proc/sys/net/ipv4/ip_forward",
	};
	char host[256] = "";
	int fd;
	(void)argv;

	fd = open("/proc/sys/kernel/hostname", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t n = read(fd, host, sizeof(host) - 1);
		host[n > 0 ? n : 0] = '\0';
		close(fd);
	}
	fd = open("/proc/sys/kernel/hostname", O_WRONLY | O_CLOEXEC);
	kv_result("w./proc/sys/kernel/hostname",
		  fd < 0 ? errno : (write(fd, host, strlen(host)) < 0 ? errno : 0));
	if (fd >= 0)
		close(fd);

	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	kv_result("w./proc/sys/vm/drop_caches", fd < 0 ? errno : (write(fd, "1", 1) < 0 ? errno : 0));
	if (fd >= 0)
		close(fd);

	for (size_t i = 0; i < sizeof(open_only) / sizeof(open_only[0]); i++) {
		char key[PATH_MAX];

		snprintf(key, sizeof(key), "w.%s", open_only[i]);
		fd = open(open_only[i], O_WRONLY | O_CLOEXEC);
		kv_result(key, fd < 0 ? errno : 0);
		if (fd >= 0)
			close(fd);
	}
	kv("result", "ok");
	return 0;
}

/* environ1: PID 1 of the jail is sbx's own init; if it was forked from the
 * launcher with the caller's environment, /proc/1/environ leaks it. */
static int cmd_environ1(char **argv)
{
	char buf[65536];
	ssize_t n;
	int fd;
	(void)argv;

	fd = open("/proc/1/environ", O_RDONLY | O_CLOEXEC);
	n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	kv_result("environ", n < 0 ? errno : 0);
	if (n > 0) {
		buf[n] = '\0';
		for (char *p = buf; p < buf + n; p += strlen(p) + 1)
			kv("environ.entry", "%s", p);
	}
	kv("environ_bytes", "%zd", n < 0 ? (ssize_t)0 : n);
	if (fd >= 0)
		close(fd);

	fd = open("/proc/1/cmdline", O_RDONLY | O_CLOEXEC);
	n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	kv_result("cmdline", n < 0 ? errno : 0);
	if (n > 0) {
		for (ssize_t i = 0; i < n - 1; i++)
			if (!buf[i])
				buf[i] = ' ';
		buf[n] = '\0';
		kv("cmdline_text", "%s", buf);
	}
	if (fd >= 0)
		close(fd);

	/* /proc/1/mem would let the command rewrite its own init. */
	fd = open("/proc/1/mem", O_RDWR | O_CLOEXEC);
	kv_result("mem", fd < 0 ? errno : 0);
	if (fd >= 0)
		close(fd);
	kv("result", "ok");
	return 0;
}

static int cmd_mounts(char **argv)
{
	char line[4096];
	FILE *f = fopen("/proc/self/mountinfo", "re");
	(void)argv;

	if (!f) {
		kv_result("result", errno);
		return 0;
	}
	/* id parent maj:min root mountpoint opts [optional...] - fstype source superopts */
	while (fgets(line, sizeof(line), f)) {
		char *field[6] = { 0 }, *save = NULL, *tok, *fstype = NULL;
		int i = 0;
		char key[PATH_MAX + 16];

		for (tok = strtok_r(line, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
			if (i < 6)
				field[i] = tok;
			else if (strcmp(tok, "-") == 0) {
				fstype = strtok_r(NULL, " \n", &save);
				break;
			}
			i++;
		}
		if (!field[5])
			continue;
		snprintf(key, sizeof(key), "mount.%s", field[4]);
		kv(key, "%s", field[5]);
		snprintf(key, sizeof(key), "fstype.%s", field[4]);
		kv(key, "%s", fstype ? fstype : "?");
	}
	fclose(f);
	kv("result", "ok");
	return 0;
}

/* Counts SysV IPC objects this IPC namespace can see (header line excluded). */
static int cmd_sysvipc(char **argv)
{
	static const char *const kinds[] = { "shm", "msg", "sem" };
	(void)argv;

	for (size_t i = 0; i < 3; i++) {
		char path[64], line[512];
		FILE *f;
		int n = -1;

		snprintf(path, sizeof(path), "/proc/sysvipc/%s", kinds[i]);
		f = fopen(path, "re");
		if (!f) {
			kv(kinds[i], "%s", errname(errno));
			continue;
		}
		while (fgets(line, sizeof(line), f))
			n++;
		fclose(f);
		kv(kinds[i], "%d", n < 0 ? 0 : n);
	}
	kv("result", "ok");
	return 0;
}

/* ---------------------------------------------------------------- network, signals */

/* Non-blocking connect bounded to 2 s, so a filtered (dropped) destination
 * reports ETIMEDOUT instead of hanging the test. */
static int connect_bounded(int s, const struct sockaddr *sa, socklen_t len)
{
	struct pollfd p = { .fd = s, .events = POLLOUT };
	int err = 0;
	socklen_t elen = sizeof(err);

	if (connect(s, sa, len) == 0)
		return 0;
	if (errno != EINPROGRESS)
		return errno;
	if (poll(&p, 1, 2000) <= 0)
		return ETIMEDOUT;
	getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &elen);
	return err;
}

static int cmd_connect_tcp(char **argv)
{
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6 };
	struct sockaddr_in a4 = { .sin_family = AF_INET };
	long port = parse_long(argv[1], "port");
	int s, err;

	if (inet_pton(AF_INET, argv[0], &a4.sin_addr) == 1) {
		a4.sin_port = htons((uint16_t)port);
		s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		err = s < 0 ? errno : connect_bounded(s, (struct sockaddr *)&a4, sizeof(a4));
	} else if (inet_pton(AF_INET6, argv[0], &a6.sin6_addr) == 1) {
		a6.sin6_port = htons((uint16_t)port);
		s = socket(AF_INET6, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		err = s < 0 ? errno : connect_bounded(s, (struct sockaddr *)&a6, sizeof(a6));
	} else {
		fprintf(stderr, "probe: bad address '%s'\n", argv[0]);
		return 2;
	}
	kv_result("result", err);
	if (s >= 0)
		close(s);
	return 0;
}

static int connect_unix(const char *name, bool abstract)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t len = strlen(name);
	socklen_t salen;
	int s, err;

	if (len + 1 >= sizeof(sa.sun_path))
		return ENAMETOOLONG;
	memcpy(sa.sun_path + (abstract ? 1 : 0), name, len);
	salen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len + (abstract ? 1 : 0));
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (s < 0)
		return errno;
	err = connect_bounded(s, (struct sockaddr *)&sa, salen);
	close(s);
	return err;
}

static int cmd_connect_abstract(char **argv)
{
	kv_result("result", connect_unix(argv[0], true));
	return 0;
}

static int cmd_connect_unix(char **argv)
{
	kv_result("result", connect_unix(argv[0], false));
	return 0;
}

static int cmd_kill(char **argv)
{
	pid_t pid = (pid_t)parse_long(argv[0], "pid");
	int sig = (int)parse_long(argv[1], "signal");

	/* kill(-1) or a process group outside a PID namespace is the host. */
	if (pid <= 1 && !in_new_ns("pid", argv[2], PROC_PID_INIT_INO))
		return 0;
	kv_result("result", kill(pid, sig) < 0 ? errno : 0);
	return 0;
}

/* ---------------------------------------------------------------- syscalls */

/* Each attempt runs in its own child (see run_attempt), so one that the
 * kernel would allow cannot change the state the next one sees, and one
 * that kills its caller (SECCOMP_RET_KILL) shows up as a signal. Arguments
 * are chosen so that, with no seccomp filter, the call either fails with an
 * errno other than EPERM or succeeds harmlessly: the test can tell "denied
 * by the filter" from "denied by missing capabilities" where the kernel
 * allows it, and the probe can run on a bare host without side effects. */

#define TRY(call) ((call) < 0 ? errno : 0)

static char g_tmpdir[256];  /* a scratch dir for the chmod/mknod attempts */

static int try_mount(void)
{
	return TRY(mount("sbxprobe", "/nonexistent-sbx-probe", "tmpfs", 0, NULL));
}
static int try_umount2(void) { return TRY(umount2("/nonexistent-sbx-probe", 0)); }
static int try_pivot_root(void)
{
	return TRY(syscall(SYS_pivot_root, "/nonexistent-sbx-a", "/nonexistent-sbx-b"));
}
static int try_open_tree(void) { return TRY(syscall(SYS_open_tree, AT_FDCWD, "/", 0)); }
static int try_fsopen(void) { return TRY(syscall(SYS_fsopen, "tmpfs", 1)); }
static int try_fsmount(void) { return TRY(syscall(SYS_fsmount, -1, 0, 0)); }
static int try_fspick(void) { return TRY(syscall(SYS_fspick, AT_FDCWD, "/", 0)); }
static int try_move_mount(void)
{
	return TRY(syscall(SYS_move_mount, -1, "", -1, "/nonexistent-sbx-probe", 0));
}
static int try_mount_setattr(void) { return TRY(syscall(SYS_mount_setattr, -1, "", 0, NULL, 0)); }

static int try_unshare_flag(int flag) { return TRY(unshare(flag)); }
static int try_unshare_newns(void) { return try_unshare_flag(CLONE_NEWNS); }
static int try_unshare_newuts(void) { return try_unshare_flag(CLONE_NEWUTS); }
static int try_unshare_newipc(void) { return try_unshare_flag(CLONE_NEWIPC); }
static int try_unshare_newnet(void) { return try_unshare_flag(CLONE_NEWNET); }
static int try_unshare_newpid(void) { return try_unshare_flag(CLONE_NEWPID); }
static int try_unshare_newcgroup(void) { return try_unshare_flag(CLONE_NEWCGROUP); }
static int try_unshare_newtime(void) { return try_unshare_flag(CLONE_NEWTIME); }
/* The one a process without capabilities could otherwise do, and the door
 * to a namespace where it holds every capability again. */
static int try_unshare_newuser(void) { return try_unshare_flag(CLONE_NEWUSER); }

static int try_setns(void)
{
	int fd = open("/proc/self/ns/uts", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return errno;
	return TRY(setns(fd, CLONE_NEWUTS));
}

static int wait_clone_child(long pid)
{
	if (pid < 0)
		return errno;
	if (pid == 0)
		_exit(0);
	waitpid((pid_t)pid, NULL, 0);
	return 0;
}

static int try_clone_newuser(void)
{
	return wait_clone_child(syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0));
}

/* clone3 takes its flags behind a pointer that seccomp cannot read, so a
 * filter must refuse clone3 outright (ENOSYS makes libc fall back to clone). */
static int try_clone3_newuser(void)
{
	struct { uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls; } args = {
		.flags = CLONE_NEWUSER,
		.exit_signal = SIGCHLD,
	};
	return wait_clone_child(syscall(SYS_clone3, &args, sizeof(args)));
}

static int try_bpf(void) { return TRY(syscall(SYS_bpf, 5 /* BPF_PROG_LOAD */, NULL, 0)); }
static int try_perf_event_open(void) { return TRY(syscall(SYS_perf_event_open, NULL, 0, -1, -1, 0)); }
static int try_keyctl(void)
{
	return TRY(syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID_CMD, KEY_SPEC_SESSION_KEYRING_ID, 0));
}
static int try_add_key(void)
{
	return TRY(syscall(SYS_add_key, "user", "sbxprobe", "x", 1, KEY_SPEC_PROCESS_KEYRING_ID));
}
static int try_request_key(void)
{
	return TRY(syscall(SYS_request_key, "user", "sbxprobe-absent", NULL, KEY_SPEC_PROCESS_KEYRING_ID));
}
/* Invalid flags: EINVAL if the call got as far as the kernel's own checks. */
static int try_kexec_load(void) { return TRY(syscall(SYS_kexec_load, 0, 0, NULL, 0xdead0000UL)); }
static int try_kexec_file_load(void)
{
	return TRY(syscall(SYS_kexec_file_load, -1, -1, 0, NULL, 0xdead0000UL));
}
static int try_init_module(void) { return TRY(syscall(SYS_init_module, NULL, 0, "")); }
static int try_finit_module(void) { return TRY(syscall(SYS_finit_module, -1, "", 0)); }
static int try_delete_module(void) { return TRY(syscall(SYS_delete_module, "sbxprobe_absent", O_NONBLOCK)); }

static int try_ptrace_traceme(void) { return TRY(ptrace(PTRACE_TRACEME, 0, NULL, NULL)); }

/* Attaches to a child of our own (allowed by every Yama level), so the only
 * thing that can refuse it is the filter. */
static int try_ptrace_attach(void)
{
	pid_t victim = fork();
	int err;

	if (victim < 0)
		return errno;
	if (victim == 0) {
		for (;;)
			pause();
	}
	err = TRY(ptrace(PTRACE_ATTACH, victim, NULL, NULL));
	kill(victim, SIGKILL);
	waitpid(victim, NULL, 0);
	return err;
}

static int try_process_vm_readv(void)
{
	return TRY(syscall(SYS_process_vm_readv, getppid(), NULL, 0, NULL, 0, 0));
}
static int try_process_vm_writev(void)
{
	return TRY(syscall(SYS_process_vm_writev, getppid(), NULL, 0, NULL, 0, 0));
}

/* The "shocker" container escape: open any inode of the host by handle. */
static int try_open_by_handle_at(void)
{
	struct { unsigned int bytes; int type; unsigned char h[8]; } fh = { .bytes = 8, .type = 1 };
	return TRY(syscall(SYS_open_by_handle_at, AT_FDCWD, &fh, O_RDONLY));
}

/* UFFD_USER_MODE_ONLY needs no capability, so only the filter can refuse. */
static int try_userfaultfd(void)
{
	return TRY(syscall(SYS_userfaultfd, O_CLOEXEC | UFFD_USER_MODE_ONLY_FLAG));
}

static int try_io_uring_setup(void)
{
	unsigned char params[120] = { 0 };  /* struct io_uring_params, all zero */
	return TRY(syscall(SYS_io_uring_setup, 1, params));
}

static int try_personality_no_randomize(void)
{
	return TRY(syscall(SYS_personality, PER_LINUX | ADDR_NO_RANDOMIZE));
}
static int try_personality_read_implies_exec(void)
{
	return TRY(syscall(SYS_personality, PER_LINUX | READ_IMPLIES_EXEC));
}

/* fd -1: without the filter the kernel answers EBADF, so EPERM can only be
 * the filter. The second form sets bits above 32 that the kernel ignores
 * but a naive 64-bit comparison does not (CVE-2019-10063). */
static int try_ioctl_tiocsti(void)
{
	char c = 'x';
	return TRY(syscall(SYS_ioctl, -1, (unsigned long)TIOCSTI, &c));
}
static int try_ioctl_tiocsti_hibits(void)
{
	char c = 'x';
	return TRY(syscall(SYS_ioctl, -1, (unsigned long)TIOCSTI | 0x100000000UL, &c));
}
static int try_ioctl_tioclinux(void)
{
	char c = 6;
	return TRY(syscall(SYS_ioctl, -1, (unsigned long)TIOCLINUX, &c));
}

static int scratch_file(char *p, size_t len, const char *name)
{
	int fd;

	snprintf(p, len, "%s/%s", g_tmpdir, name);
	fd = open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0755);
	if (fd < 0)
		return -1;
	return fd;
}

static int try_chmod_suid(void)
{
	char p[PATH_MAX];
	int fd = scratch_file(p, sizeof(p), "f");

	if (fd < 0)
		return errno;
	return TRY(syscall(SYS_chmod, p, 04755));
}
static int try_fchmod_suid(void)
{
	char p[PATH_MAX];
	int fd = scratch_file(p, sizeof(p), "f");

	if (fd < 0)
		return errno;
	return TRY(fchmod(fd, 04755));
}
static int try_fchmodat_sgid(void)
{
	char p[PATH_MAX];
	int fd = scratch_file(p, sizeof(p), "f");

	if (fd < 0)
		return errno;
	return TRY(syscall(SYS_fchmodat, AT_FDCWD, p, 02755));
}
/* Linux 6.6; a filter written from an older syscall list misses it. */
static int try_fchmodat2_suid(void)
{
	char p[PATH_MAX];
	int fd = scratch_file(p, sizeof(p), "f");

	if (fd < 0)
		return errno;
	return TRY(syscall(SYS_fchmodat2, AT_FDCWD, p, 04755, 0));
}
static int try_mknod_chr(void)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/null", g_tmpdir);
	return TRY(mknod(p, S_IFCHR | 0600, makedev(1, 3)));
}

static int try_socket(int family, int type, int proto) { return TRY(socket(family, type | SOCK_CLOEXEC, proto)); }
static int try_socket_packet(void) { return try_socket(AF_PACKET, SOCK_RAW, htons(0x0003)); }
static int try_socket_vsock(void) { return try_socket(AF_VSOCK, SOCK_STREAM, 0); }
static int try_socket_key(void) { return try_socket(AF_KEY, SOCK_RAW, PF_KEY_V2_PROTO); }
static int try_socket_alg(void) { return try_socket(AF_ALG, SOCK_SEQPACKET, 0); }
static int try_socket_bluetooth(void) { return try_socket(AF_BLUETOOTH, SOCK_RAW, 1); }
static int try_socket_tipc(void) { return try_socket(AF_TIPC, SOCK_RDM, 0); }
static int try_socket_rds(void) { return try_socket(AF_RDS, SOCK_SEQPACKET, 0); }
static int try_socket_xdp(void) { return try_socket(AF_XDP, SOCK_RAW, 0); }
static int try_socket_can(void) { return try_socket(AF_CAN, SOCK_RAW, 1); }
static int try_socket_appletalk(void) { return try_socket(AF_APPLETALK, SOCK_DGRAM, 0); }
static int try_socket_x25(void) { return try_socket(AF_X25, SOCK_SEQPACKET, 0); }
static int try_socket_llc(void) { return try_socket(AF_LLC, SOCK_DGRAM, 0); }
static int try_socket_netlink_audit(void) { return try_socket(AF_NETLINK, SOCK_RAW, NETLINK_AUDIT_PROTO); }
static int try_socket_netlink_uevent(void)
{
	return try_socket(AF_NETLINK, SOCK_RAW, NETLINK_KOBJECT_UEVENT_PROTO);
}
static int try_socket_netlink_sock_diag(void) { return try_socket(AF_NETLINK, SOCK_RAW, NETLINK_SOCK_DIAG_PROTO); }
/* The families the contract allows: these must keep working. */
static int try_socket_netlink_route(void) { return try_socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE_PROTO); }
static int try_socket_unix(void) { return try_socket(AF_UNIX, SOCK_STREAM, 0); }
static int try_socket_inet(void) { return try_socket(AF_INET, SOCK_STREAM, 0); }
static int try_socket_inet6(void) { return try_socket(AF_INET6, SOCK_DGRAM, 0); }

/* Same name as now: harmless even where it is allowed. */
static int try_sethostname(void)
{
	struct utsname u;

	uname(&u);
	return TRY(sethostname(u.nodename, strlen(u.nodename)));
}
static int try_setuid0(void) { return TRY(syscall(SYS_setuid, 0)); }
static int try_setresuid0(void) { return TRY(syscall(SYS_setresuid, 0, 0, 0)); }
static int try_setgroups0(void) { return TRY(syscall(SYS_setgroups, 0, NULL)); }
static int try_chroot(void) { return TRY(chroot("/")); }
/* Bad magic: EINVAL once past the capability check. */
static int try_reboot(void) { return TRY(syscall(SYS_reboot, 0xfee1dead, 0, 0, NULL)); }
static int try_swapon(void) { return TRY(syscall(SYS_swapon, "/nonexistent-sbx-probe", 0)); }
/* Denied by the allowlist (not named by it), not by a rule of their own; without the
 * filter each succeeds, or fails with another errno (ENOSYS where the kernel lacks it). */
static int try_sysfs(void) { return TRY(syscall(SYS_sysfs, 3)); }
static int try_ustat(void)
{
	char buf[64];
	return TRY(syscall(SYS_ustat, 0, buf));
}
static int try_uselib(void) { return TRY(syscall(SYS_uselib, "/nonexistent-sbx-probe")); }
static int try_adjtimex_read(void)
{
	unsigned char tx[208] = { 0 };  /* struct timex, modes 0: read only */
	return TRY(syscall(SYS_adjtimex, tx));
}
static int try_personality_bsd(void) { return TRY(syscall(SYS_personality, 6 /* PER_BSD */)); }
static int try_name_to_handle_at(void)
{
	unsigned char fh[136] = { 128 };  /* struct file_handle, handle_bytes 128 */
	int mount_id;
	return TRY(syscall(SYS_name_to_handle_at, AT_FDCWD, "/", fh, &mount_id, 0));
}
/* A number no kernel defines: must fail, not kill. */
static int try_syscall_1000(void) { return TRY(syscall(1000)); }

#ifdef __x86_64__
static int try_iopl(void) { return TRY(syscall(SYS_iopl, 3)); }
static int try_modify_ldt(void)
{
	unsigned char ldt[16];
	return TRY(syscall(SYS_modify_ldt, 0 /* read */, ldt, sizeof(ldt)));
}

/* The 32-bit entry point runs with another syscall table; a filter that does
 * not check the architecture lets i386 unshare(CLONE_NEWUSER) through. */
static long int80(long nr, long arg)
{
	long ret;

	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "a"(nr), "b"(arg)
			 : "memory", "r8", "r9", "r10", "r11");
	return ret;
}
static int int80_result(long r) { return r < 0 && r > -4096 ? (int)-r : 0; }
static int try_int80_getpid(void) { return int80_result(int80(20, 0)); }
static int try_int80_unshare_newuser(void) { return int80_result(int80(310, CLONE_NEWUSER)); }
/* The x32 ABI: x86_64 numbers with bit 30 set. */
static int try_x32_unshare_newuser(void) { return TRY(syscall(SYS_unshare | 0x40000000L, CLONE_NEWUSER)); }
#endif

struct attempt {
	const char *name;
	int (*fn)(void);
};

static const struct attempt attempts[] = {
	{ "mount", try_mount },
	{ "umount2", try_umount2 },
	{ "pivot_root", try_pivot_root },
	{ "open_tree", try_open_tree },
	{ "fsopen", try_fsopen },
	{ "fsmount", try_fsmount },
	{ "fspick", try_fspick },
	{ "move_mount", try_move_mount },
	{ "mount_setattr", try_mount_setattr },
	{ "unshare_newns", try_unshare_newns },
	{ "unshare_newuts", try_unshare_newuts },
	{ "unshare_newipc", try_unshare_newipc },
	{ "unshare_newnet", try_unshare_newnet },
	{ "unshare_newpid", try_unshare_newpid },
	{ "unshare_newcgroup", try_unshare_newcgroup },
	{ "unshare_newtime", try_unshare_newtime },
	{ "unshare_newuser", try_unshare_newuser },
	{ "setns", try_setns },
	{ "clone_newuser", try_clone_newuser },
	{ "clone3_newuser", try_clone3_newuser },
	{ "bpf", try_bpf },
	{ "perf_event_open", try_perf_event_open },
	{ "keyctl", try_keyctl },
	{ "add_key", try_add_key },
	{ "request_key", try_request_key },
	{ "kexec_load", try_kexec_load },
	{ "kexec_file_load", try_kexec_file_load },
	{ "init_module", try_init_module },
	{ "finit_module", try_finit_module },
	{ "delete_module", try_delete_module },
	{ "ptrace_traceme", try_ptrace_traceme },
	{ "ptrace_attach", try_ptrace_attach },
	{ "process_vm_readv", try_process_vm_readv },
	{ "process_vm_writev", try_process_vm_writev },
	{ "open_by_handle_at", try_open_by_handle_at },
	{ "userfaultfd", try_userfaultfd },
	{ "io_uring_setup", try_io_uring_setup },
	{ "personality_addr_no_randomize", try_personality_no_randomize },
	{ "personality_read_implies_exec", try_personality_read_implies_exec },
	{ "ioctl_tiocsti", try_ioctl_tiocsti },
	{ "ioctl_tiocsti_hibits", try_ioctl_tiocsti_hibits },
	{ "ioctl_tioclinux", try_ioctl_tioclinux },
	{ "chmod_suid", try_chmod_suid },
	{ "fchmod_suid", try_fchmod_suid },
	{ "fchmodat_sgid", try_fchmodat_sgid },
	{ "fchmodat2_suid", try_fchmodat2_suid },
	{ "mknod_chr", try_mknod_chr },
	{ "socket_packet", try_socket_packet },
	{ "socket_vsock", try_socket_vsock },
	{ "socket_key", try_socket_key },
	{ "socket_alg", try_socket_alg },
	{ "socket_bluetooth", try_socket_bluetooth },
	{ "socket_tipc", try_socket_tipc },
	{ "socket_rds", try_socket_rds },
	{ "socket_xdp", try_socket_xdp },
	{ "socket_can", try_socket_can },
	{ "socket_appletalk", try_socket_appletalk },
	{ "socket_x25", try_socket_x25 },
	{ "socket_llc", try_socket_llc },
	{ "socket_netlink_audit", try_socket_netlink_audit },
	{ "socket_netlink_kobject_uevent", try_socket_netlink_uevent },
	{ "socket_netlink_sock_diag", try_socket_netlink_sock_diag },
	{ "socket_netlink_route", try_socket_netlink_route },
	{ "socket_unix", try_socket_unix },
	{ "socket_inet", try_socket_inet },
	{ "socket_inet6", try_socket_inet6 },
	{ "sethostname", try_sethostname },
	{ "setuid0", try_setuid0 },
	{ "setresuid0", try_setresuid0 },
	{ "setgroups0", try_setgroups0 },
	{ "chroot", try_chroot },
	{ "reboot", try_reboot },
	{ "swapon", try_swapon },
	{ "syscall_1000", try_syscall_1000 },
	{ "sysfs", try_sysfs },
	{ "ustat", try_ustat },
	{ "uselib", try_uselib },
	{ "adjtimex_read", try_adjtimex_read },
	{ "personality_bsd", try_personality_bsd },
	{ "name_to_handle_at", try_name_to_handle_at },
#ifdef __x86_64__
	{ "iopl", try_iopl },
	{ "modify_ldt", try_modify_ldt },
	{ "int80_getpid", try_int80_getpid },
	{ "int80_unshare_newuser", try_int80_unshare_newuser },
	{ "x32_unshare_newuser", try_x32_unshare_newuser },
#endif
};

/* Runs one attempt in a child; the child's exit code carries the errno. */
static void run_attempt(const struct attempt *a)
{
	pid_t pid;
	int st;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		kv(a->name, "fork:%s", errname(errno));
		return;
	}
	if (pid == 0) {
		alarm(5);  /* nothing here may block; if it does, report SIGALRM */
		_exit(a->fn() & 0xff);
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(st))
		kv(a->name, "SIG%s", sigabbrev_np(WTERMSIG(st)) ?: "UNKNOWN");
	else
		kv_result(a->name, WEXITSTATUS(st));
}

static int cmd_syscalls(char **argv)
{
	char cmd[PATH_MAX + 16];
	(void)argv;

	snprintf(g_tmpdir, sizeof(g_tmpdir), "%s/sbxprobe-XXXXXX", getenv("PROBE_TMP") ?: "/tmp");
	if (!mkdtemp(g_tmpdir))
		snprintf(g_tmpdir, sizeof(g_tmpdir), "/nonexistent-sbx-probe");
	for (size_t i = 0; i < sizeof(attempts) / sizeof(attempts[0]); i++)
		run_attempt(&attempts[i]);
	/* Still here after every attempt: denial did not kill the caller. */
	kv("alive", "1");
	kv("result", "ok");
	fflush(stdout);
	/* Remove the scratch files; static binary, so no shell needed. */
	snprintf(cmd, sizeof(cmd), "%s/f", g_tmpdir);
	unlink(cmd);
	snprintf(cmd, sizeof(cmd), "%s/null", g_tmpdir);
	unlink(cmd);
	rmdir(g_tmpdir);
	return 0;
}

/* ---------------------------------------------------------------- memory W^X */

#ifndef PR_SET_MDWE
#define PR_SET_MDWE 65
#define PR_GET_MDWE 66
#endif
#ifndef SYS_pkey_mprotect
#define SYS_pkey_mprotect 329
#endif
#ifndef SHM_EXEC
#define SHM_EXEC 0100000
#endif

/* A function that returns 42: proof that bytes this process wrote were run. */
#if defined(__x86_64__)
static const unsigned char ret42[] = { 0xb8, 0x2a, 0x00, 0x00, 0x00, 0xc3 }; /* mov eax,42; ret */
#elif defined(__aarch64__)
static const unsigned char ret42[] = { 0x40, 0x05, 0x80, 0x52, 0xc0, 0x03, 0x5f, 0xd6 }; /* mov w0,#42; ret */
#else
#define NO_RET42 1
static const unsigned char ret42[] = { 0 };
#endif

/* Runs the code at @p: "ok" only if it returned 42. */
static int run_code(void *p)
{
	int (*fn)(void) = (int (*)(void))p;

	__builtin___clear_cache((char *)p, (char *)p + sizeof(ret42));
	return fn() == 42 ? 0 : EIO;
}

static void *map_anon(int prot)
{
	void *p = mmap(NULL, 4096, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

/* Anonymous memory mapped writable and executable at once. */
static int wx_mmap_rwx(void)
{
	void *p = map_anon(PROT_READ | PROT_WRITE | PROT_EXEC);

	if (!p)
		return errno;
	memcpy(p, ret42, sizeof(ret42));
	return run_code(p);
}

/* Written, then made writable and executable. */
static int wx_mprotect_rwx(void)
{
	void *p = map_anon(PROT_READ | PROT_WRITE);

	if (!p)
		return errno;
	memcpy(p, ret42, sizeof(ret42));
	if (mprotect(p, 4096, PROT_READ | PROT_WRITE | PROT_EXEC) < 0)
		return errno;
	return run_code(p);
}

/* Written, then made executable (not writable): the attack. */
static int wx_gain_exec(long (*protect)(void *, int))
{
	void *p = map_anon(PROT_READ | PROT_WRITE);

	if (!p)
		return errno;
	memcpy(p, ret42, sizeof(ret42));
	if (protect(p, PROT_READ | PROT_EXEC) < 0)
		return errno;
	return run_code(p);
}
static long do_mprotect(void *p, int prot) { return mprotect(p, 4096, prot); }
static long do_pkey_mprotect(void *p, int prot) { return syscall(SYS_pkey_mprotect, p, 4096, prot, -1); }
static int wx_mprotect_rx(void) { return wx_gain_exec(do_mprotect); }
static int wx_pkey_mprotect_rx(void) { return wx_gain_exec(do_pkey_mprotect); }

/* Executable first, then writable, then executable again. */
static int wx_rx_rw_rx(void)
{
	void *p = map_anon(PROT_READ | PROT_EXEC);

	if (!p)
		return errno;
	if (mprotect(p, 4096, PROT_READ | PROT_WRITE) < 0)
		return errno;
	memcpy(p, ret42, sizeof(ret42));
	if (mprotect(p, 4096, PROT_READ | PROT_EXEC) < 0)
		return errno;
	return run_code(p);
}

/* A System V segment written through one attach, run through another. */
static int wx_shmat_exec(void)
{
	int id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0700);  /* SHM_EXEC needs x */
	void *w, *x;

	if (id < 0)
		return errno;
	w = shmat(id, NULL, 0);
	shmctl(id, IPC_RMID, NULL);
	if (w == (void *)-1)
		return errno;
	memcpy(w, ret42, sizeof(ret42));
	x = shmat(id, NULL, SHM_EXEC | SHM_RDONLY);
	if (x == (void *)-1)
		return errno;
	return run_code(x);
}

/* A file written, then mapped executable: a memfd, or a file in @dir. */
static int map_file_exec(int fd)
{
	void *x;

	if (write(fd, ret42, sizeof(ret42)) != (ssize_t)sizeof(ret42))
		return errno;
	x = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (x == MAP_FAILED)
		return errno;
	return run_code(x);
}
static int wx_memfd_exec(void)
{
	int fd = (int)syscall(SYS_memfd_create, "sbx-probe", 0);
	return fd < 0 ? errno : map_file_exec(fd);
}
static int wx_file_exec(const char *dir)
{
	char p[PATH_MAX];
	int fd;

	snprintf(p, sizeof(p), "%s/.sbx-probe-code-%d", dir, getpid());
	fd = open(p, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return errno;
	unlink(p);
	return map_file_exec(fd);
}
static int wx_cwd_exec(void) { return wx_file_exec("."); }
static int wx_tmp_exec(void) { return wx_file_exec("/tmp"); }
static int wx_devshm_exec(void) { return wx_file_exec("/dev/shm"); }

/* Written into an executable mapping through /proc/self/mem, which writes past the
 * page protection (FOLL_FORCE). */
static int wx_procmem(void)
{
	void *p = map_anon(PROT_READ | PROT_EXEC);
	int fd;

	if (!p)
		return errno;
	fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (pwrite(fd, ret42, sizeof(ret42), (off_t)(uintptr_t)p) != (ssize_t)sizeof(ret42))
		return errno;
	return run_code(p);
}

static const struct attempt wx_attempts[] = {
	{ "mmap_rwx", wx_mmap_rwx },
	{ "mprotect_rwx", wx_mprotect_rwx },
	{ "mprotect_rx", wx_mprotect_rx },
	{ "pkey_mprotect_rx", wx_pkey_mprotect_rx },
	{ "rx_rw_rx", wx_rx_rw_rx },
	{ "shmat_exec", wx_shmat_exec },
	{ "memfd_exec", wx_memfd_exec },
	{ "cwd_exec", wx_cwd_exec },
	{ "tmp_exec", wx_tmp_exec },
	{ "devshm_exec", wx_devshm_exec },
	{ "procmem", wx_procmem },
};

/* wx: every way this process could run bytes it wrote, each in a child: "ok" means
 * the code ran (it returned 42).  mdwe is PR_GET_MDWE (1: PR_MDWE_REFUSE_EXEC_GAIN). */
static int cmd_wx(char **argv)
{
	int mdwe;

	(void)argv;
#ifdef NO_RET42
	kv("result", "unsupported-arch");
	return 0;
#endif
	mdwe = prctl(PR_GET_MDWE, 0, 0, 0, 0);
	kv("mdwe", "%s", mdwe < 0 ? errname(errno) : mdwe & 1 ? "1" : "0");
	for (size_t i = 0; i < sizeof(wx_attempts) / sizeof(wx_attempts[0]); i++)
		run_attempt(&wx_attempts[i]);
	kv("result", "ok");
	return 0;
}

/* stack-exec: copies code into a stack buffer and calls it; "ok" only where the stack
 * is executable (a program whose PT_GNU_STACK asks for it; SIGSEGV otherwise). */
static int stack_exec(void)
{
	unsigned char code[64];

	memcpy(code, ret42, sizeof(ret42));
	return run_code(code);
}
static const struct attempt stack_attempt = { "stack_exec", stack_exec };

static int cmd_stack_exec(char **argv)
{
	(void)argv;
	run_attempt(&stack_attempt);
	kv("result", "ok");
	return 0;
}

/* no-mdwe CMD ARGS...: runs CMD as on a kernel without PR_SET_MDWE (Linux < 6.3):
 * a seccomp filter, inherited by everything CMD starts, answers prctl(PR_SET_MDWE)
 * and prctl(PR_GET_MDWE) with EINVAL.  Needs CAP_SYS_ADMIN (no no_new_privs, which
 * would change what CMD may do). */
static int cmd_no_mdwe(char **argv)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_prctl, 0, 4),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PR_SET_MDWE, 1, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PR_GET_MDWE, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EINVAL),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0) {
		fprintf(stderr, "probe: no-mdwe: cannot install the filter: %s\n", strerror(errno));
		return 125;
	}
	execvp(argv[0], argv);
	fprintf(stderr, "probe: no-mdwe: cannot run '%s': %s\n", argv[0], strerror(errno));
	return 127;
}

/* no-landlock CMD ARGS...: runs CMD as on a kernel without Landlock: a seccomp filter,
 * inherited by everything CMD starts, answers landlock_create_ruleset with ENOSYS.
 * Needs CAP_SYS_ADMIN, as no-mdwe. */
static int cmd_no_landlock(char **argv)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_landlock_create_ruleset, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0) {
		fprintf(stderr, "probe: no-landlock: cannot install the filter: %s\n", strerror(errno));
		return 125;
	}
	execvp(argv[0], argv);
	fprintf(stderr, "probe: no-landlock: cannot run '%s': %s\n", argv[0], strerror(errno));
	return 127;
}

/* ---------------------------------------------------------------- file metadata */

/* struct xattr_args (linux/xattr.h, 6.13) */
struct probe_xattr_args {
	uint64_t value;
	uint32_t size;
	uint32_t flags;
};

/* metadata FILE [GID]: every system call that changes FILE's metadata by its path
 * (mode 0777, group GID (default: the own), times 1970, xattr user.sbx set and
 * user.keep removed), then through an O_PATH fd of it (the fd-based calls, which
 * the kernel refuses on O_PATH, and the path-based ones with AT_EMPTY_PATH), one
 * key each: "ok" or the errno name.  Also: opening FILE for reading, io_uring. */
static int cmd_metadata(char **argv)
{
	const char *f = argv[0];
	long gid = argv[1] ? parse_long(argv[1], "gid") : (long)getgid();
	struct timespec ts[2] = { { 1, 0 }, { 1, 0 } };
	struct timeval tv[2] = { { 1, 0 }, { 1, 0 } };
	long ub[2] = { 1, 1 }; /* struct utimbuf */
	struct probe_xattr_args xa = { .value = (uintptr_t)"x", .size = 1 };
	unsigned char uring[120] = { 0 };
	char proc[64];
	int o, fd;

#ifdef SYS_chmod
	kv_result("chmod", TRY(syscall(SYS_chmod, f, 0777)));
	kv_result("chown", TRY(syscall(SYS_chown, f, -1, gid)));
	kv_result("lchown", TRY(syscall(SYS_lchown, f, -1, gid)));
	kv_result("utime", TRY(syscall(SYS_utime, f, ub)));
	kv_result("utimes", TRY(syscall(SYS_utimes, f, tv)));
#endif
	kv_result("fchmodat", TRY(syscall(SYS_fchmodat, AT_FDCWD, f, 0777)));
	kv_result("fchmodat2", TRY(syscall(SYS_fchmodat2, AT_FDCWD, f, 0777, 0)));
	kv_result("fchownat", TRY(syscall(SYS_fchownat, AT_FDCWD, f, -1, gid, 0)));
	kv_result("futimesat", TRY(syscall(SYS_futimesat, AT_FDCWD, f, tv)));
	kv_result("utimensat", TRY(syscall(SYS_utimensat, AT_FDCWD, f, ts, 0)));
	kv_result("utimensat_now", TRY(syscall(SYS_utimensat, AT_FDCWD, f, NULL, 0)));
	kv_result("setxattr", TRY(syscall(SYS_setxattr, f, "user.sbx", "x", 1, 0)));
	kv_result("lsetxattr", TRY(syscall(SYS_lsetxattr, f, "user.sbx", "x", 1, 0)));
	kv_result("removexattr", TRY(syscall(SYS_removexattr, f, "user.keep")));
	kv_result("lremovexattr", TRY(syscall(SYS_lremovexattr, f, "user.keep")));
	kv_result("setxattrat", TRY(syscall(SYS_setxattrat, AT_FDCWD, f, 0, "user.sbx", &xa, sizeof(xa))));
	kv_result("removexattrat", TRY(syscall(SYS_removexattrat, AT_FDCWD, f, 0, "user.keep")));

	o = open(f, O_PATH | O_CLOEXEC);
	kv_result("opath", o < 0 ? errno : 0);
	kv_result("opath.fchmod", TRY(syscall(SYS_fchmod, o, 0777)));
	kv_result("opath.fchown", TRY(syscall(SYS_fchown, o, -1, gid)));
	kv_result("opath.fsetxattr", TRY(syscall(SYS_fsetxattr, o, "user.sbx", "x", 1, 0)));
	kv_result("opath.fremovexattr", TRY(syscall(SYS_fremovexattr, o, "user.keep")));
	kv_result("opath.futimens", TRY(syscall(SYS_utimensat, o, NULL, ts, 0)));
	kv_result("opath.fchmodat2_empty", TRY(syscall(SYS_fchmodat2, o, "", 0777, AT_EMPTY_PATH)));
	kv_result("opath.fchownat_empty", TRY(syscall(SYS_fchownat, o, "", -1, gid, AT_EMPTY_PATH)));
	kv_result("opath.utimensat_empty", TRY(syscall(SYS_utimensat, o, "", ts, AT_EMPTY_PATH)));
	kv_result("opath.setxattrat_empty",
		  TRY(syscall(SYS_setxattrat, o, "", AT_EMPTY_PATH, "user.sbx", &xa, sizeof(xa))));
	kv_result("opath.removexattrat_empty", TRY(syscall(SYS_removexattrat, o, "", AT_EMPTY_PATH, "user.keep")));
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", o);
	kv_result("opath.proc_chmod", TRY(syscall(SYS_fchmodat, AT_FDCWD, proc, 0777)));
	fd = open(proc, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	kv_result("opath.reopen", fd < 0 ? errno : 0);
	if (fd >= 0)
		close(fd);
	fd = open(f, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	kv_result("read_open", fd < 0 ? errno : 0);
	if (fd >= 0)
		close(fd);
	kv_result("io_uring_setup", TRY(syscall(SYS_io_uring_setup, 1, uring)));
	kv("result", "ok");
	return 0;
}

/* metadata-fd FILE MODE [ro]: opens FILE (for reading and writing; "ro": reading
 * only) and changes its metadata through that fd: fchmod MODE (octal), fchown to its
 * own group, futimens to 1970, fsetxattr user.sbx then fremovexattr of it; one key
 * each, "ok" or the errno name. */
static int cmd_metadata_fd(char **argv)
{
	struct timespec ts[2] = { { 1, 0 }, { 1, 0 } };
	bool ro = argv[2] && strcmp(argv[2], "ro") == 0;
	long mode = strtol(argv[1], NULL, 8);
	int fd = open(argv[0], (ro ? O_RDONLY : O_RDWR) | O_CLOEXEC | O_NONBLOCK);

	kv_result("open", fd < 0 ? errno : 0);
	if (fd < 0) {
		kv_result("result", errno);
		return 0;
	}
	kv_result("fchmod", TRY(syscall(SYS_fchmod, fd, mode)));
	kv_result("fchown", TRY(syscall(SYS_fchown, fd, -1, getgid())));
	kv_result("futimens", TRY(syscall(SYS_utimensat, fd, NULL, ts, 0)));
	kv_result("fsetxattr", TRY(syscall(SYS_fsetxattr, fd, "user.sbx", "x", 1, 0)));
	kv_result("fremovexattr", TRY(syscall(SYS_fremovexattr, fd, "user.sbx")));
	close(fd);
	kv("result", "ok");
	return 0;
}

/* no-namespaces CMD ARGS...: runs CMD where no namespace can be made, as in a
 * container whose seccomp profile is Docker's default (no CAP_SYS_ADMIN): unshare,
 * setns, clone with a CLONE_NEW* flag and the mount API refused (EPERM), clone3
 * ENOSYS (so that libc falls back to clone).  Sets no_new_privs (so any user may). */
static int cmd_no_namespaces(char **argv)
{
#define NS_DENY(nr) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM)
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		NS_DENY(SYS_unshare), NS_DENY(SYS_setns), NS_DENY(SYS_mount), NS_DENY(SYS_umount2),
		NS_DENY(SYS_pivot_root), NS_DENY(SYS_open_tree), NS_DENY(SYS_move_mount), NS_DENY(SYS_fsopen),
		NS_DENY(SYS_fsmount), NS_DENY(SYS_fspick), NS_DENY(SYS_mount_setattr),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K,
			 CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET |
				 CLONE_NEWCGROUP | CLONE_NEWTIME,
			 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
#undef NS_DENY
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0) {
		fprintf(stderr, "probe: no-namespaces: cannot install the filter: %s\n", strerror(errno));
		return 125;
	}
	execvp(argv[0], argv);
	fprintf(stderr, "probe: no-namespaces: cannot run '%s': %s\n", argv[0], strerror(errno));
	return 127;
}

/* ---------------------------------------------------------------- processes, limits */

/* Signals a well-behaved process would die of; the nasty children below
 * ignore them, so only SIGKILL (or the PID namespace going away) ends them. */
static void ignore_polite_signals(void)
{
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
}

static void detach_stdio(void)
{
	int fd = open("/dev/null", O_RDWR);

	if (fd < 0)
		return;
	dup2(fd, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	if (fd > 2)
		close(fd);
}

/* forkbomb SECONDS [TOKEN]: forks as fast as it can for SECONDS; children
 * stay alive (and carry the command line, TOKEN included, for pgrep on the
 * host). Exits 0, leaving them to the sandbox to clean up. */
static int cmd_forkbomb(char **argv)
{
	double until = now_s() + parse_seconds(argv[0]);
	long forks = 0, fails = 0;
	int last_err = 0;

	fflush(stdout);
	while (now_s() < until && forks < FORKBOMB_MAX) {
		pid_t pid = fork();
		if (pid == 0) {
			ignore_polite_signals();
			detach_stdio();
			for (;;)
				pause();
		}
		if (pid < 0) {
			fails++;
			last_err = errno;
		} else {
			forks++;
		}
	}
	kv("forks", "%ld", forks);
	kv("fails", "%ld", fails);
	kv("fork_errno", "%s", last_err ? errname(last_err) : "none");
	kv("result", "ok");
	return 0;
}

/* membomb MB: touches every page of MB MiB; an OOM kill ends it with SIGKILL
 * before `result` is printed. */
static int cmd_membomb(char **argv)
{
	long mb = parse_long(argv[0], "MB");
	size_t len = (size_t)mb << 20;
	long page = sysconf(_SC_PAGESIZE);
	char *p;

	kv("started", "1");
	fflush(stdout);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		kv_result("result", errno);
		return 0;
	}
	for (size_t off = 0; off < len; off += (size_t)page)
		p[off] = 1;
	kv("touched_mb", "%ld", mb);
	kv("result", "ok");
	return 0;
}

/* spin SECONDS: burns CPU (for the RLIMIT_CPU test). */
static int cmd_spin(char **argv)
{
	double until = now_s() + parse_seconds(argv[0]);
	volatile unsigned long x = 0;

	kv("started", "1");
	fflush(stdout);
	while (now_s() < until)
		for (int i = 0; i < 100000; i++)
			x++;
	kv("result", "ok");
	return 0;
}

/* daemonize PIDFILE [HOLD]: the classic double fork + setsid escape from a
 * supervisor that only waits for its direct child. The grandchild ignores
 * polite signals, drops the jail's stdio, writes PIDFILE (via rename, so the
 * host never reads it half-written) and sleeps forever. Its command line
 * contains PIDFILE, which the host uses to find it with pgrep -f. The parent
 * waits for PIDFILE, sleeps HOLD seconds (default 0), and exits 0. */
static int cmd_daemonize(char **argv)
{
	const char *pidfile = argv[0];
	double hold = argv[1] ? parse_seconds(argv[1]) : 0;
	double deadline;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		kv_result("result", errno);
		return 0;
	}
	if (pid == 0) {
		setsid();
		if (fork() != 0)
			_exit(0);
		char tmp[PATH_MAX], buf[32];
		int fd, n;

		ignore_polite_signals();
		detach_stdio();
		snprintf(tmp, sizeof(tmp), "%s.tmp", pidfile);
		fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd >= 0) {
			n = snprintf(buf, sizeof(buf), "%d\n", getpid());
			if (write(fd, buf, (size_t)n) == n && close(fd) == 0)
				rename(tmp, pidfile);
		}
		for (;;)
			pause();
	}
	waitpid(pid, NULL, 0);
	for (deadline = now_s() + 5; now_s() < deadline; sleep_s(0.01))
		if (access(pidfile, F_OK) == 0)
			break;
	kv_result("result", access(pidfile, F_OK) < 0 ? errno : 0);
	fflush(stdout);
	if (hold > 0)
		sleep_s(hold);
	return 0;
}

static int cmd_sleep(char **argv)
{
	kv("started", "1");
	fflush(stdout);
	sleep_s(parse_seconds(argv[0]));
	kv("result", "ok");
	return 0;
}

static int cmd_exit(char **argv)
{
	return (int)parse_long(argv[0], "code");
}

static int cmd_raise(char **argv)
{
	int sig = (int)parse_long(argv[0], "signal");

	fflush(stdout);
	signal(sig, SIG_DFL);
	kill(getpid(), sig);
	/* A signal that does not kill by default (or is blocked) lands here. */
	kv("result", "survived");
	return 0;
}

/* ---------------------------------------------------------------- main */

struct command {
	const char *name;
	int nargs;      /* required arguments */
	int maxargs;    /* optional ones included */
	int (*fn)(char **argv);
	const char *usage;
};

static const struct command commands[] = {
	{ "status", 0, 0, cmd_status, "" },
	{ "read", 1, 1, cmd_read, "PATH" },
	{ "ptrace-attach", 1, 1, cmd_ptrace_attach, "PID" },
	{ "write", 1, 2, cmd_write, "PATH [BYTES]" },
	{ "ls", 1, 1, cmd_ls, "DIR" },
	{ "connect-tcp", 2, 2, cmd_connect_tcp, "HOST PORT" },
	{ "connect-abstract", 1, 1, cmd_connect_abstract, "NAME" },
	{ "connect-unix", 1, 1, cmd_connect_unix, "PATH" },
	{ "kill", 2, 3, cmd_kill, "PID SIG [HOST_PIDNS_INODE]" },
	{ "syscalls", 0, 0, cmd_syscalls, "" },
	{ "remount-rw", 1, 2, cmd_remount_rw, "PATH [HOST_MNTNS_INODE]" },
	{ "forkbomb", 1, 2, cmd_forkbomb, "SECONDS [TOKEN]" },
	{ "membomb", 1, 1, cmd_membomb, "MB" },
	{ "spin", 1, 1, cmd_spin, "SECONDS" },
	{ "daemonize", 1, 2, cmd_daemonize, "PIDFILE [HOLD_SECONDS]" },
	{ "sleep", 1, 1, cmd_sleep, "SECONDS" },
	{ "mounts", 0, 0, cmd_mounts, "" },
	{ "environ1", 0, 0, cmd_environ1, "" },
	{ "write-sys", 0, 0, cmd_write_sys, "" },
	{ "suid-create", 1, 1, cmd_suid_create, "DIR" },
	{ "sysvipc", 0, 0, cmd_sysvipc, "" },
	{ "exit", 1, 1, cmd_exit, "CODE" },
	{ "raise", 1, 1, cmd_raise, "SIGNAL" },
	{ "wx", 0, 0, cmd_wx, "" },
	{ "stack-exec", 0, 0, cmd_stack_exec, "" },
	{ "no-mdwe", 1, 64, cmd_no_mdwe, "CMD [ARGS...]" },
	{ "no-landlock", 1, 64, cmd_no_landlock, "CMD [ARGS...]" },
	{ "no-namespaces", 1, 64, cmd_no_namespaces, "CMD [ARGS...]" },
	{ "metadata", 1, 2, cmd_metadata, "FILE [GID]" },
	{ "metadata-fd", 2, 3, cmd_metadata_fd, "FILE MODE [ro]" },
};

static int usage(void)
{
	fprintf(stderr, "usage: probe COMMAND [ARGS]\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(stderr, "  %s %s\n", commands[i].name, commands[i].usage);
	return 2;
}

int main(int argc, char **argv)
{
	int r;

	if (argc < 2)
		return usage();
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		const struct command *c = &commands[i];
		int n = argc - 2;

		if (strcmp(argv[1], c->name) != 0)
			continue;
		if (n < c->nargs || n > c->maxargs)
			return usage();
		r = c->fn(argv + 2);
		fflush(stdout);
		return r;
	}
	return usage();
}
