/* SPDX-License-Identifier: MIT */
#include "hostconfig.h"

/* Each one with what the host runs from it (doc/THREATS.md lists them too). */
const char *const sbx_host_config_entries[] = {
        ".claude",         /* Claude Code: settings.json, settings.local.json (hooks, env), commands, agents */
        ".mcp.json",       /* Claude Code's project MCP servers: commands */
        ".codex",          /* Codex: hooks.json, config.toml */
        ".gemini",         /* Gemini CLI: settings.json (hooks, MCP servers) */
        ".opencode",       /* opencode: plugins (JavaScript loaded into it), opencode.json */
        "opencode.json",   /* opencode's project configuration: MCP servers, commands */
        ".cursor",         /* Cursor: mcp.json, rules */
        ".aider.conf.yml", /* aider: lint-cmd, test-cmd, run by aider itself */
        NULL,
};
