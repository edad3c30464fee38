/* SPDX-License-Identifier: MIT */
/* The seccomp filter, run: a classic-BPF interpreter evaluates the filter sbx-run
 * installs (the build-time one, and those compiled for a profile's changes) on
 * struct seccomp_data for every system call number of this architecture, so the
 * verdicts below are the kernel's, not our tables'.
 *
 * It prints the comparison with Docker's default profile (docker-seccomp.h), one line
 * per system call: Docker's verdict, ours, and "LOOSER" where Docker denies what we
 * allow (for any of the argument vectors tried); there must be none. */
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/shm.h>
#include <sys/socket.h>

#include "../../lib/cleanup.h"
#include "../../lib/seccomp.h"
#include "docker-seccomp.h"
#include "unit.h"

#define G "unit-seccomp"
#define N_ELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------------ interpreter */

/* Runs @f on @d as the kernel would; -1 for an instruction the kernel would refuse
 * to load or a jump out of the program (never a verdict). */
static int64_t run_bpf(const struct sbx_seccomp *f, const struct seccomp_data *d)
{
        uint32_t a = 0, x = 0, mem[BPF_MEMWORDS] = { 0 };
        const unsigned char *data = (const unsigned char *)d;

        for (unsigned pc = 0; pc < f->len; pc++) {
                const struct sock_filter *i = &f->insns[pc];
                uint32_t src = BPF_SRC(i->code) == BPF_X ? x : i->k;
                bool jump;

                switch (i->code) {
                case BPF_LD | BPF_W | BPF_ABS:
                        if (i->k > sizeof(*d) - 4 || i->k % 4)
                                return -1;
                        memcpy(&a, data + i->k, 4);
                        continue;
                case BPF_LD | BPF_MEM:
                        if (i->k >= BPF_MEMWORDS)
                                return -1;
                        a = mem[i->k];
                        continue;
                case BPF_LDX | BPF_MEM:
                        if (i->k >= BPF_MEMWORDS)
                                return -1;
                        x = mem[i->k];
                        continue;
                case BPF_LD | BPF_IMM:
                        a = i->k;
                        continue;
                case BPF_LDX | BPF_IMM:
                        x = i->k;
                        continue;
                case BPF_ST:
                case BPF_STX:
                        if (i->k >= BPF_MEMWORDS)
                                return -1;
                        mem[i->k] = i->code == BPF_ST ? a : x;
                        continue;
                case BPF_ALU | BPF_AND | BPF_K:
                case BPF_ALU | BPF_AND | BPF_X:
                        a &= src;
                        continue;
                case BPF_ALU | BPF_OR | BPF_K:
                case BPF_ALU | BPF_OR | BPF_X:
                        a |= src;
                        continue;
                case BPF_MISC | BPF_TAX:
                        x = a;
                        continue;
                case BPF_MISC | BPF_TXA:
                        a = x;
                        continue;
                case BPF_RET | BPF_K:
                        return i->k;
                case BPF_RET | BPF_A:
                        return a;
                case BPF_JMP | BPF_JA:
                        pc += i->k;
                        if (pc >= f->len)
                                return -1;
                        continue;
                case BPF_JMP | BPF_JEQ | BPF_K:
                case BPF_JMP | BPF_JEQ | BPF_X:
                        jump = a == src;
                        break;
                case BPF_JMP | BPF_JGT | BPF_K:
                case BPF_JMP | BPF_JGT | BPF_X:
                        jump = a > src;
                        break;
                case BPF_JMP | BPF_JGE | BPF_K:
                case BPF_JMP | BPF_JGE | BPF_X:
                        jump = a >= src;
                        break;
                case BPF_JMP | BPF_JSET | BPF_K:
                case BPF_JMP | BPF_JSET | BPF_X:
                        jump = (a & src) != 0;
                        break;
                default:
                        return -1;
                }
                pc += jump ? i->jt : i->jf;
                if (pc >= f->len)
                        return -1;
        }
        return -1; /* fell off the end: the kernel refuses such a program */
}

static struct seccomp_data call(int nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
        return (struct seccomp_data){ .nr = nr, .arch = seccomp_arch_native(), .args = { a0, a1, a2, a3 } };
}

static int64_t verdict(const struct sbx_seccomp *f, int nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
        struct seccomp_data d = call(nr, a0, a1, a2, a3);
        return run_bpf(f, &d);
}

#define RET_ALLOW ((int64_t)SECCOMP_RET_ALLOW)
#define RET_ERRNO(e) ((int64_t)(SECCOMP_RET_ERRNO | (uint32_t)(e)))
#define RET_KILL ((int64_t)SECCOMP_RET_KILL_PROCESS)

static int sys(const char *name)
{
        return seccomp_syscall_resolve_name(name);
}

/* ------------------------------------------------------------------ Docker's verdicts */

static bool in(const char *const *v, size_t n, const char *name)
{
        for (size_t i = 0; i < n; i++)
                if (strcmp(v[i], name) == 0)
                        return true;
        return false;
}

static const char *docker_verdict(const char *name)
{
        if (!name)
                return "deny";
        if (in(docker_allowed, N_ELEM(docker_allowed), name))
                return "allow";
        if (in(docker_by_args, N_ELEM(docker_by_args), name))
                return "args";
        if (in(docker_enosys, N_ELEM(docker_enosys), name))
                return "ENOSYS";
        return "deny";
}

/* ------------------------------------------------------------------ our verdicts */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next_random(void)
{
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        return rng;
}

/* The filter's answer to @nr over argument vectors: all zeros, all ones, each
 * argument the same small number (flags, families, fds), the same value of those some
 * filter checks, and random ones.  "allow", "args" (some allowed, some not), or the
 * errno of a call denied whatever its arguments. */
static const char *our_verdict(const struct sbx_seccomp *f, int nr, bool *bad)
{
        static const uint64_t checked[] = { TIOCSTI, 04755, PROT_READ | PROT_WRITE | PROT_EXEC, CLONE_NEWUSER,
                                            AF_PACKET, READ_IMPLIES_EXEC, SHM_EXEC, 1ull << 31, 1ull << 63 };
        static char buf[32];
        int64_t first = verdict(f, nr, 0, 0, 0, 0);
        unsigned allowed = 0, total = 0;

        *bad = false;
        for (unsigned v = 0; v < 2 + 64 + N_ELEM(checked) + 64; v++) {
                uint64_t a = v == 0 ? 0 : v == 1 ? ~0ull : v < 66 ? v - 2 : v < 66 + N_ELEM(checked) ? checked[v - 66] : 0;
                bool random = v >= 66 + N_ELEM(checked);
                int64_t r = random ? verdict(f, nr, next_random(), next_random(), next_random(), next_random())
                                   : verdict(f, nr, a, a, a, a);

                if (r < 0)
                        *bad = true;
                total++;
                allowed += r == RET_ALLOW;
        }
        if (allowed == total)
                return "allow";
        if (allowed)
                return "args";
        if ((first & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_ERRNO) {
                int e = (int)(first & SECCOMP_RET_DATA);
                snprintf(buf, sizeof(buf), "%s", e == EPERM ? "EPERM" : e == ENOSYS ? "ENOSYS" : e == EACCES ? "EACCES" : "errno");
                return buf;
        }
        return first == RET_KILL ? "KILL" : "other";
}

/* ------------------------------------------------------------------ the comparison */

static void append(char *list, size_t size, const char *item)
{
        size_t len = strlen(list);
        snprintf(list + len, size - len, "%s%s", len ? " " : "", item);
}

static void compare_quietly(const struct sbx_seccomp *f, unsigned variant)
{
        unsigned first_unknown = sbx_seccomp_first_unknown();
        char looser[1024] = "", name[128];

        for (unsigned nr = 0; nr < first_unknown + 8; nr++) {
                char *sc = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, (int)nr);
                const char *dv = docker_verdict(sc), *ours;
                bool bad;

                ours = our_verdict(f, (int)nr, &bad);
                if ((strcmp(dv, "deny") == 0 || strcmp(dv, "ENOSYS") == 0) &&
                    (strcmp(ours, "allow") == 0 || strcmp(ours, "args") == 0))
                        append(looser, sizeof(looser), sc ? sc : "?");
                free(sc);
        }
        snprintf(name, sizeof(name), "filter variant %u: no syscall that Docker's profile denies is allowed", variant);
        unit_record(G, name, looser[0] == '\0', looser);
}

static void compare_with_docker(const struct sbx_seccomp *f, unsigned variant)
{
        unsigned first_unknown = sbx_seccomp_first_unknown(), n = 0, d_allow = 0, s_allow = 0, looser_n = 0,
                 stricter_n = 0, unknown_n = 0;
        char looser[2048] = "", stricter[4096] = "", unknown[2048] = "", broken[256] = "";

        if (variant) {
                /* A variant only denies more: no table, the same check. */
                compare_quietly(f, variant);
                return;
        }
        printf("# sbx's default seccomp filter against Docker's default profile, for every system call of this\n"
               "# architecture (numbers 0-%u that libseccomp %u.%u.%u names, then Docker's names it does not know)\n",
               first_unknown - 1, seccomp_version()->major, seccomp_version()->minor, seccomp_version()->micro);
        printf("# %4s  %-26s %-7s %-7s\n", "nr", "syscall", "docker", "sbx");
        for (unsigned nr = 0; nr < first_unknown + 8; nr++) {
                char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, (int)nr);
                const char *dv = docker_verdict(name), *ours;
                bool bad, docker_denies = strcmp(dv, "deny") == 0 || strcmp(dv, "ENOSYS") == 0;
                bool we_allow;

                ours = our_verdict(f, (int)nr, &bad);
                we_allow = strcmp(ours, "allow") == 0 || strcmp(ours, "args") == 0;
                if (bad)
                        append(broken, sizeof(broken), name ? name : "?");
                if (!name && !we_allow && nr < first_unknown) {
                        free(name);
                        continue; /* a hole in the table, denied by both */
                }
                n++;
                d_allow += !docker_denies;
                s_allow += we_allow;
                const char *mark = "";
                if (docker_denies && we_allow) {
                        mark = "LOOSER";
                        looser_n++;
                        append(looser, sizeof(looser), name ? name : "?");
                } else if (!docker_denies && !we_allow) {
                        mark = "stricter";
                        stricter_n++;
                        append(stricter, sizeof(stricter), name ? name : "?");
                }
                printf("  %4u  %-26s %-7s %-7s %s\n", nr, name ? name : "(none)", dv, ours, mark);
                free(name);
        }
        for (size_t i = 0; i < N_ELEM(docker_allowed); i++) {
                if (sys(docker_allowed[i]) != __NR_SCMP_ERROR)
                        continue;
                /* Another architecture's call, or one newer than this libseccomp: a number
                 * we cannot name is ENOSYS (past the known ones) or EPERM (in a gap). */
                if (seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86_64, docker_allowed[i]) == __NR_SCMP_ERROR &&
                    seccomp_syscall_resolve_name_arch(SCMP_ARCH_AARCH64, docker_allowed[i]) == __NR_SCMP_ERROR &&
                    seccomp_syscall_resolve_name_arch(SCMP_ARCH_RISCV64, docker_allowed[i]) == __NR_SCMP_ERROR &&
                    !strstr(docker_allowed[i], "32") && !strstr(docker_allowed[i], "64") &&
                    !strstr(docker_allowed[i], "_time")) {
                        printf("  %4s  %-26s %-7s %-7s %s\n", "?", docker_allowed[i], "allow", "unknown", "stricter");
                        unknown_n++;
                        append(unknown, sizeof(unknown), docker_allowed[i]);
                }
        }
        printf("# %u system calls; Docker allows %u (some by their arguments), sbx %u\n", n, d_allow, s_allow);
        printf("# Docker allows, sbx denies: %u: %s\n", stricter_n, stricter);
        printf("# Docker allows, unknown to this libseccomp (ENOSYS or EPERM here): %u: %s\n", unknown_n, unknown);
        printf("# Docker denies, sbx allows: %u%s%s\n", looser_n, looser_n ? ": " : "", looser);

        CHECK(G, "every syscall's verdict comes from a program the kernel would run", broken[0] == '\0');
        char why[2200];
        snprintf(why, sizeof(why), "Docker denies, sbx allows: %s", looser);
        unit_record(G, "no syscall that Docker's profile denies is allowed", looser_n == 0, why);
}

/* Docker allows these three calls only for some arguments: what it denies of them,
 * sbx denies too. */
static void compare_docker_arguments(const struct sbx_seccomp *f)
{
        static const uint64_t personas[] = { 1, ADDR_NO_RANDOMIZE, READ_IMPLIES_EXEC, MMAP_PAGE_ZERO, ADDR_COMPAT_LAYOUT,
                                             ADDR_LIMIT_32BIT, PER_BSD, UNAME26 | READ_IMPLIES_EXEC, 0x100000000ull };
        static const uint64_t ns[] = { CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWUSER,
                                       CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWCGROUP };
        bool ok = true;

        ok &= verdict(f, sys("socket"), 38 /* AF_ALG */, SOCK_SEQPACKET, 0, 0) != RET_ALLOW;
        ok &= verdict(f, sys("socket"), 40 /* AF_VSOCK */, SOCK_STREAM, 0, 0) != RET_ALLOW;
        CHECK(G, "socket: the families Docker denies are denied", ok);
        ok = true;
        for (size_t i = 0; i < N_ELEM(personas); i++)
                ok &= verdict(f, sys("personality"), personas[i], 0, 0, 0) != RET_ALLOW;
        CHECK(G, "personality: every persona Docker denies is denied", ok);
        ok = true;
        for (size_t i = 0; i < N_ELEM(ns); i++)
                ok &= verdict(f, sys("clone"), ns[i] | SIGCHLD, 0, 0, 0) != RET_ALLOW;
        CHECK(G, "clone: every CLONE_NEW* flag Docker denies is denied", ok);
}

/* ------------------------------------------------------------------ our own rules */

static void check_rules(const struct sbx_seccomp *f)
{
        int ioctl_nr = sys("ioctl"), sock = sys("socket");

        CHECK(G, "read allowed", verdict(f, sys("read"), 0, 0, 0, 0) == RET_ALLOW);
        CHECK(G, "an unlisted call (ptrace) fails with EPERM", verdict(f, sys("ptrace"), 0, 0, 0, 0) == RET_ERRNO(EPERM));
        CHECK(G, "an unlisted call (io_uring_setup) fails with EPERM",
              verdict(f, sys("io_uring_setup"), 1, 0, 0, 0) == RET_ERRNO(EPERM));
        CHECK(G, "syscalls past libseccomp's table: ENOSYS",
              verdict(f, (int)sbx_seccomp_first_unknown(), 0, 0, 0, 0) == RET_ERRNO(ENOSYS) &&
                      verdict(f, 1000, 0, 0, 0, 0) == RET_ERRNO(ENOSYS));
        CHECK(G, "clone3 and openat2: ENOSYS", verdict(f, sys("clone3"), 0, 0, 0, 0) == RET_ERRNO(ENOSYS) &&
                                                      verdict(f, sys("openat2"), 0, 0, 0, 0) == RET_ERRNO(ENOSYS));
        CHECK(G, "clone without namespaces allowed", verdict(f, sys("clone"), CLONE_VM | CLONE_THREAD | SIGCHLD, 0, 0, 0) == RET_ALLOW);
        CHECK(G, "ioctl TIOCSTI, TIOCLINUX denied, also with high bits",
              verdict(f, ioctl_nr, 0, TIOCSTI, 0, 0) == RET_ERRNO(EPERM) &&
                      verdict(f, ioctl_nr, 0, TIOCSTI | 1ull << 32, 0, 0) == RET_ERRNO(EPERM) &&
                      verdict(f, ioctl_nr, 0, 0xffffffff00000000ull | TIOCLINUX, 0, 0) == RET_ERRNO(EPERM));
        CHECK(G, "ioctl TCGETS, FIONREAD allowed", verdict(f, ioctl_nr, 0, TCGETS, 0, 0) == RET_ALLOW &&
                                                           verdict(f, ioctl_nr, 0, FIONREAD, 0, 0) == RET_ALLOW);
        CHECK(G, "chmod 04755, fchmodat 02755, openat(O_CREAT, 04755) denied",
              verdict(f, sys("chmod"), 0, 04755, 0, 0) == RET_ERRNO(EPERM) &&
                      verdict(f, sys("fchmodat"), 0, 0, 02755, 0) == RET_ERRNO(EPERM) &&
                      verdict(f, sys("openat"), 0, 0, 0100, 04755) == RET_ERRNO(EPERM));
        CHECK(G, "chmod 0755, openat 0644 allowed",
              verdict(f, sys("chmod"), 0, 0755, 0, 0) == RET_ALLOW && verdict(f, sys("openat"), 0, 0, 0100, 0644) == RET_ALLOW);
        CHECK(G, "socket AF_UNIX, AF_INET, AF_INET6, netlink route allowed",
              verdict(f, sock, AF_UNIX, SOCK_STREAM, 0, 0) == RET_ALLOW && verdict(f, sock, AF_INET, SOCK_DGRAM, 0, 0) == RET_ALLOW &&
                      verdict(f, sock, AF_INET6, SOCK_STREAM, 0, 0) == RET_ALLOW &&
                      verdict(f, sock, AF_NETLINK, SOCK_RAW, 0 /* NETLINK_ROUTE */, 0) == RET_ALLOW);
        CHECK(G, "socket AF_PACKET, AF_VSOCK, AF_ALG, netlink audit, family 200: EAFNOSUPPORT",
              verdict(f, sock, AF_PACKET, SOCK_RAW, 0, 0) == RET_ERRNO(EAFNOSUPPORT) &&
                      verdict(f, sock, 40, SOCK_STREAM, 0, 0) == RET_ERRNO(EAFNOSUPPORT) &&
                      verdict(f, sock, 38, SOCK_SEQPACKET, 0, 0) == RET_ERRNO(EAFNOSUPPORT) &&
                      verdict(f, sock, AF_NETLINK, SOCK_RAW, 9, 0) == RET_ERRNO(EAFNOSUPPORT) &&
                      verdict(f, sock, 200, SOCK_RAW, 0, 0) == RET_ERRNO(EAFNOSUPPORT));
        CHECK(G, "socket AF_INET with high bits not allowed", verdict(f, sock, AF_INET | 1ull << 32, SOCK_STREAM, 0, 0) != RET_ALLOW);
        CHECK(G, "personality query and PER_LINUX allowed", verdict(f, sys("personality"), 0xffffffff, 0, 0, 0) == RET_ALLOW &&
                                                                    verdict(f, sys("personality"), PER_LINUX, 0, 0, 0) == RET_ALLOW);
        CHECK(G, "W+X mappings allowed without memory_deny_write_execute",
              verdict(f, sys("mmap"), 0, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS) == RET_ALLOW);

        struct seccomp_data d = call(sys("read"), 0, 0, 0, 0);
        d.nr |= 0x40000000; /* x32 */
        CHECK(G, "x32 numbers: a bad architecture, EPERM", run_bpf(f, &d) == RET_ERRNO(EPERM));
        d = call(3 /* i386 read */, 0, 0, 0, 0);
        d.arch = AUDIT_ARCH_I386;
        CHECK(G, "i386 (int 0x80): a bad architecture, EPERM", run_bpf(f, &d) == RET_ERRNO(EPERM));
}

static void check_profile_changes(void)
{
        char *allow[] = { "ptrace", "modify_ldt" }, *deny[] = { "mkdir", "ioctl" }, *deny_socket[] = { "socket" };
        struct sbx_seccomp_extra x = { .allow = allow, .n_allow = 1, .deny = deny, .n_deny = 2, .kill = true };
        struct sbx_seccomp s;
        struct sbx_error e = { 0 };

        CHECK(G, "a profile's changes compile", sbx_seccomp_prepare(&s, &x, &e) == 0);
        CHECK(G, "seccomp.allow: ptrace allowed", verdict(&s, sys("ptrace"), 0, 0, 0, 0) == RET_ALLOW);
        CHECK(G, "seccomp.deny with kill: mkdir kills", verdict(&s, sys("mkdir"), 0, 0, 0, 0) == RET_KILL);
        CHECK(G, "seccomp.deny with kill: ioctl kills, TIOCSTI included",
              verdict(&s, sys("ioctl"), 0, TCGETS, 0, 0) == RET_KILL && verdict(&s, sys("ioctl"), 0, TIOCSTI, 0, 0) == RET_KILL);
        CHECK(G, "seccomp.deny: the rest unchanged", verdict(&s, sys("read"), 0, 0, 0, 0) == RET_ALLOW &&
                                                          verdict(&s, sys("bpf"), 0, 0, 0, 0) == RET_ERRNO(EPERM));
        sbx_seccomp_done(&s);

        x = (struct sbx_seccomp_extra){ .deny = deny_socket, .n_deny = 1 };
        CHECK(G, "seccomp.deny of a call with argument rules compiles", sbx_seccomp_prepare(&s, &x, &e) == 0);
        CHECK(G, "seccomp.deny: socket denied whole with EPERM", verdict(&s, sys("socket"), AF_INET, SOCK_STREAM, 0, 0) == RET_ERRNO(EPERM));
        sbx_seccomp_done(&s);

        x = (struct sbx_seccomp_extra){ .allow = allow + 1, .n_allow = 1 };
        CHECK(G, "seccomp.allow: modify_ldt allowed", sbx_seccomp_prepare(&s, &x, &e) == 0 &&
                                                              verdict(&s, sys("modify_ldt"), 0, 0, 0, 0) == RET_ALLOW);
        sbx_seccomp_done(&s);

        CHECK(G, "ptrace may be allowed, read has nothing to allow, clone's checks cannot be lifted",
              sbx_seccomp_denied_by_default("ptrace") && !sbx_seccomp_denied_by_default("read") &&
                      !sbx_seccomp_denied_by_default("clone") && sbx_seccomp_checks_arguments("clone") &&
                      sbx_seccomp_checks_arguments("mprotect") && !sbx_seccomp_checks_arguments("read"));
}

static void check_wx(void)
{
        struct sbx_seccomp_extra x = { .wx = true };
        struct sbx_seccomp s;
        struct sbx_error e = { 0 };
        const uint64_t rw = PROT_READ | PROT_WRITE, rx = PROT_READ | PROT_EXEC, rwx = rw | PROT_EXEC;
        const uint64_t anon = MAP_PRIVATE | MAP_ANONYMOUS;

        CHECK(G, "W^X compiles", sbx_seccomp_prepare(&s, &x, &e) == 0);
        CHECK(G, "W^X: mmap RW and RX allowed, RWX EACCES",
              verdict(&s, sys("mmap"), 0, 4096, rw, anon) == RET_ALLOW && verdict(&s, sys("mmap"), 0, 4096, rx, anon) == RET_ALLOW &&
                      verdict(&s, sys("mmap"), 0, 4096, rwx, anon) == RET_ERRNO(EACCES));
        CHECK(G, "W^X: mprotect and pkey_mprotect RWX EACCES, RX allowed",
              verdict(&s, sys("mprotect"), 0, 4096, rwx, 0) == RET_ERRNO(EACCES) &&
                      verdict(&s, sys("pkey_mprotect"), 0, 4096, rwx, 0) == RET_ERRNO(EACCES) &&
                      verdict(&s, sys("mprotect"), 0, 4096, rx, 0) == RET_ALLOW);
        CHECK(G, "W^X: PROT_SEM and high bits do not hide W+X",
              verdict(&s, sys("mprotect"), 0, 4096, rwx | 0x8 | 1ull << 32, 0) == RET_ERRNO(EACCES));
        CHECK(G, "W^X: shmat SHM_EXEC EACCES, plain shmat allowed",
              verdict(&s, sys("shmat"), 1, 0, SHM_EXEC | SHM_RDONLY, 0) == RET_ERRNO(EACCES) &&
                      verdict(&s, sys("shmat"), 1, 0, 0, 0) == RET_ALLOW);
        CHECK(G, "W^X: the rest unchanged", verdict(&s, sys("read"), 0, 0, 0, 0) == RET_ALLOW &&
                                                 verdict(&s, sys("ioctl"), 0, TIOCSTI, 0, 0) == RET_ERRNO(EPERM));
        sbx_seccomp_done(&s);
}

/* The filters embedded at build time are those sbx_seccomp_prepare() makes now, and a
 * profile gets one of them exactly when its changes are a variant's. */
static void check_builtins(void)
{
        char *memfd[] = { "memfd_secret", "memfd_create" }, *other[] = { "memfd_create", "ptrace" };
        struct sbx_seccomp_extra x;

        for (unsigned v = 0; v < SBX_SECCOMP_VARIANTS; v++) {
                const struct sbx_seccomp *b = sbx_seccomp_builtin(v);
                struct sbx_seccomp fresh;
                struct sbx_error e = { 0 };
                char name[64];

                sbx_seccomp_variant(v, &x);
                snprintf(name, sizeof(name), "embedded filter %u is the one compiled now (%u instructions)", v, b->len);
                CHECK(G, name, sbx_seccomp_prepare(&fresh, &x, &e) == 0 && fresh.len == b->len &&
                                       memcmp(fresh.insns, b->insns, fresh.len * sizeof(*fresh.insns)) == 0);
                printf("# filter variant %u: %u instructions (BPF_MAXINSNS %u)\n", v, b->len, BPF_MAXINSNS);
                sbx_seccomp_done(&fresh);
                snprintf(name, sizeof(name), "variant %u's changes select it", v);
                CHECK(G, name, sbx_seccomp_variant_of(&x) == (int)v);
        }
        x = (struct sbx_seccomp_extra){ .deny = memfd, .n_deny = 2, .wx = true };
        CHECK(G, "allowlist mode with W^X: a built-in filter",
              sbx_seccomp_variant_of(&x) == (SBX_SECCOMP_NO_MEMFD | SBX_SECCOMP_WX));
        x.kill = true;
        CHECK(G, "memfd calls that kill: compiled at launch", sbx_seccomp_variant_of(&x) == -1);
        x = (struct sbx_seccomp_extra){ .deny = other, .n_deny = 2 };
        CHECK(G, "other denials: compiled at launch", sbx_seccomp_variant_of(&x) == -1);
        x = (struct sbx_seccomp_extra){ .deny = other, .n_deny = 1 };
        CHECK(G, "memfd_create alone: compiled at launch", sbx_seccomp_variant_of(&x) == -1);
        x = (struct sbx_seccomp_extra){ .allow = other + 1, .n_allow = 1 };
        CHECK(G, "an allowed call: compiled at launch", sbx_seccomp_variant_of(&x) == -1);
}

/* ------------------------------------------------------- the landlock tier's filter */

/* The landlock tier shares the PID space with the caller's other processes (pid=
 * shared): Landlock's scopes stop signals and ptrace there, not the calls that change
 * another process of the same user without either (its resource limits, nice value,
 * CPU set, scheduling policy, I/O priority; RLIMIT_CPU 0 is a SIGKILL).  A child
 * under sbx_seccomp_apply_nons aims each at this process, which checks from its side
 * that nothing changed, and that each still works on the caller itself (pid 0). */
static void check_nons_other_processes(void)
{
        struct rlimit before, after;
        cpu_set_t cpus_before, cpus_after;
        int nice_before, nice_after, pipefd[2], status = 0;
        pid_t parent = getpid(), child;
        char verdicts[8] = { 0 };

        if (getrlimit(RLIMIT_CPU, &before) < 0 || sched_getaffinity(0, sizeof(cpus_before), &cpus_before) < 0 || pipe(pipefd) < 0)
                return (void)CHECK(G, "nons: setup", false);
        errno = 0;
        nice_before = getpriority(PRIO_PROCESS, 0);
        child = fork();
        if (child == 0) {
                struct sbx_error e = { 0 };
                struct rlimit lower = { 1000003, 1000003 }, mine; /* (0 would kill this test) */
                struct sched_param sp = { 0 };
                cpu_set_t one;

                CPU_ZERO(&one);
                CPU_SET(0, &one);
                if (sbx_seccomp_apply_nons(true, false, &e) < 0)
                        _exit(2);
                /* '1' when the call on the other process was refused */
                verdicts[0] = prlimit(parent, RLIMIT_CPU, &lower, NULL) < 0 ? '1' : '0';
                verdicts[1] = setpriority(PRIO_PROCESS, (id_t)parent, 19) < 0 ? '1' : '0';
                /* a uid with no process (ESRCH without the filter): never all of ours */
                verdicts[2] = setpriority(PRIO_USER, 0x7ffffff0, 19) < 0 && errno == EPERM ? '1' : '0';
                verdicts[3] = sched_setaffinity(parent, sizeof(one), &one) < 0 ? '1' : '0';
                verdicts[4] = sched_setscheduler(parent, SCHED_BATCH, &sp) < 0 ? '1' : '0';
                verdicts[5] = syscall(SYS_ioprio_set, 1 /* IOPRIO_WHO_PROCESS */, parent, (3 << 13) | 7) < 0 ? '1' : '0';
                /* on itself: allowed */
                verdicts[6] = getrlimit(RLIMIT_NOFILE, &mine) == 0 && prlimit(0, RLIMIT_NOFILE, &mine, NULL) == 0 &&
                                              setpriority(PRIO_PROCESS, 0, 1) == 0 && sched_setaffinity(0, sizeof(one), &one) == 0
                                      ? '1' : '0';
                if (write(pipefd[1], verdicts, 7) != 7)
                        _exit(3);
                _exit(0);
        }
        close(pipefd[1]);
        if (child < 0 || read(pipefd[0], verdicts, 7) != 7)
                verdicts[0] = '\0';
        close(pipefd[0]);
        if (child > 0)
                waitpid(child, &status, 0);
        CHECK(G, "nons: the child ran its attempts", strlen(verdicts) == 7);
        CHECK(G, "nons: prlimit on another process refused", verdicts[0] == '1');
        CHECK(G, "nons: setpriority on another process refused", verdicts[1] == '1');
        CHECK(G, "nons: setpriority PRIO_USER refused", verdicts[2] == '1');
        CHECK(G, "nons: sched_setaffinity on another process refused", verdicts[3] == '1');
        CHECK(G, "nons: sched_setscheduler on another process refused", verdicts[4] == '1');
        CHECK(G, "nons: ioprio_set on another process refused", verdicts[5] == '1');
        CHECK(G, "nons: the same calls on itself still work", verdicts[6] == '1');
        errno = 0;
        nice_after = getpriority(PRIO_PROCESS, 0);
        CHECK(G, "nons: (host side) RLIMIT_CPU unchanged",
              getrlimit(RLIMIT_CPU, &after) == 0 && after.rlim_cur == before.rlim_cur && after.rlim_max == before.rlim_max);
        CHECK(G, "nons: (host side) nice unchanged", nice_after == nice_before);
        CHECK(G, "nons: (host side) CPU set unchanged",
              sched_getaffinity(0, sizeof(cpus_after), &cpus_after) == 0 && CPU_EQUAL(&cpus_before, &cpus_after));
        CHECK(G, "nons: (host side) scheduling policy unchanged", sched_getscheduler(0) == SCHED_OTHER);
}

/* File metadata under the landlock tier's filter alone (the main filter, installed
 * after it, answers ENOSYS first for calls this libseccomp does not know): each call
 * that changes a file's metadata by its path, by the number libseccomp gives its name
 * (or, where this libseccomp does not know it, the asm-generic one this kernel may
 * have), on a file of this process's, refused with EPERM; through a real fd allowed
 * (fd-only) or refused too (@no_fd).  The host side: the file unchanged. */
struct meta_call {
        const char *name;
        int fallback; /* asm-generic number, for a name this libseccomp lacks */
        int kind;     /* 0 (path), 1 (dirfd, path), 2 (O_PATH fd, "", AT_EMPTY_PATH) */
};

static long meta_try(const struct meta_call *c, const char *path, int opath)
{
        static const char value[] = "x";
        struct timespec ts[2] = { { 1, 0 }, { 1, 0 } };
        struct timeval tv[2] = { { 1, 0 }, { 1, 0 } };
        long ub[2] = { 1, 1 };
        uint64_t xa[2] = { (uintptr_t)value, 1 }; /* struct xattr_args */
        const char *n = c->name;
        int nr = seccomp_syscall_resolve_name(n);
        int fd = c->kind == 2 ? opath : AT_FDCWD;
        const char *p = c->kind == 2 ? "" : path;
        int flags = c->kind == 2 ? AT_EMPTY_PATH : 0;

        if (nr == __NR_SCMP_ERROR)
                nr = c->fallback;
        if (nr < 0)
                return -2; /* not on this architecture */
        if (!strcmp(n, "chmod"))
                return syscall(nr, p, 0777);
        if (!strcmp(n, "chown") || !strcmp(n, "lchown"))
                return syscall(nr, p, -1, getgid());
        if (!strcmp(n, "utime"))
                return syscall(nr, p, ub);
        if (!strcmp(n, "utimes"))
                return syscall(nr, p, tv);
        if (!strcmp(n, "futimesat"))
                return syscall(nr, fd, p, tv);
        if (!strcmp(n, "fchmodat") || !strcmp(n, "fchmodat2"))
                return syscall(nr, fd, p, 0777, flags);
        if (!strcmp(n, "fchownat"))
                return syscall(nr, fd, p, -1, getgid(), flags);
        if (!strcmp(n, "utimensat"))
                return syscall(nr, fd, p, ts, flags);
        if (!strcmp(n, "setxattr") || !strcmp(n, "lsetxattr"))
                return syscall(nr, p, "user.sbx", "x", 1, 0);
        if (!strcmp(n, "removexattr") || !strcmp(n, "lremovexattr"))
                return syscall(nr, p, "user.keep");
        if (!strcmp(n, "setxattrat"))
                return syscall(nr, fd, p, flags, "user.sbx", xa, sizeof(xa));
        if (!strcmp(n, "removexattrat"))
                return syscall(nr, fd, p, flags, "user.keep");
        return -3;
}

static const struct meta_call meta_calls[] = {
        { "chmod", -1, 0 },     { "chown", -1, 0 },       { "lchown", -1, 0 },         { "utime", -1, 0 },
        { "utimes", -1, 0 },    { "futimesat", -1, 1 },   { "fchmodat", -1, 1 },       { "fchmodat2", 452, 1 },
        { "fchownat", -1, 1 },  { "utimensat", -1, 1 },   { "setxattr", -1, 0 },       { "lsetxattr", -1, 0 },
        { "removexattr", -1, 0 }, { "lremovexattr", -1, 0 }, { "setxattrat", 463, 1 },  { "removexattrat", 466, 1 },
        { "fchmodat2", 452, 2 }, { "fchownat", -1, 2 },    { "utimensat", -1, 2 },      { "setxattrat", 463, 2 },
        { "removexattrat", 466, 2 },
};
#define N_META ELEMENTSOF(meta_calls)
#define N_FD 5

static void meta_stat(const char *path, char *buf, size_t size)
{
        struct stat st;
        char x[256] = "";
        ssize_t n = listxattr(path, x, sizeof(x));

        if (stat(path, &st) < 0)
                snprintf(buf, size, "gone");
        else
                snprintf(buf, size, "%o %u %u %zd|%lld.%ld %lld.%ld", st.st_mode, st.st_uid, st.st_gid, n, (long long)st.st_mtim.tv_sec,
                         st.st_mtim.tv_nsec, (long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec);
}

static void check_nons_metadata(bool no_fd)
{
        char dir[] = "/tmp/sbx-test-meta-XXXXXX", path[64], before[128], after[128];
        char verdicts[N_META + N_FD + 1] = { 0 };
        int pipefd[2], status = 0, fd;
        pid_t child;

        if (!mkdtemp(dir) || snprintf(path, sizeof(path), "%s/f", dir) < 0 || (fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600)) < 0 ||
            pipe(pipefd) < 0)
                return (void)CHECK(G, "nons metadata: setup", false);
        close(fd);
        if (setxattr(path, "user.keep", "k", 1, 0) < 0)
                return (void)CHECK(G, "nons metadata: user xattrs on /tmp (setup)", false);
        meta_stat(path, before, sizeof(before));
        child = fork();
        if (child == 0) {
                struct sbx_error e = { 0 };
                struct timespec ts[2] = { { 1, 0 }, { 1, 0 } };
                int opath = open(path, O_PATH | O_CLOEXEC), rw = open(path, O_RDWR | O_CLOEXEC);
                size_t i = 0;

                if (opath < 0 || rw < 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || sbx_seccomp_apply_nons(true, no_fd, &e) < 0)
                        _exit(2);
                /* 'E': EPERM; '-': not on this architecture or kernel; else '0' */
                for (; i < N_META; i++) {
                        long r = meta_try(&meta_calls[i], path, opath);

                        verdicts[i] = r == -2 || (r < 0 && errno == ENOSYS) ? '-' : r < 0 && errno == EPERM ? 'E' : '0';
                }
                /* through a real fd (mode unchanged: the file must stay the same) */
                verdicts[i++] = fchmod(rw, 0600) == 0 ? '1' : errno == EPERM ? 'E' : '0';
                verdicts[i++] = fchown(rw, (uid_t)-1, getgid()) == 0 ? '1' : errno == EPERM ? 'E' : '0';
                verdicts[i++] = syscall(SYS_utimensat, rw, NULL, ts, 0) == 0 ? '1' : errno == EPERM ? 'E' : '0';
                verdicts[i++] = fsetxattr(rw, "user.sbx", "x", 1, 0) == 0 ? '1' : errno == EPERM ? 'E' : '0';
                verdicts[i++] = fremovexattr(rw, "user.sbx") == 0 ? '1' : errno == EPERM ? 'E' : '0';
                if (write(pipefd[1], verdicts, i) != (ssize_t)i)
                        _exit(3);
                _exit(0);
        }
        close(pipefd[1]);
        if (child < 0 || read(pipefd[0], verdicts, N_META + N_FD) != (ssize_t)(N_META + N_FD))
                verdicts[0] = '\0';
        close(pipefd[0]);
        if (child > 0)
                waitpid(child, &status, 0);
        CHECK(G, "nons metadata: the child ran its attempts", strlen(verdicts) == N_META + N_FD);
        for (size_t i = 0; i < N_META && verdicts[0]; i++) {
                char name[96];

                snprintf(name, sizeof(name), "nons metadata: %s%s refused (EPERM)%s", meta_calls[i].name,
                         meta_calls[i].kind == 2 ? "(O_PATH fd, \"\", AT_EMPTY_PATH)" : " by path", no_fd ? ", no_fd" : "");
                CHECK(G, name, verdicts[i] == 'E' || verdicts[i] == '-');
        }
        CHECK(G, "nons metadata: this kernel has fchmodat2 and it was tried", verdicts[7] == 'E');
        for (size_t i = N_META; i < N_META + N_FD && verdicts[0]; i++) {
                static const char *const fds[N_FD] = { "fchmod", "fchown", "futimens", "fsetxattr", "fremovexattr" };
                char name[96];

                snprintf(name, sizeof(name), "nons metadata: %s on a real fd %s", fds[i - N_META], no_fd ? "refused (no_fd)" : "works");
                CHECK(G, name, verdicts[i] == (no_fd ? 'E' : '1'));
        }
        meta_stat(path, after, sizeof(after));
        if (!no_fd) {
                /* (futimens changed the times: only mode, owner, group and xattrs compare) */
                *strchr(before, '|') = *strchr(after, '|') = '\0';
        }
        CHECK(G, no_fd ? "nons metadata: (host side) the file unchanged" : "nons metadata: (host side) mode, owner, group unchanged",
              strcmp(before, after) == 0);
        unlink(path);
        rmdir(dir);
}

/* The landlock tier's ioctls: terminal and FIO* ones pass (FIONREAD on a pipe), any
 * other is ENOTTY before the file system sees it.  FIGETBSZ works on any regular
 * file, so a refusal of it is the filter's; btrfs's subvolume and snapshot numbers
 * (which make directories Landlock never sees) are refused whatever the file system
 * (elsewhere than on btrfs the kernel's answer would be ENOTTY too: FIGETBSZ is what
 * shows the filter). */
static void check_nons_ioctls(void)
{
        char verdicts[5] = { 0 };
        int pipefd[2], status = 0;
        pid_t child;

        if (pipe(pipefd) < 0)
                return (void)CHECK(G, "nons ioctls: setup", false);
        child = fork();
        if (child == 0) {
                struct sbx_error e = { 0 };
                int data[2], n = 0, bsz = 0, fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC), dir = open("/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                char args[4096] = { 0 };

                verdicts[0] = fd >= 0 && ioctl(fd, FIGETBSZ, &bsz) == 0 ? '1' : '0'; /* before: works */
                if (fd < 0 || dir < 0 || pipe(data) < 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
                    sbx_seccomp_apply_nons(true, false, &e) < 0)
                        _exit(2);
                verdicts[1] = ioctl(data[0], FIONREAD, &n) == 0 ? '1' : '0';
                verdicts[2] = ioctl(fd, FIGETBSZ, &bsz) < 0 && errno == ENOTTY ? 'T' : '0';
                /* BTRFS_IOC_SUBVOL_CREATE, BTRFS_IOC_SNAP_CREATE_V2 (_IOW(0x94, 14 / 23, 4096 bytes)) */
                verdicts[3] = ioctl(dir, _IOW(0x94, 14, char[4096]), args) < 0 && errno == ENOTTY ? 'T' : '0';
                verdicts[4] = ioctl(dir, _IOW(0x94, 23, char[4096]), args) < 0 && errno == ENOTTY ? 'T' : '0';
                if (write(pipefd[1], verdicts, sizeof(verdicts)) != (ssize_t)sizeof(verdicts))
                        _exit(3);
                _exit(0);
        }
        close(pipefd[1]);
        if (child < 0 || read(pipefd[0], verdicts, sizeof(verdicts)) != (ssize_t)sizeof(verdicts))
                memset(verdicts, 0, sizeof(verdicts));
        close(pipefd[0]);
        if (child > 0)
                waitpid(child, &status, 0);
        CHECK(G, "nons ioctls: FIGETBSZ works on a regular file without the filter", verdicts[0] == '1');
        CHECK(G, "nons ioctls: FIONREAD on a pipe passes", verdicts[1] == '1');
        CHECK(G, "nons ioctls: FIGETBSZ is refused, ENOTTY", verdicts[2] == 'T');
        CHECK(G, "nons ioctls: BTRFS_IOC_SUBVOL_CREATE is refused, ENOTTY", verdicts[3] == 'T');
        CHECK(G, "nons ioctls: BTRFS_IOC_SNAP_CREATE_V2 is refused, ENOTTY", verdicts[4] == 'T');
}

int main(void)
{
        const struct sbx_seccomp *builtin = sbx_seccomp_builtin(0);

        check_builtins();
        compare_with_docker(builtin, 0);
        for (unsigned v = 1; v < SBX_SECCOMP_VARIANTS; v++)
                compare_with_docker(sbx_seccomp_builtin(v), v);
        compare_docker_arguments(builtin);
        check_rules(builtin);
        check_profile_changes();
        check_wx();
        check_nons_other_processes();
        check_nons_metadata(false);
        check_nons_metadata(true);
        check_nons_ioctls();
        return unit_failed ? 1 : 0;
}
