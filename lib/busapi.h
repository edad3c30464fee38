/* SPDX-License-Identifier: MIT */
/* sandboxd's D-Bus contract, for both ends: the names, the signatures, and the one
 * write/read pair for the exit summary that Wait answers and Exited carries.
 * sandboxd (api.c) and sbx-run --daemon (client.c) both use this header, so the two
 * cannot drift; tests/unit/test_busapi.c round-trips the summary. */
#pragma once

#include <stddef.h>
#include <systemd/sd-bus.h>

#include "jail.h"

/* Names.  Peer to peer on sandboxd's socket and, when a system bus runs, as
 * SBX_BUS_NAME there. */
#define SBX_BUS_NAME "io.sbx.Sandbox1"
#define SBX_BUS_PATH "/io/sbx/Sandbox1"
#define SBX_BUS_SANDBOX_PREFIX "/io/sbx/Sandbox1/sandbox" /* + "/" + id: one object per sandbox */
#define SBX_BUS_MANAGER "io.sbx.Sandbox1.Manager"
#define SBX_BUS_SANDBOX "io.sbx.Sandbox1.Sandbox"

#define SBX_BUS_METHOD_RUN "Run"
#define SBX_BUS_METHOD_WAIT "Wait"
#define SBX_BUS_METHOD_KILL "Kill"
#define SBX_BUS_METHOD_LIST "List"
#define SBX_BUS_METHOD_RELOAD "Reload"
#define SBX_BUS_SIGNAL_EXITED "Exited"

#define SBX_ERR_DENIED "io.sbx.Sandbox1.Error.Denied" /* the policy said no: sbx-run exits 126 */
#define SBX_ERR_LIMIT "io.sbx.Sandbox1.Error.LimitExceeded"
#define SBX_ERR_FAILED "io.sbx.Sandbox1.Error.Failed"
#define SBX_ERR_NO_SANDBOX "io.sbx.Sandbox1.Error.NoSuchSandbox"

/* Run(profile, argv, env, workspace, stdin, stdout, stderr, options) -> (id, path) */
#define SBX_BUS_RUN_IN "sasa{ss}hhhha{sv}"
#define SBX_BUS_RUN_OUT "so"
/* Kill(id, signal) on the manager; Kill(signal) on a sandbox's object. */
#define SBX_BUS_KILL_IN "si"

/* The exit summary: Wait's answer, and Exited's after (id, path).  The booleans are
 * D-Bus 'b', 4 bytes on the wire: read them through sbx_bus_summary_read only. */
#define SBX_BUS_SUMMARY "iiibbttttsasasasissdssa(sss)"
#define SBX_BUS_SUMMARY_NAMES                                                                                      \
        "status\0exit_code\0signal\0timed_out\0oom_killed\0wall_ms\0cpu_user_ms\0cpu_sys_ms\0peak_memory\0error\0" \
        "applied\0weakened\0notes\0validator_verdict\0validator\0validator_reason\0validator_confidence\0network\0"   \
        "tier\0substitutions\0"

/* Appends @res as SBX_BUS_SUMMARY to @m, with @error ("" when none: the formatted
 * sbx_error of a failed sandbox).  0 or a negative errno from sd-bus. */
int sbx_bus_summary_write(sd_bus_message *m, const struct sbx_result *res, const char *error);

/* Reads SBX_BUS_SUMMARY from @m into @res's summary fields (nothing else of @res is
 * touched) and the error text into @error (@size bytes, cut if longer).  0 or a
 * negative errno. */
int sbx_bus_summary_read(sd_bus_message *m, struct sbx_result *res, char *error, size_t size);
