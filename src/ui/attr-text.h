/* SPDX-License-Identifier: MIT */
/* perf_event_attr fields as the label/value text pairs perf's evlist -v and header show. */
#ifndef SONDE_UI_ATTR_TEXT_H
#define SONDE_UI_ATTR_TEXT_H

#include "data/event.h"
#include "lib/strbuf.h"

#include <stdbool.h>

/*
 * attr_text_next - the next field of @attr that perf shows, after position
 * *@pos (start with 0; it is advanced). Fields that are 0 are not shown.
 * Sets *@label ("type", "{ sample_period, sample_freq }", "sample_type", ...)
 * and puts the value text in @val ("128", "0x1", "IP|TID|TIME", "-1").
 * A mask field none of whose bits has a name leaves @val as it was: perf 6.1
 * shows the previous field's text there. Keep @val for one attr's fields.
 * Returns false when no field is left.
 */
bool attr_text_next(const struct perf_event_attr *attr, unsigned *pos, const char **label,
		    struct strbuf *val);

#endif
