/* SPDX-License-Identifier: MIT */
/* sbx-run --daemon: the request goes to sandboxd over D-Bus (sd-bus). */
#pragma once

#include "options.h"

/* Runs o's command through sandboxd; returns sbx-run's exit status. */
int sbx_client_run(const struct sbx_options *o);
