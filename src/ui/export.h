/* SPDX-License-Identifier: MIT */
/* Exports of perf.data for other tools (data convert): perf's JSON, speedscope, Chrome trace, pprof. */
#ifndef SONDE_UI_EXPORT_H
#define SONDE_UI_EXPORT_H

#include "session/session.h"

#include <stdbool.h>
#include <stdio.h>

/* the formats of data convert */
enum export_format {
	EXPORT_JSON,	    /* perf data convert --to-json (linux-perf-json-version 1) */
	EXPORT_SPEEDSCOPE,  /* speedscope's file format, one sampled profile per thread */
	EXPORT_CHROME,	    /* Chrome trace-event JSON (Perfetto, chrome://tracing) */
	EXPORT_PPROF,	    /* gzipped profile.proto */
};

/*
 * export_write - every sample of @session converted to @format on @out
 * (@path names it in messages). Returns the number of samples written,
 * -errno from the reader with @err filled, or -EIO.
 */
long export_write(struct session *session, enum export_format format, FILE *out,
		  struct data_error *err);

#endif
