// SPDX-License-Identifier: MIT
// sbx for opencode: every bash tool call runs jailed by sbx-run, or not at all.
// Copy to .opencode/plugins/ (a project) or ~/.config/opencode/plugins/ (yours).
// The verdict and the jailed command come from `sbx-hook --harness opencode`
// (sbx-hook(1)); a denied command, and every failure of sbx-hook -- missing, crashed,
// timed out, an answer that is not the expected JSON -- throws, which denies the call.
// Environment: SBX_HOOK (default "sbx-hook" on PATH), SBX_PROFILE.
import { spawnSync } from "node:child_process";

const HOOK = process.env.SBX_HOOK || "sbx-hook";
const TIMEOUT_MS = 10000;

function deny(why) {
  throw new Error(`sbx: ${why}`);
}

export function sbxRewrite(input, output) {
  if (input.tool !== "bash") return;
  if (!output || !output.args || typeof output.args.command !== "string") deny("a bash call without a command");
  const r = spawnSync(HOOK, ["--harness", "opencode"], {
    input: JSON.stringify({
      tool: input.tool,
      callID: input.callID,
      sessionID: input.sessionID,
      cwd: process.cwd(),
      args: output.args,
    }),
    encoding: "utf8",
    timeout: TIMEOUT_MS,
    killSignal: "SIGKILL",
  });
  if (r.error) deny(`cannot run ${HOOK}: ${r.error.message}`);
  if (r.status !== 0) deny((r.stderr || "").trim() || `${HOOK} exited with ${r.status ?? r.signal}`);
  let v;
  try {
    v = JSON.parse(r.stdout);
  } catch {
    deny(`${HOOK} answered something that is not JSON`);
  }
  if (!v || (v.decision !== "allow" && v.decision !== "warn") || typeof v.command !== "string")
    deny(`${HOOK} answered without a jailed command`);
  output.args.command = v.command;
}

export const Sbx = async () => ({
  "tool.execute.before": async (input, output) => sbxRewrite(input, output),
});

// Loaders that take a plugin from a path want a default export {id, server}.
export default { id: "sbx", server: Sbx };
