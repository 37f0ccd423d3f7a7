/* SPDX-License-Identifier: MIT */
/*
 * perf script output: field selection (-F with perf's types, +/- modifiers
 * and errors), the per-type defaults and their validation against the
 * file's sample_types, and the buffered sample printer.
 */
#ifndef SONDE_UI_SCRIPT_H
#define SONDE_UI_SCRIPT_H

#include "data/event.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#include <stdbool.h>

struct evlist;
struct evsel;
struct tep_event;

/* output fields, one bit each, in perf's -F name order */
enum script_field {
	SF_COMM, SF_TID, SF_PID, SF_TIME, SF_CPU, SF_EVNAME, SF_TRACE, SF_IP, SF_SYM, SF_DSO,
	SF_ADDR, SF_SYMOFF, SF_SRCLINE, SF_PERIOD, SF_IREGS, SF_UREGS, SF_BRSTACK, SF_BRSTACKSYM,
	SF_DATA_SRC, SF_WEIGHT, SF_BPF_OUTPUT, SF_BRSTACKINSN, SF_BRSTACKINSNLEN, SF_BRSTACKOFF,
	SF_CALLINDENT, SF_INSN, SF_INSNLEN, SF_SYNTH, SF_PHYS_ADDR, SF_METRIC, SF_MISC, SF_SRCCODE,
	SF_IPC, SF_TOD, SF_DATA_PAGE_SIZE, SF_CODE_PAGE_SIZE, SF_INS_LAT,
	SF_MAX
};

#define SFB(f) (1ULL << (SF_##f))

/* event kinds with their own field sets (perf's output types) */
enum script_otype {
	SOT_HW, SOT_SW, SOT_TRACE, SOT_HWCACHE, SOT_RAW, SOT_BREAK, SOT_SYNTH, SOT_OTHER, SOT_MAX
};

/* struct script_output - the fields printed for one event kind */
struct script_output {
	u64 fields;	    /* SFB() bits to print */
	u64 not_allowed;    /* fields -F may not name for this kind */
	u64 asked;	    /* fields the user named (missing ones are errors, not dropped) */
	bool chosen;	    /* an -F applied to this kind */
	bool chosen_for_all; /* ... and it was one without a "kind:" prefix */
};

/* struct script_config - what to print; filled from options, then checked against the file. */
struct script_config {
	struct script_output out[SOT_MAX];
	bool print_flags;
	bool nanosecs;	   /* --ns */
	bool reltime;	   /* --reltime */
	bool deltatime;	   /* --deltatime */
	bool use_callchain; /* false with -G */
	bool show_kernel_path;
	bool full_source_path;
	int max_stack;	   /* frames printed per callchain */
};

/* the field's -F name ("comm", ..., "ins_lat") */
const char *script_field_name(int field);
/* the output type's name in messages ("hardware", "tracepoint", ...) */
const char *script_otype_name(int otype);
/* script_otype_of - the output type of an attr type */
int script_otype_of(u32 attr_type);

/* script_config_init - perf's defaults for every event type. */
void script_config_init(struct script_config *cfg);

/*
 * script_parse_fields - apply one -F argument. Warnings (perf's "'x' not
 * valid for y events. Ignoring.") are appended to @msg and 0 returned; on a
 * usage error -1 is returned with perf's message in @msg.
 */
int script_parse_fields(struct script_config *cfg, const char *arg, struct strbuf *msg);

/*
 * script_check_fields - drop default fields the file's events cannot
 * supply and reject user-set ones (perf's "Samples for 'x' event do not
 * have X attribute set. Cannot print 'x' field."). @has_traces: the file
 * has tracepoint events. Returns 0, or -1 with the message in @msg.
 */
int script_check_fields(struct script_config *cfg, struct evlist *evlist, bool has_traces,
			struct strbuf *msg);

/* one resolved address, as printed: "ip sym+off (dso)" */
struct script_frame {
	u64 ip;		    /* the address printed */
	const char *sym;    /* NULL: "[unknown]" */
	u64 symoff;
	const char *dso;    /* NULL: "[unknown]" */
	const char *srcline; /* NULL: none */
	bool inlined;	    /* an inlined function's frame: " (inlined)" instead of the dso */
};

/* struct script_sample - a sample with everything the printer needs, resolved by the caller. */
struct script_sample {
	const struct perf_sample *sample;
	struct evsel *evsel;
	const char *comm;	   /* thread's comm; NULL: ":<tid>" */
	struct script_frame ip;	   /* sample->ip resolved */
	struct script_frame addr;  /* sample->addr resolved (addr/sym fields of raw events) */
	const struct script_frame *frames; /* callchain, callee first, markers removed */
	int nr_frames;
	bool has_callchain;	   /* print frames (event has CALLCHAIN and -G not given) */
	struct tep_event *tp;	   /* format of a tracepoint sample, or NULL */
	const struct script_frame *br_from, *br_to; /* branch stack entries resolved (brstack*) */
	int nr_br;
	const char *srccode;	   /* srccode field: the source line's text (not NUL-ended) */
	int srccode_len;	   /* 0: nothing to print */
	unsigned int srccode_line;
	const u8 *insn;		   /* the instruction at ip (insn/insnlen fields), or NULL */
	int insn_len;
};

/*
 * struct script_printer - the output side: one big buffer written to @fd
 * when full, plus the state of relative/delta times.
 */
struct script_printer {
	struct strbuf buf;
	int fd;
	const struct script_config *cfg;
	int name_width; /* widest event name */
	u64 initial_time, previous_time;
	bool write_error;
	u64 written;		  /* bytes written to @fd so far */
	int data_src_width;	  /* widest data_src text so far (perf pads to it) */
	bool has_clock_data;	  /* tod: CLOCK_DATA of the file */
	u64 clock_wall_ns, clock_ref_ns;
};

void script_printer_init(struct script_printer *p, const struct script_config *cfg,
			 struct evlist *evlist, int fd);
/* script_printer_flush - write out the buffer. Returns 0 or -errno. */
int script_printer_flush(struct script_printer *p);
void script_printer_release(struct script_printer *p);

/* script_wants_callchain - true when samples of @evsel print their callchain */
bool script_wants_callchain(const struct script_config *cfg, const struct evsel *evsel);
/* script_fields_of - the field bits printed for @evsel */
u64 script_fields_of(const struct script_config *cfg, const struct evsel *evsel);

/* script_print_sample - append one sample (and its callchain) to the buffer. */
void script_print_sample(struct script_printer *p, const struct script_sample *s);

/*
 * script_print_record - a side-band record for --show-*-events:
 * "<comm> <tid> [cpu] time: PERF_RECORD_<X> <details>". @sample holds the
 * sample_id trailer (or is NULL).
 */
void script_print_record(struct script_printer *p, struct evsel *evsel, const char *comm,
			 const union perf_event *ev, const struct perf_sample *sample);

/* script_branch_entries - the entries of @sample's branch stack (hw_idx-aware), or NULL. */
const struct branch_entry *script_branch_entries(const struct perf_sample *sample);

/*
 * script_format_time - perf script's time column text ("123.456789" or
 * with --ns 9 digits), without padding. Exposed for tests.
 */
void script_format_time(struct strbuf *sb, u64 t, bool nanosecs);

/* script_data_src_text - perf's decoding of a data_src value ("|OP N/A|LVL N/A|...") */
void script_data_src_text(struct strbuf *sb, u64 data_src);

#endif
