/* SPDX-License-Identifier: MIT */
/* perf_event_attr fields as text: one table of shown fields, each read by a getter and formatted by kind. */
#include "ui/attr-text.h"
#include "lib/xalloc.h"

#include <inttypes.h>

/* how a field's value is written */
enum attr_kind {
	AK_UNSIGNED,	/* decimal */
	AK_HEX,		/* 0x-prefixed hex */
	AK_SIGNED,	/* decimal of the low 32 bits as an int (clockid) */
	AK_SAMPLE_BITS, /* names from sample_bit_names */
	AK_READ_BITS,	/* names from read_bit_names */
	AK_BRANCH_BITS, /* names from branch_bit_names */
};

struct bit_name {
	u64 bit;
	const char *name;
};

/*
 * Shown in this order, which is not the bit order (IDENTIFIER comes after
 * STACK_USER, WEIGHT after DATA_SRC). TRANSACTION and bits without a name
 * here are not shown.
 */
static const struct bit_name sample_bit_names[] = {
	{ PERF_SAMPLE_IP, "IP" },
	{ PERF_SAMPLE_TID, "TID" },
	{ PERF_SAMPLE_TIME, "TIME" },
	{ PERF_SAMPLE_ADDR, "ADDR" },
	{ PERF_SAMPLE_READ, "READ" },
	{ PERF_SAMPLE_CALLCHAIN, "CALLCHAIN" },
	{ PERF_SAMPLE_ID, "ID" },
	{ PERF_SAMPLE_CPU, "CPU" },
	{ PERF_SAMPLE_PERIOD, "PERIOD" },
	{ PERF_SAMPLE_STREAM_ID, "STREAM_ID" },
	{ PERF_SAMPLE_RAW, "RAW" },
	{ PERF_SAMPLE_BRANCH_STACK, "BRANCH_STACK" },
	{ PERF_SAMPLE_REGS_USER, "REGS_USER" },
	{ PERF_SAMPLE_STACK_USER, "STACK_USER" },
	{ PERF_SAMPLE_IDENTIFIER, "IDENTIFIER" },
	{ PERF_SAMPLE_REGS_INTR, "REGS_INTR" },
	{ PERF_SAMPLE_DATA_SRC, "DATA_SRC" },
	{ PERF_SAMPLE_WEIGHT, "WEIGHT" },
	{ PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR" },
	{ PERF_SAMPLE_AUX, "AUX" },
	{ PERF_SAMPLE_CGROUP, "CGROUP" },
	{ PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
	{ PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" },
	{ PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" },
};

static const struct bit_name read_bit_names[] = {
	{ PERF_FORMAT_TOTAL_TIME_ENABLED, "TOTAL_TIME_ENABLED" },
	{ PERF_FORMAT_TOTAL_TIME_RUNNING, "TOTAL_TIME_RUNNING" },
	{ PERF_FORMAT_ID, "ID" },
	{ PERF_FORMAT_GROUP, "GROUP" },
	{ PERF_FORMAT_LOST, "LOST" },
};

static const struct bit_name branch_bit_names[] = {
	{ PERF_SAMPLE_BRANCH_USER, "USER" },
	{ PERF_SAMPLE_BRANCH_KERNEL, "KERNEL" },
	{ PERF_SAMPLE_BRANCH_HV, "HV" },
	{ PERF_SAMPLE_BRANCH_ANY, "ANY" },
	{ PERF_SAMPLE_BRANCH_ANY_CALL, "ANY_CALL" },
	{ PERF_SAMPLE_BRANCH_ANY_RETURN, "ANY_RETURN" },
	{ PERF_SAMPLE_BRANCH_IND_CALL, "IND_CALL" },
	{ PERF_SAMPLE_BRANCH_ABORT_TX, "ABORT_TX" },
	{ PERF_SAMPLE_BRANCH_IN_TX, "IN_TX" },
	{ PERF_SAMPLE_BRANCH_NO_TX, "NO_TX" },
	{ PERF_SAMPLE_BRANCH_COND, "COND" },
	{ PERF_SAMPLE_BRANCH_CALL_STACK, "CALL_STACK" },
	{ PERF_SAMPLE_BRANCH_IND_JUMP, "IND_JUMP" },
	{ PERF_SAMPLE_BRANCH_CALL, "CALL" },
	{ PERF_SAMPLE_BRANCH_NO_FLAGS, "NO_FLAGS" },
	{ PERF_SAMPLE_BRANCH_NO_CYCLES, "NO_CYCLES" },
	{ PERF_SAMPLE_BRANCH_TYPE_SAVE, "TYPE_SAVE" },
	{ PERF_SAMPLE_BRANCH_HW_INDEX, "HW_INDEX" },
	{ PERF_SAMPLE_BRANCH_PRIV_SAVE, "PRIV_SAVE" },
};

/*
 * The shown fields in their order: SHOWN(member, kind) is labelled with the
 * member's name, RENAMED(member, label, kind) with a label of its own (the
 * union members perf names together).
 */
#define ATTR_SHOWN_FIELDS(SHOWN, RENAMED)                                            \
	SHOWN(type, AK_UNSIGNED)                                                      \
	SHOWN(size, AK_UNSIGNED)                                                      \
	SHOWN(config, AK_HEX)                                                         \
	RENAMED(sample_period, "{ sample_period, sample_freq }", AK_UNSIGNED)         \
	SHOWN(sample_type, AK_SAMPLE_BITS)                                            \
	SHOWN(read_format, AK_READ_BITS)                                              \
	SHOWN(disabled, AK_UNSIGNED)                                                  \
	SHOWN(inherit, AK_UNSIGNED)                                                   \
	SHOWN(pinned, AK_UNSIGNED)                                                    \
	SHOWN(exclusive, AK_UNSIGNED)                                                 \
	SHOWN(exclude_user, AK_UNSIGNED)                                              \
	SHOWN(exclude_kernel, AK_UNSIGNED)                                            \
	SHOWN(exclude_hv, AK_UNSIGNED)                                                \
	SHOWN(exclude_idle, AK_UNSIGNED)                                              \
	SHOWN(mmap, AK_UNSIGNED)                                                      \
	SHOWN(comm, AK_UNSIGNED)                                                      \
	SHOWN(freq, AK_UNSIGNED)                                                      \
	SHOWN(inherit_stat, AK_UNSIGNED)                                              \
	SHOWN(enable_on_exec, AK_UNSIGNED)                                            \
	SHOWN(task, AK_UNSIGNED)                                                      \
	SHOWN(watermark, AK_UNSIGNED)                                                 \
	SHOWN(precise_ip, AK_UNSIGNED)                                                \
	SHOWN(mmap_data, AK_UNSIGNED)                                                 \
	SHOWN(sample_id_all, AK_UNSIGNED)                                             \
	SHOWN(exclude_host, AK_UNSIGNED)                                              \
	SHOWN(exclude_guest, AK_UNSIGNED)                                             \
	SHOWN(exclude_callchain_kernel, AK_UNSIGNED)                                  \
	SHOWN(exclude_callchain_user, AK_UNSIGNED)                                    \
	SHOWN(mmap2, AK_UNSIGNED)                                                     \
	SHOWN(comm_exec, AK_UNSIGNED)                                                 \
	SHOWN(use_clockid, AK_UNSIGNED)                                               \
	SHOWN(context_switch, AK_UNSIGNED)                                            \
	SHOWN(write_backward, AK_UNSIGNED)                                            \
	SHOWN(namespaces, AK_UNSIGNED)                                                \
	SHOWN(ksymbol, AK_UNSIGNED)                                                   \
	SHOWN(bpf_event, AK_UNSIGNED)                                                 \
	SHOWN(aux_output, AK_UNSIGNED)                                                \
	SHOWN(cgroup, AK_UNSIGNED)                                                    \
	SHOWN(text_poke, AK_UNSIGNED)                                                 \
	SHOWN(build_id, AK_UNSIGNED)                                                  \
	SHOWN(inherit_thread, AK_UNSIGNED)                                            \
	SHOWN(remove_on_exec, AK_UNSIGNED)                                            \
	SHOWN(sigtrap, AK_UNSIGNED)                                                   \
	RENAMED(wakeup_events, "{ wakeup_events, wakeup_watermark }", AK_UNSIGNED)    \
	SHOWN(bp_type, AK_UNSIGNED)                                                   \
	RENAMED(bp_addr, "{ bp_addr, config1 }", AK_HEX)                              \
	RENAMED(bp_len, "{ bp_len, config2 }", AK_HEX)                                \
	SHOWN(branch_sample_type, AK_BRANCH_BITS)                                     \
	SHOWN(sample_regs_user, AK_HEX)                                               \
	SHOWN(sample_stack_user, AK_UNSIGNED)                                         \
	SHOWN(clockid, AK_SIGNED)                                                     \
	SHOWN(sample_regs_intr, AK_HEX)                                               \
	SHOWN(aux_watermark, AK_UNSIGNED)                                             \
	SHOWN(sample_max_stack, AK_UNSIGNED)                                          \
	SHOWN(aux_sample_size, AK_UNSIGNED)                                           \
	SHOWN(sig_data, AK_UNSIGNED)

/* one getter per field: bit-fields have no offset to put in a table */
#define GETTER(member) \
	static u64 attr_get_##member(const struct perf_event_attr *a) { return (u64)a->member; }
#define GETTER_SHOWN(member, kind) GETTER(member)
#define GETTER_RENAMED(member, label, kind) GETTER(member)
ATTR_SHOWN_FIELDS(GETTER_SHOWN, GETTER_RENAMED)

struct attr_field {
	const char *label;
	u64 (*get)(const struct perf_event_attr *a);
	enum attr_kind kind;
};

#define ROW_SHOWN(member, kind) { #member, attr_get_##member, kind },
#define ROW_RENAMED(member, label, kind) { label, attr_get_##member, kind },
static const struct attr_field attr_fields[] = { ATTR_SHOWN_FIELDS(ROW_SHOWN, ROW_RENAMED) };

/*
 * The names of @v's bits found in @names, '|'-joined, into @out (emptied
 * first). When no bit of @v has a name, @out is left as it was.
 */
static void put_bit_names(struct strbuf *out, u64 v, const struct bit_name *names, size_t nr)
{
	bool named = false;

	for (size_t i = 0; i < nr; i++) {
		if (!(v & names[i].bit))
			continue;
		if (!named)
			strbuf_reset(out);
		else
			strbuf_addch(out, '|');
		strbuf_addstr(out, names[i].name);
		named = true;
	}
}

/* @v as @kind's text into @out */
static void put_value(struct strbuf *out, enum attr_kind kind, u64 v)
{
	switch (kind) {
	case AK_UNSIGNED:
		strbuf_reset(out);
		strbuf_addf(out, "%" PRIu64, v);
		break;
	case AK_HEX:
		strbuf_reset(out);
		strbuf_addf(out, "%#" PRIx64, v);
		break;
	case AK_SIGNED:
		strbuf_reset(out);
		strbuf_addf(out, "%d", (int)(u32)v);
		break;
	case AK_SAMPLE_BITS:
		put_bit_names(out, v, sample_bit_names, ARRAY_SIZE(sample_bit_names));
		break;
	case AK_READ_BITS:
		put_bit_names(out, v, read_bit_names, ARRAY_SIZE(read_bit_names));
		break;
	case AK_BRANCH_BITS:
		put_bit_names(out, v, branch_bit_names, ARRAY_SIZE(branch_bit_names));
		break;
	}
}

bool attr_text_next(const struct perf_event_attr *attr, unsigned *pos, const char **label,
		    struct strbuf *val)
{
	while (*pos < ARRAY_SIZE(attr_fields)) {
		const struct attr_field *f = &attr_fields[(*pos)++];
		u64 v = f->get(attr);

		if (v) {
			*label = f->label;
			put_value(val, f->kind, v);
			return true;
		}
	}
	return false;
}
