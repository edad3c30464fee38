/* SPDX-License-Identifier: MIT */
#include "identity.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/mount.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "applied.h"
#include "cleanup-cap.h"
#include "cleanup.h"
#include "privs.h"

int sbx_identity_prepare(const struct sbx_plan *p)
{
        _cleanup_close_ int fs = -1;
        int mnt;

        if (!p->root_userns)
                return -1;
        fs = (int)syscall(SYS_fsopen, "proc", FSOPEN_CLOEXEC);
        if (fs < 0 || syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
                return -errno;
        mnt = (int)syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
        return mnt < 0 ? -errno : mnt;
}

static int write_map(int proc, const char *file, const char *value, struct sbx_error *e)
{
        _cleanup_close_ int fd = openat(proc, file, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
        ssize_t len = (ssize_t)strlen(value);

        if (fd < 0 || write(fd, value, (size_t)len) != len)
                return sbx_error_set(e, SBX_STAGE_USERNS, errno, "write", file, "cannot map root's command to nobody");
        return 0;
}

static bool holds(cap_value_t c)
{
        _cleanup_cap_ cap_t now = cap_get_proc();
        cap_flag_value_t v = CAP_CLEAR;

        return now && cap_get_flag(now, c, CAP_EFFECTIVE, &v) == 0 && v == CAP_SET;
}

static bool refused(int err)
{
        return err == EPERM || err == ENOSPC || err == EUSERS || err == EINVAL || err == EACCES;
}

int sbx_identity_enter(const struct sbx_plan *p, int proc, char *what, size_t size, unsigned *applied,
                       struct sbx_error *e)
{
        char map[64];
        uid_t uid;
        gid_t gid;
        int r;

        what[0] = '\0';
        if (!p->root_userns)
                return 0;
        if (p->run_as && (r = sbx_privs_switch_ids(p, e)) < 0)
                return r;
        /* Read now: in the new namespace, before its maps, they read as the overflow id. */
        uid = geteuid();
        gid = getegid();
        /* The kernel lets a namespace map host root only where its creator held
         * CAP_SETFCAP (a bounding set without it: sandboxd's unit of old). */
        if (!holds(CAP_SETFCAP)) {
                snprintf(what, size, "identity: no CAP_SETFCAP to map root into a user namespace: the command runs as uid 0 without capabilities");
                return 1;
        }
        if (proc < 0 || unshare(CLONE_NEWUSER) < 0) {
                int err = proc < 0 ? -proc : errno;

                if (!refused(err))
                        return sbx_error_set(e, SBX_STAGE_USERNS, err, proc < 0 ? "fsopen" : "unshare",
                                             proc < 0 ? "proc" : "CLONE_NEWUSER", "cannot give root's command a user namespace");
                snprintf(what, size, "identity: %s (%s): the command runs as uid 0 without capabilities",
                         proc < 0 ? "no proc instance for the id maps" : "the kernel refused a user namespace", strerror(err));
                return 1;
        }
        /* One id each, our own (the only map a process may write for itself); groups
         * frozen as they are, since a gid map written from inside requires it. */
        if ((r = write_map(proc, "self/setgroups", "deny", e)) < 0)
                return r;
        snprintf(map, sizeof(map), "%u %u 1", SBX_ROOT_INSIDE_ID, (unsigned)uid);
        if ((r = write_map(proc, "self/uid_map", map, e)) < 0)
                return r;
        snprintf(map, sizeof(map), "%u %u 1", SBX_ROOT_INSIDE_ID, (unsigned)gid);
        if ((r = write_map(proc, "self/gid_map", map, e)) < 0)
                return r;
        *applied |= SBX_APPLIED_USERNS;
        return 0;
}
