/* SPDX-License-Identifier: MIT */
/* The scheduler tracepoints of a perf.data (sched:sched_switch, wakeups, migrations, ...) decoded into one record type. */
#ifndef SONDE_SESSION_SCHED_H
#define SONDE_SESSION_SCHED_H

#include "data/event.h"
#include "lib/util.h"

#include <stdbool.h>

struct evsel;
struct session;
struct tep_handle;

enum sched_kind {
	SCHED_NONE,	  /* not a scheduler tracepoint we know */
	SCHED_SWITCH,	  /* sched:sched_switch */
	SCHED_WAKEUP,	  /* sched:sched_wakeup */
	SCHED_WAKING,	  /* sched:sched_waking */
	SCHED_WAKEUP_NEW, /* sched:sched_wakeup_new */
	SCHED_MIGRATE,	  /* sched:sched_migrate_task */
	SCHED_RUNTIME,	  /* sched:sched_stat_runtime */
	SCHED_FORK,	  /* sched:sched_process_fork */
	SCHED_EXIT,	  /* sched:sched_process_exit */
	SCHED_STAT,	  /* sched:sched_stat_{wait,sleep,iowait,blocked} */
	SCHED_NR_KINDS,
};

/*
 * struct sched_rec - one decoded scheduler tracepoint. Field use by kind:
 * switch: comm/pid/prio = prev_*, state = prev_state, next_* = next_*;
 * wakeups: comm/pid/prio, cpu = target_cpu; migrate: comm/pid/prio,
 * cpu = orig_cpu, dest_cpu; runtime: comm/pid, runtime; stat: comm/pid,
 * runtime = delay; fork: comm/pid =
 * parent_*, next_comm/next_pid = child_*; exit: comm/pid/prio.
 */
struct sched_rec {
	enum sched_kind kind;
	const char *comm, *next_comm; /* into the payload, not NUL-terminated: see *_len */
	int comm_len, next_comm_len;
	int pid, next_pid;
	int prio, next_prio;
	s64 state;
	int cpu, dest_cpu;
	u64 runtime;
};

struct sched_field {
	int offset, size; /* size 0: absent */
	bool is_dynamic;  /* __data_loc */
	bool is_signed;
};


enum sched_fid {
	SF_COMM, SF_PID, SF_PRIO, SF_STATE, SF_NEXT_COMM, SF_NEXT_PID, SF_NEXT_PRIO,
	SF_CPU, SF_DEST_CPU, SF_RUNTIME, SF_NR,
};

/*
 * struct sched_decoder - per event of the file: its kind and where its
 * fields lie. @comms (true after init) asks for the comm strings; a tool
 * that never reads rec.comm/next_comm clears it and gets "" for them.
 */
struct sched_decoder {
	struct tep_handle *tep; /* owned, from the file's tracing data; NULL when there is none */
	int nr;
	bool comms;
	struct sched_evinfo {
		enum sched_kind kind;
		struct sched_field f[SF_NR];
		/*
		 * how to read each numeric field: 8 bytes at @offset shifted
		 * into place, masked to 0 when the event lacks the field
		 */
		struct sched_num {
			u16 offset;
			u8 width; /* bytes the field has: 1, 2, 4 or 8 */
			u8 shift; /* 64 - 8 * width */
			bool is_signed;
			u64 mask; /* ~0, or 0 for an absent field */
		} num[SF_NR];
	} *ev; /* by evsel->idx */
};

/*
 * sched_decoder_init - learn @session's sched tracepoints from its event
 * names and tracing data. Returns 0 (a file without them decodes nothing).
 */
int sched_decoder_init(struct sched_decoder *dec, struct session *session);
/* sched_decoder_release - free what init made. */
void sched_decoder_release(struct sched_decoder *dec);
/* sched_decoder_has - true when the file has an event of @kind. */
bool sched_decoder_has(const struct sched_decoder *dec, enum sched_kind kind);

/*
 * sched_decode - decode @sample of @evsel into @rec. Returns the kind
 * (SCHED_NONE for another event or a payload too short).
 */
enum sched_kind sched_decode(const struct sched_decoder *dec, const struct evsel *evsel,
			     const struct perf_sample *sample, struct sched_rec *rec);

/*
 * sched_state_char - the letter perf's sched tools show for a prev_state
 * value: "RSDTtZXxKWP" indexed by the lowest set bit's position + 1 (R for 0).
 */
char sched_state_char(s64 state);

#endif
