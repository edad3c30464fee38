/* SPDX-License-Identifier: MIT */
#include "validation.h"

const char *sbx_vverdict_name(int verdict)
{
        static const char *const names[_SBX_VV_MAX] = { "", "allow", "warn", "block", "error" };

        return verdict >= 0 && verdict < _SBX_VV_MAX ? names[verdict] : "unknown";
}
