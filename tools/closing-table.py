#!/usr/bin/env python3
"""The closing table of issue 12, from a test run, never written by hand.

    bash tests/integration/run.sh t_hooks t_harness_spool t_harness_aider t_sbx_sh t_container | tools/closing-table.py

reads run.sh's "ok   GROUP: CHECK" / "FAIL GROUP: CHECK -- why" / "skip ..." lines
and prints two Markdown tables: harness x (jailed? verdict surfaced? fails closed?),
each cell "yes (n/n)" when every check behind it passed, "NO" naming the first that
failed, "not run" when none of its checks ran; and container setup x the tier sbx
chose (or refused, with min_tier above it), as t_container saw it.  A check is named
by its group and a prefix of its name (names carry exit codes and the like).  Exit 1
when a cell is NO, so CI can gate on it.
"""
import re
import sys

# harness -> column -> [(group, check-name prefix)]
H = "t_hooks"
SH = "t_sbx_sh"
SP = "t_harness_spool"
AI = "t_harness_aider"
CELLS = {
    "Claude Code (shell prefix)": {
        "jailed": [(H, "prefix: the composite ran (exit 0)"),
                   (H, "prefix: a write outside the workspace is refused (host)"),
                   (H, "prefix: the network is refused (the host listener got nothing)"),
                   (H, "attribution: the prefix's jail has SBX_TOOL_USE_ID"),
                   (SP, "planted /tmp/sbx-hook-UID: the composite ran jailed"),
                   (SP, "planted /tmp/sbx-hook-UID: the jail is attributed")],
        "verdict": [(H, "claude: denied: permissionDecision deny"),
                    (H, "claude: denied: the rule is the reason"),
                    (H, "claude: a validator's warn is ask")],
        "closed": [(H, "claude: without sbx's shell prefix an allowed call is denied"),
                   (H, "a crashing policy check (claude): exit 2, no allow"),
                   (H, "bad JSON: exit 2, nothing on stdout"),
                   (H, "prefix: a crash sbx-run: the call fails"),
                   (H, "prefix: a hang sbx-run: the call fails"),
                   (H, "prefix: no sbx-run: exit 125, nothing ran"),
                   (H, "PostToolUse: a call the prefix never ran: decision block"),
                   (SP, "XDG_CACHE_HOME in /tmp, another user's: PreToolUse blocks"),
                   (SP, "cache in the workspace: the prefix refuses (125), nothing ran"),
                   (H, "claude: sbx-hook's work killed by SIGSEGV: exit 2, nothing on stdout")],
    },
    "Claude Code (--rewrite)": {
        "jailed": [(H, "claude --rewrite: the command ran in the jail"),
                   (H, "claude --rewrite: a write outside the workspace is refused (host)")],
        "verdict": [(H, "claude: denied: permissionDecision deny")],
        "closed": [(H, "PostToolUse --rewrite: Claude dropped the rewrite: decision block"),
                   (H, "a crashing policy check (claude): exit 2, no allow")],
    },
    "Codex": {
        "jailed": [(H, "codex: the rewritten command runs jailed"),
                   (H, "codex: a write outside the workspace is refused (host)")],
        "verdict": [(H, "codex: denied: exit 2"), (H, "codex: denied: the rule on stderr"),
                    (H, "codex: a validator's warn is allow (jailed)")],
        "closed": [(H, "codex: a crash sbx-run: the call fails"), (H, "codex: a hang sbx-run: the call fails"),
                   (H, "stdin never closed: exit 2"), (H, "a hanging policy check: exit 2"),
                   (H, "a crashing policy check: exit 2"), (H, "input over 1 MiB: exit 2"),
                   (H, "codex: sbx-hook's work killed by SIGSEGV: exit 2, nothing on stdout"),
                   (H, "codex: sbx-hook's work killed by SIGKILL: exit 2, nothing on stdout")],
    },
    "Gemini CLI": {
        "jailed": [(H, "gemini: the rewritten command runs jailed")],
        "verdict": [(H, "gemini: denied: decision deny"), (H, "gemini: denied: the rule is the reason")],
        "closed": [(H, "gemini: a crash sbx-run: the call fails"), (H, "gemini: a hang sbx-run: the call fails"),
                   (H, "gemini: a crashing policy check: exit 2, nothing on stdout"),
                   (H, "gemini: a hanging policy check: exit 2 within Gemini's 10 s timeout"),
                   (H, "gemini: sbx-hook's work killed by SIGSEGV: exit 2, nothing on stdout"),
                   (H, "gemini: sbx-hook's work killed by SIGKILL: exit 2, nothing on stdout")],
    },
    "opencode (plugin)": {
        "jailed": [(H, "opencode: args.command rewritten to the jailed form"),
                   (H, "opencode run: the command ran in the jail (hostname sbx)"),
                   (H, "opencode run: /proc/self/status shows the jail"),
                   (H, "opencode run: a write outside the workspace is refused (host)")],
        "verdict": [(H, "opencode: denied: the plugin throws"), (H, "opencode: denied: with the rule"),
                    (H, "opencode run: denied: the error carries the rule")],
        "closed": [(H, "opencode: a crashing sbx-hook: the plugin throws"), (H, "opencode: ... and nothing ran"),
                   (H, "opencode run: denied: nothing ran (host)"),
                   (H, "opencode run: a crash sbx-run: the call fails"), (H, "opencode run: a hang sbx-run: the call fails"),
                   (H, "opencode run: a hanging sbx-hook: the plugin throws")],
    },
    "aider (whole process under sbx-run)": {
        "jailed": [(AI, "aider: its sh -c subprocess ran in the jail"),
                   (AI, "aider: a subprocess write outside the workspace fails and does not appear"),
                   (AI, "aider: the host listener got no connection")],
        "verdict": [],
        "closed": [],
    },
    "sbx-sh (SHELL=, ForceCommand, make)": {
        "jailed": [(SH, "-c: a write outside the workspace is refused"),
                   (SH, "ForceCommand: SSH_ORIGINAL_COMMAND runs jailed"),
                   (SH, "make SHELL=sbx-sh: the recipe ran in the jail")],
        "verdict": [],
        "closed": [(SH, "no sbx-run: 127, said, the command did not run"),
                   (SH, "a crashing sbx-run: non-zero"),
                   (SH, "make with a crashing sbx-run fails and runs nothing")],
    },
}
NOTES = {
    ("aider (whole process under sbx-run)", "verdict"): " (no hook: nothing to surface)",
    ("aider (whole process under sbx-run)", "closed"): " (no hook to fail)",
}
LINE = re.compile(r"^(ok|FAIL|skip)\s+(t_\w+): (.*?)(?: -- .*)?$")


def main():
    results = []
    for line in sys.stdin:
        m = LINE.match(line.rstrip("\n"))
        if m:
            results.append(m.groups())
    bad = False

    def cell(checks):
        nonlocal bad
        if not checks:
            return "n/a"
        ran = failed = 0
        first = None
        for group, prefix in checks:
            hits = [s for s, g, n in results if g == group and n.startswith(prefix)]
            if not hits or all(s == "skip" for s in hits):
                continue
            ran += 1
            if any(s == "FAIL" for s in hits):
                failed += 1
                first = first or prefix
        if ran == 0:
            return "not run"
        if failed:
            bad = True
            return f"NO: {first}"
        return f"yes ({ran}/{len(checks)})"

    print("| harness | jailed? | verdict surfaced? | fails closed? |")
    print("|---|---|---|---|")
    for h, cols in CELLS.items():
        row = [cell(cols[c]) + NOTES.get((h, c), "") for c in ("jailed", "verdict", "closed")]
        print(f"| {h} | " + " | ".join(row) + " |")

    print()
    print("| container setup | tier chosen | refused (min_tier above it, remedy given) |")
    print("|---|---|---|")
    setups = {}
    for s, g, n in results:
        if g != "t_container":
            continue
        m = re.match(r"([\w-]+): the run gets tier (\S+) \(--json\)", n) or \
            re.match(r"([\w-]+): --doctor predicts tier (refuse)$", n)
        if m:
            setups.setdefault(m.group(1), [None, []])[0] = m.group(2) + ("" if s == "ok" else f" ({s})")
            bad |= s == "FAIL"
        m = re.match(r"([\w-]+), min_tier (\S+): exit 125", n)
        if m:
            setups.setdefault(m.group(1), [None, []])[1].append(m.group(2) + ("" if s == "ok" else f" ({s})"))
            bad |= s == "FAIL"
    if not setups:
        print("| (t_container did not run, or was skipped) | | |")
    for name, (tier, refused) in setups.items():
        print(f"| {name} | {tier or '-'} | {', '.join('min_tier ' + r for r in refused) or '-'} |")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
