/* SPDX-License-Identifier: MIT */
/* perf kvm stat report's table of VM exits, MMIO and port IO accesses from the kvm tracepoints. */
#ifndef SONDE_UI_KVM_STAT_H
#define SONDE_UI_KVM_STAT_H

#include <stdbool.h>

struct session;

enum kvm_stat_kind { KVM_STAT_VMEXIT, KVM_STAT_MMIO, KVM_STAT_IOPORT };

/* struct kvm_stat_opts - what kvm stat report analyses and how it sorts */
struct kvm_stat_opts {
	enum kvm_stat_kind kind;
	int vcpu;		/* -1: all */
	bool sort_time;		/* -k time: by average time, else by samples */
	const char *pids;	/* -p list as given, or NULL */
};

/* kvm_stat_header - the "Analyze events for ..." title and column line, on stderr. */
void kvm_stat_header(const struct kvm_stat_opts *o);

struct kvm_stat;
struct tool;

/* kvm_stat_new - the tables' state for @session (formats from the file, else tracefs); @o is kept. */
struct kvm_stat *kvm_stat_new(struct session *session, const struct kvm_stat_opts *o);
/* kvm_stat_tool - the sample tool that fills the tables */
struct tool *kvm_stat_tool(struct kvm_stat *ks);
/* kvm_stat_print - header, rows and totals on stderr, as perf */
void kvm_stat_print(struct kvm_stat *ks);
/* kvm_stat_reset - empty the tables (live: after each display); threads' state stays */
void kvm_stat_reset(struct kvm_stat *ks);
void kvm_stat_free(struct kvm_stat *ks);

/* kvm_stat_report - the whole report of @session on stderr. Returns 0 or -errno. */
int kvm_stat_report(struct session *session, const struct kvm_stat_opts *o);

#endif
