/* SPDX-License-Identifier: MIT */
/* A hook that dies answers nothing, and most harnesses then run the call as it was:
 * Codex and Gemini CLI block only on exit 2, any other death is "no opinion".  So
 * the hook's work runs in a child whose answer is held back until it has exited
 * cleanly; a child that crashed, was killed, or exited otherwise blocks the call. */
#pragma once

/* Splits the process.  Returns in the child, whose stdout is now a pipe to the
 * parent; the parent never returns: it exits 0 with the child's answer on its stdout
 * when the child exited 0, else 2 (the answer, if any, dropped) with the cause on
 * stderr.  When the split itself fails: 2, the call blocked. */
void hook_failsafe_split(void);
