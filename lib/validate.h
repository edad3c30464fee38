/* SPDX-License-Identifier: MIT */
/* Stage 2, validate: launcher side, before clone, as the caller.  Every host path of
 * the plan is opened (O_PATH) as the caller and resolved to its canonical path,
 * checked against what may be bound; its identity (dev, ino) is kept so the child
 * binds exactly what was checked. */
#pragma once

#include "error.h"
#include "plan.h"

int sbx_validate(struct sbx_plan *p, struct sbx_error *e);
