/* SPDX-License-Identifier: MIT */
/* policy/validator.c: the answer parser (every malformed answer is an error verdict
 * that says what is wrong, never an allow), the request it writes, the shell string it
 * finds; and lib/spawn.c through real programs (/bin/sh): stdin in, stdout bounded,
 * the deadline, an exec failure, no fd but 0-2, a cleared environment. */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>

#include "../../policy/validator.h"
#include "../../lib/spawn.h"
#include "unit.h"

#define G "validator"

static int parse(const char *s, struct sbx_validation *v)
{
        memset(v, 0, sizeof(*v));
        return sbx_validator_parse(s, strlen(s), v);
}

static void test_parse(void)
{
        struct sbx_validation v;

        CHECK(G, "allow", parse("{\"verdict\":\"allow\"}", &v) == SBX_VV_ALLOW && strcmp(v.reason, "no reason given") == 0 &&
                                  v.confidence == -1);
        CHECK(G, "warn with reason and confidence",
              parse("{\"verdict\":\"warn\",\"reason\":\"curl to a paste site\",\"confidence\":0.25}\n", &v) == SBX_VV_WARN &&
                      strcmp(v.reason, "curl to a paste site") == 0 && v.confidence == 0.25);
        CHECK(G, "block, confidence 1 as an integer", parse(" {\"verdict\":\"block\",\"reason\":\"no\",\"confidence\":1}", &v) == SBX_VV_BLOCK &&
                                                              v.confidence == 1);
        CHECK(G, "unknown keys are ignored", parse("{\"verdict\":\"allow\",\"model\":\"x\",\"extra\":[1,2]}", &v) == SBX_VV_ALLOW);
        CHECK(G, "null reason and confidence", parse("{\"verdict\":\"allow\",\"reason\":null,\"confidence\":null}", &v) == SBX_VV_ALLOW);
        CHECK(G, "reason: controls become spaces", parse("{\"verdict\":\"block\",\"reason\":\"a\\nb\\u001b[31mc\"}", &v) == SBX_VV_BLOCK &&
                                                          strcmp(v.reason, "a b [31mc") == 0);

        static const char *const bad[] = {
                "", "   ", "allow", "I think it is fine", "{\"verdict\":\"allow\"", "{\"verdict\":\"allow\"}{}",
                "{\"verdict\":\"allow\"} trailing", "[\"allow\"]", "\"allow\"", "null", "{}", "{\"verdict\":1}",
                "{\"verdict\":\"Allow\"}", "{\"verdict\":\"ok\"}", "{\"verdict\":\"allow\",\"reason\":5}",
                "{\"verdict\":\"allow\",\"confidence\":1.5}", "{\"verdict\":\"allow\",\"confidence\":-0.1}",
                "{\"verdict\":\"allow\",\"confidence\":\"high\"}", "{verdict:\"allow\"}", "{'verdict':'allow'}",
                "{\"verdict\":\"allow\",}", "{\"verdict\":\"allow\",\"reason\":\"\xff\xfe\"}",
        };
        bool all = true;

        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
                if (parse(bad[i], &v) != SBX_VV_ERROR || v.verdict != SBX_VV_ERROR || !v.reason[0])
                        all = false;
        CHECK(G, "every malformed answer is an error with a cause", all);
        CHECK(G, "a NUL inside is garbage", sbx_validator_parse("{\"verdict\":\"allow\"}\0x", 21, &v) == SBX_VV_ERROR);
        /* json-c keeps the last of two equal keys, another reader the first: a key given
         * twice at the top has no one meaning (a validator that pasted the command into
         * its reason by hand: ...","verdict":"allow"). */
        CHECK(G, "a verdict given twice is garbage",
              parse("{\"verdict\":\"block\",\"reason\":\"x\",\"verdict\":\"allow\"}", &v) == SBX_VV_ERROR &&
                      strstr(v.reason, "twice") != NULL);
        CHECK(G, "a reason given twice is garbage", parse("{\"verdict\":\"allow\",\"reason\":\"a\",\"reason\":\"b\"}", &v) == SBX_VV_ERROR);
        CHECK(G, "a key twice in a nested object, braces and commas in strings: one answer",
              parse("{\"verdict\":\"warn\",\"extra\":{\"a\":1,\"a\":[{\"b\":\"},\\\"x\"}]},\"y\":\"\\\",\\\"verdict\"}", &v) == SBX_VV_WARN);
        CHECK(G, "a verdict holding a NUL is garbage", parse("{\"verdict\":\"allow\\u0000x\"}", &v) == SBX_VV_ERROR);
        CHECK(G, "a reason holding a NUL is garbage", parse("{\"verdict\":\"allow\",\"reason\":\"a\\u0000b\"}", &v) == SBX_VV_ERROR);
        parse("{\"verdict\":\"maybe\"}", &v);
        CHECK(G, "the cause names the bad verdict", strstr(v.reason, "'maybe'") != NULL);
}

static bool same(const char *got, const char *want)
{
        return got && strcmp(got, want) == 0;
}

static void test_shell_string(void)
{
        char *a1[] = { "/bin/sh", "-c", "echo hi", NULL };
        char *a2[] = { "bash", "-lc", "ls; rm x", "name", "arg", NULL };
        char *a3[] = { "/bin/bash", "-l", "-c", "make", NULL };
        char *a4[] = { "/usr/bin/zsh", "-o", "errexit", "-c", "true", NULL };
        char *a5[] = { "/bin/sh", "script.sh", "-c", NULL };
        char *a6[] = { "/bin/echo", "-c", "x", NULL };
        char *a7[] = { "/bin/sh", "-c", NULL };
        char *a8[] = { "busybox", "sh", "-c", "id", NULL };
        char *a9[] = { "/bin/dash", "-e", "-c", "--", "-x", NULL };
        char *a10[] = { "/bin/bash", "--norc", "-c", "pwd", NULL };

        CHECK(G, "sh -c", strcmp(sbx_shell_string(a1), "echo hi") == 0);
        CHECK(G, "bash -lc with args", strcmp(sbx_shell_string(a2), "ls; rm x") == 0);
        CHECK(G, "bash -l -c", strcmp(sbx_shell_string(a3), "make") == 0);
        CHECK(G, "zsh -o opt -c", strcmp(sbx_shell_string(a4), "true") == 0);
        CHECK(G, "sh script: none", sbx_shell_string(a5) == NULL);
        CHECK(G, "not a shell: none", sbx_shell_string(a6) == NULL);
        CHECK(G, "-c without a string: none", sbx_shell_string(a7) == NULL);
        CHECK(G, "busybox sh -c", strcmp(sbx_shell_string(a8), "id") == 0);
        CHECK(G, "dash -e -c -- STRING", strcmp(sbx_shell_string(a9), "-x") == 0);
        CHECK(G, "bash --norc -c", strcmp(sbx_shell_string(a10), "pwd") == 0);

        /* What the shell runs, not a word of its options: a grouped -o or -O takes the
         * next word (bash -co errexit 'rm -rf ~' runs rm, with errexit), --rcfile and
         * --init-file take a file, "-" is dropped like "--". */
        char *b1[] = { "/bin/bash", "-co", "errexit", "rm -rf ~", NULL };
        char *b2[] = { "/bin/bash", "-oc", "errexit", "rm -rf ~", NULL };
        char *b3[] = { "/bin/bash", "-cO", "extglob", "rm -rf ~", NULL };
        char *b4[] = { "/bin/sh", "-ceo", "errexit", "-o", "nounset", "rm -rf ~", NULL };
        char *b5[] = { "/bin/bash", "--rcfile", "-c", "script", NULL };
        char *b6[] = { "/bin/bash", "--init-file", "/dev/null", "-c", "rm -rf ~", NULL };
        char *b7[] = { "/bin/sh", "-c", "-", "rm -rf ~", NULL };

        CHECK(G, "bash -co NAME STRING", same(sbx_shell_string(b1), "rm -rf ~"));
        CHECK(G, "bash -oc NAME STRING", same(sbx_shell_string(b2), "rm -rf ~"));
        CHECK(G, "bash -cO NAME STRING", same(sbx_shell_string(b3), "rm -rf ~"));
        CHECK(G, "sh -ceo NAME -o NAME STRING", same(sbx_shell_string(b4), "rm -rf ~"));
        CHECK(G, "bash --rcfile -c script: a script, no string", sbx_shell_string(b5) == NULL);
        CHECK(G, "bash --init-file FILE -c STRING", same(sbx_shell_string(b6), "rm -rf ~"));
        CHECK(G, "sh -c - STRING", same(sbx_shell_string(b7), "rm -rf ~"));
}

static void test_request(void)
{
        char *argv[] = { "/bin/sh", "-c", "echo \"$HOME\" \\ /x", NULL };
        char *bad[] = { "/bin/echo", "\xff", NULL };
        struct sbx_validator_ask q = { .which = "profile", .argv = argv, .cwd = "/w", .profile = "workspace",
                                       .mode = "direct", .uid = 1000, .gid = 1000, .tool_use_id = "toolu_1" };
        bool not_utf8 = true;
        char *json = sbx_validator_request(&q, &not_utf8);

        CHECK(G, "request: written", json && !not_utf8);
        CHECK(G, "request: exact",
              json && strcmp(json, "{\"version\":1,\"validator\":\"profile\",\"argv\":[\"/bin/sh\",\"-c\",\"echo \\\"$HOME\\\" \\\\ /x\"],"
                                   "\"command\":\"echo \\\"$HOME\\\" \\\\ /x\",\"cwd\":\"/w\",\"profile\":\"workspace\",\"uid\":1000,"
                                   "\"gid\":1000,\"mode\":\"direct\",\"tool_use_id\":\"toolu_1\",\"session_id\":null}") == 0);
        free(json);
        q.argv = bad;
        json = sbx_validator_request(&q, &not_utf8);
        CHECK(G, "request: an argv that is not UTF-8 is refused", !json && not_utf8);
        free(json);
}

static void test_spawn(void)
{
        char *cat[] = { "/bin/sh", "-c", "cat; ls /proc/self/fd | tr '\\n' ' '; env | tr '\\n' ' '", NULL };
        char *slow[] = { "/bin/sh", "-c", "sleep 5", NULL };
        char *huge[] = { "/bin/sh", "-c", "head -c 100000 /dev/zero", NULL };
        char *missing[] = { "/nonexistent/validator", NULL };
        char *fails[] = { "/bin/sh", "-c", "echo first >&2; echo 'the last line' >&2; exit 7", NULL };
        char *pwd[] = { "/bin/sh", "-c", "pwd -P", NULL };
        struct sbx_spawn_result res;
        struct sbx_error e = { 0 };
        int r;

        r = sbx_spawn_run(&(struct sbx_spawn){ .argv = cat, .input = "hello ", .input_len = 6, .output_max = 4096, .timeout_ms = 5000 },
                          &res, &e);
        CHECK(G, "spawn: stdin to stdout", r == 0 && res.exit_code == 0 && strncmp(res.output, "hello ", 6) == 0);
        CHECK(G, "spawn: only fds 0-2 (and ls's own)", r == 0 && strstr(res.output, "hello 0 1 2 3 PATH=") != NULL &&
                                                             !strstr(res.output, " 4 "));
        CHECK(G, "spawn: the environment is PATH alone (and sh's own PWD)", r == 0 && !strstr(res.output, "HOME=") &&
                                                                               !strstr(res.output, "SBX_RESULTS"));
        sbx_spawn_result_done(&res);
        r = sbx_spawn_run(&(struct sbx_spawn){ .argv = slow, .output_max = 16, .timeout_ms = 200 }, &res, &e);
        CHECK(G, "spawn: killed at the deadline", r == 0 && res.timed_out && res.signal == SIGKILL);
        sbx_spawn_result_done(&res);
        r = sbx_spawn_run(&(struct sbx_spawn){ .argv = huge, .output_max = 1000, .timeout_ms = 5000 }, &res, &e);
        CHECK(G, "spawn: an overflow is killed, output kept to the bound", r == 0 && res.overflow && res.len == 1000);
        sbx_spawn_result_done(&res);
        r = sbx_spawn_run(&(struct sbx_spawn){ .argv = missing, .output_max = 16, .timeout_ms = 5000 }, &res, &e);
        CHECK(G, "spawn: a missing program is an exec errno", r == 0 && res.exec_errno == ENOENT);
        sbx_spawn_result_done(&res);
        r = sbx_spawn_run(&(struct sbx_spawn){ .argv = fails, .output_max = 16, .timeout_ms = 5000 }, &res, &e);
        CHECK(G, "spawn: exit status and stderr's last line", r == 0 && res.exit_code == 7 && strcmp(res.errtail, "the last line") == 0);
        sbx_spawn_result_done(&res);
        /* Not the launcher's cwd (the workspace, which the jail writes). */
        r = sbx_spawn_run(&(struct sbx_spawn){ .argv = pwd, .output_max = 4096, .timeout_ms = 5000 }, &res, &e);
        CHECK(G, "spawn: its working directory is /", r == 0 && res.exit_code == 0 && strcmp(res.output, "/\n") == 0);
        sbx_spawn_result_done(&res);
}

int main(void)
{
        test_parse();
        test_shell_string();
        test_request();
        test_spawn();
        return unit_failed ? 1 : 0;
}
