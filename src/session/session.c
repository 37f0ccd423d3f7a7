/* SPDX-License-Identifier: MIT */
/* Session: reader + ordered events queue + machine; delivers records to a tool. */
#define PR_PREFIX "session"
#include "session/session.h"

#include "core/evlist.h"
#include "core/evsel.h"
#include "data/sample.h"
#include "lib/debug.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/*
 * The ordered queue keeps copies of records in 1 MiB chunks. A chunk is
 * freed when every record in it has been delivered.
 */
#define OQ_CHUNK (1u << 20)

struct oq_chunk {
	size_t used;
	size_t live; /* records not yet delivered */
	struct oq_chunk *next;
	u8 data[];
};

struct oq_event {
	u64 time;
	u64 seq;
	union perf_event *ev;
	struct oq_chunk *chunk;
};

struct ordered_queue {
	struct oq_event *evs;
	size_t nr, alloc;
	size_t nr_sorted;   /* evs[0..nr_sorted) are in order */
	u64 seq;
	u64 max_time;	    /* newest timestamp queued */
	u64 next_flush;	    /* deliver up to this time at the next round */
	u64 last_delivered; /* timestamp of the last record delivered */
	struct oq_chunk *cur;
	struct oq_chunk *full; /* chunks with live records, not current */
	struct oq_chunk *spare; /* emptied chunks kept for reuse (no fresh page faults) */
	int nr_spare;
};

static void chunk_retire(struct ordered_queue *oq, struct oq_chunk *c)
{
	if (oq->nr_spare < 8) {
		c->next = oq->spare;
		oq->spare = c;
		oq->nr_spare++;
	} else {
		free(c);
	}
}

static void oq_free(struct ordered_queue *oq)
{
	if (!oq)
		return;
	free(oq->evs);
	free(oq->cur);
	for (struct oq_chunk *c = oq->spare, *n; c; c = n) {
		n = c->next;
		free(c);
	}
	for (struct oq_chunk *c = oq->full, *n; c; c = n) {
		n = c->next;
		free(c);
	}
	free(oq);
}

static void oq_push(struct ordered_queue *oq, const union perf_event *ev, u64 time)
{
	size_t size = ev->header.size;
	struct oq_event *e;

	if (!oq->cur || oq->cur->used + size > OQ_CHUNK) {
		if (oq->cur) {
			if (oq->cur->live) {
				oq->cur->next = oq->full;
				oq->full = oq->cur;
			} else {
				chunk_retire(oq, oq->cur);
			}
		}
		if (oq->spare) {
			oq->cur = oq->spare;
			oq->spare = oq->cur->next;
			oq->nr_spare--;
		} else {
			oq->cur = xmalloc(sizeof(*oq->cur) + OQ_CHUNK);
		}
		oq->cur->used = oq->cur->live = 0;
		oq->cur->next = NULL;
	}
	oq->evs = xgrow(oq->evs, oq->nr + 1, &oq->alloc, sizeof(*oq->evs));
	e = &oq->evs[oq->nr++];
	e->time = time;
	e->seq = oq->seq++;
	e->ev = (union perf_event *)(oq->cur->data + oq->cur->used);
	e->chunk = oq->cur;
	memcpy(e->ev, ev, size);
	oq->cur->used += (size + 7) & ~(size_t)7;
	oq->cur->live++;
	if (time > oq->max_time)
		oq->max_time = time;
}

static void oq_release_chunk(struct ordered_queue *oq, struct oq_chunk *chunk)
{
	if (--chunk->live || chunk == oq->cur)
		return;
	for (struct oq_chunk **pp = &oq->full; *pp; pp = &(*pp)->next) {
		if (*pp == chunk) {
			*pp = chunk->next;
			chunk_retire(oq, chunk);
			return;
		}
	}
}

static int oq_cmp(const void *pa, const void *pb)
{
	const struct oq_event *a = pa, *b = pb;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void time_offsets(struct session *s);

static int free_value(uint64_t key, void *val, void *arg)
{
	(void)key;
	(void)arg;
	free(val);
	return 0;
}


static struct session *session_setup(struct session *s, const struct machine_opts *opts)
{
	const struct perf_header *h;

	s->evlist = data_reader_evlist(s->reader);
	strpool_init(&s->names);
	u64map_init(&s->read_values);
	machine_init(&s->machine, &s->names, opts);
	h = data_reader_header(s->reader);
	machine_set_build_ids(&s->machine, h->build_ids, h->nr_build_ids);
	s->oq = xzalloc(sizeof(*s->oq));
	s->file_size = h->data_offset + h->data_size;
	time_offsets(s);
	return s;
}

struct session *session_open(const char *path, const struct machine_opts *opts,
			     struct data_error *err)
{
	struct session *s = xzalloc(sizeof(*s));

	s->reader = data_reader_open(path, err);
	if (!s->reader) {
		free(s);
		return NULL;
	}
	return session_setup(s, opts);
}

struct session *session_from_reader(struct data_reader *reader, const struct machine_opts *opts)
{
	struct session *s = xzalloc(sizeof(*s));

	s->reader = reader;
	return session_setup(s, opts);
}

struct session *session_new_from_reader(struct data_reader *reader, const struct machine_opts *opts)
{
	struct session *s = xzalloc(sizeof(*s));

	s->reader = reader;
	s->borrowed_reader = true;
	return session_setup(s, opts);
}

void session_free(struct session *s)
{
	if (!s)
		return;
	machine_release(&s->machine);
	strpool_release(&s->names);
	u64map_for_each(&s->read_values, free_value, NULL);
	u64map_release(&s->read_values);
	oq_free(s->oq);
	if (!s->borrowed_reader)
		data_reader_close(s->reader);
	free(s);
}

/*
 * deliver_value - one counter value of a PERF_SAMPLE_READ sample: a sample
 * of that counter's event whose period is what it counted since its last
 * sample (perf's semantics; nothing is delivered for a zero delta).
 */
static int deliver_value(struct session *s, struct tool *tool, const union perf_event *ev,
			 struct perf_sample *sample, u64 id, u64 value)
{
	struct evsel *evsel = data_reader_evsel_for_id(s->reader, id);
	u64 *last = u64map_find(&s->read_values, id);

	if (!last) {
		last = xzalloc(sizeof(*last));
		u64map_set(&s->read_values, id, last);
	}
	sample->id = id;
	sample->period = value - *last;
	*last = value;
	if (!evsel || !sample->period)
		return 0;
	return tool->sample(tool, s, ev, sample, evsel);
}

static int deliver_sample_read(struct session *s, struct tool *tool, const union perf_event *ev,
			       struct perf_sample *sample, struct evsel *evsel)
{
	u64 rf = evsel->attr.read_format;
	int ret = 0;

	if (!(rf & PERF_FORMAT_ID))
		return tool->sample(tool, s, ev, sample, evsel);
	if (!(rf & PERF_FORMAT_GROUP))
		return deliver_value(s, tool, ev, sample, sample->read.one.id, sample->read.one.value);
	if (!sample->read.values)
		return 0;
	size_t sz = (size_t)perf_sample_read_value_size(rf);

	for (u64 i = 0; i < sample->read.nr && !ret; i++) {
		const u64 *v = (const u64 *)((const char *)sample->read.values + i * sz);

		ret = deliver_value(s, tool, ev, sample, v[1], v[0]);
	}
	return ret;
}

/* deliver one record: update the model, then tell the tool */
static int deliver(struct session *s, struct tool *tool, const union perf_event *ev)
{
	struct perf_sample sample;
	struct evsel *evsel = NULL;
	struct machine *m = &s->machine;
	int err;

	if (data_reader_parse_sample(s->reader, ev, &sample, &evsel)) {
		if (ev->header.type == PERF_RECORD_SAMPLE) {
			s->stats.nr_bad_samples++;
			return 0;
		}
	}
	switch (ev->header.type) {
	case PERF_RECORD_SAMPLE:
		if (!evsel || !tool->sample)
			return 0;
		if (evsel->attr.sample_type & PERF_SAMPLE_READ)
			return deliver_sample_read(s, tool, ev, &sample, evsel);
		return tool->sample(tool, s, ev, &sample, evsel);
	case PERF_RECORD_MMAP:
		machine_process_mmap(m, ev);
		break;
	case PERF_RECORD_MMAP2:
		machine_process_mmap2(m, ev);
		break;
	case PERF_RECORD_COMM:
		machine_process_comm(m, ev);
		break;
	case PERF_RECORD_FORK:
		machine_process_fork(m, ev);
		break;
	case PERF_RECORD_EXIT:
		machine_process_exit(m, ev);
		break;
	case PERF_RECORD_LOST:
		s->stats.total_lost += ev->lost.lost;
		break;
	case PERF_RECORD_LOST_SAMPLES:
		s->stats.total_lost_samples += ev->lost_samples.lost;
		break;
	default:
		break;
	}
	err = tool->other ? tool->other(tool, s, ev, &sample) : 0;
	return err;
}

static bool oq_le(const struct oq_event *a, const struct oq_event *b)
{
	return a->time < b->time || (a->time == b->time && a->seq <= b->seq);
}

/*
 * oq_sort - order the queue. Records arrive as a few sorted runs (one per
 * ring buffer and round), so a natural merge sort does O(n log runs) work
 * where qsort would do O(n log n).
 */
static void oq_sort(struct ordered_queue *oq)
{
	size_t n = oq->nr, nr_runs;
	struct oq_event *src = oq->evs, *dst, *tmp;

	if (n < 2)
		return;
	for (;;) {
		nr_runs = 1;
		for (size_t i = 1; i < n; i++)
			if (!oq_le(&src[i - 1], &src[i]))
				nr_runs++;
		if (nr_runs == 1)
			break;
		if (nr_runs > 64) {
			qsort(src, n, sizeof(*src), oq_cmp);
			break;
		}
		dst = xmalloc(n * sizeof(*dst));
		while (nr_runs > 1) {
			size_t i = 0, o = 0;

			nr_runs = 0;
			while (i < n) {
				size_t a = i, a_end = i + 1, b, b_end;

				while (a_end < n && oq_le(&src[a_end - 1], &src[a_end]))
					a_end++;
				b = b_end = a_end;
				while (b_end < n && (b_end == b || oq_le(&src[b_end - 1], &src[b_end])))
					b_end++;
				while (a < a_end && b < b_end)
					dst[o++] = oq_le(&src[a], &src[b]) ? src[a++] : src[b++];
				while (a < a_end)
					dst[o++] = src[a++];
				while (b < b_end)
					dst[o++] = src[b++];
				i = b_end;
				nr_runs++;
			}
			tmp = src;
			src = dst;
			dst = tmp;
		}
		if (src != oq->evs) {
			memcpy(oq->evs, src, n * sizeof(*src));
			free(src);
		} else {
			free(dst);
		}
		break;
	}
}

static int oq_flush(struct session *s, struct tool *tool, u64 limit, bool all)
{
	struct ordered_queue *oq = s->oq;
	size_t i, n;
	int err = 0;

	if (oq->nr_sorted < oq->nr)
		oq_sort(oq);
	oq->nr_sorted = oq->nr;
	for (i = 0; i < oq->nr; i++) {
		struct oq_event *e = &oq->evs[i];

		if (!all && e->time > limit)
			break;
		oq->last_delivered = e->time;
		err = deliver(s, tool, e->ev);
		oq_release_chunk(oq, e->chunk);
		if (err) {
			i++;
			break;
		}
	}
	n = oq->nr - i;
	memmove(oq->evs, oq->evs + i, n * sizeof(*oq->evs));
	oq->nr = n;
	oq->nr_sorted = n;
	return err;
}

/*
 * time_offsets - where the timestamp sits when every event has the same
 * sample_type: bytes from the body start of a SAMPLE, bytes from the end
 * of other records (their sample_id trailer). -1 when unknown.
 */
static void time_offsets(struct session *s)
{
	struct evsel *evsel, *first = evlist_first(s->evlist);
	u64 t;

	s->sample_time_off = s->trailer_time_off = -1;
	if (!first)
		return;
	t = first->attr.sample_type;
	evlist_for_each_entry(s->evlist, evsel)
		if (evsel->attr.sample_type != t ||
		    evsel->attr.sample_id_all != first->attr.sample_id_all)
			return;
	if (!(t & PERF_SAMPLE_TIME))
		return;
	s->sample_time_off = sizeof(struct perf_event_header) +
			     8 * (!!(t & PERF_SAMPLE_IDENTIFIER) + !!(t & PERF_SAMPLE_IP) +
				  !!(t & PERF_SAMPLE_TID));
	if (first->attr.sample_id_all) {
		int n = !!(t & PERF_SAMPLE_TIME) + !!(t & (PERF_SAMPLE_ID)) +
			!!(t & PERF_SAMPLE_STREAM_ID) + !!(t & PERF_SAMPLE_CPU) +
			!!(t & PERF_SAMPLE_IDENTIFIER);

		s->trailer_time_off = 8 * n;
	}
}

static u64 record_time(struct session *s, const union perf_event *ev)
{
	struct perf_sample sample;
	u64 t;

	if (ev->header.type == PERF_RECORD_SAMPLE && s->sample_time_off > 0 &&
	    (int)ev->header.size >= s->sample_time_off + 8) {
		memcpy(&t, (const char *)ev + s->sample_time_off, 8);
		return t;
	}
	if (ev->header.type != PERF_RECORD_SAMPLE && s->trailer_time_off > 0 &&
	    !data_reader_is_pipe(s->reader) &&
	    ev->header.size >= sizeof(ev->header) + (unsigned)s->trailer_time_off) {
		memcpy(&t, (const char *)ev + ev->header.size - s->trailer_time_off, 8);
		return t;
	}

	if (data_reader_parse_sample(s->reader, ev, &sample, NULL))
		return 0;
	return sample.time;
}

int session_process(struct session *s, struct tool *tool, struct data_error *err)
{
	union perf_event *ev;
	u64 offset, nr = 0;
	int ret;

	while ((ret = data_reader_next(s->reader, &ev, &offset, err)) > 0) {
		u32 type = ev->header.type;

		if (type < PERF_RECORD_HEADER_MAX)
			s->stats.nr_events[type]++;
		if (tool->progress && !(++nr & 0xffff))
			tool->progress(tool, offset, s->file_size);
		if (type >= PERF_RECORD_USER_TYPE_START) {
			if (type == PERF_RECORD_FINISHED_ROUND && tool->ordered) {
				ret = oq_flush(s, tool, s->oq->next_flush, false);
				s->oq->next_flush = s->oq->max_time;
				if (ret)
					return ret;
			}
			if (tool->other) {
				ret = tool->other(tool, s, ev, NULL);
				if (ret)
					return ret;
			}
			continue;
		}
		if (!tool->ordered) {
			ret = deliver(s, tool, ev);
			if (ret)
				return ret;
			continue;
		}
		u64 t = record_time(s, ev);

		if (t < s->oq->last_delivered && t)
			s->stats.nr_unordered++;
		oq_push(s->oq, ev, t);
	}
	if (ret < 0)
		return ret;
	if (tool->ordered)
		return oq_flush(s, tool, 0, true);
	return 0;
}

u32 session_resolve_callchain(struct machine *machine, struct thread *thread,
			      const struct perf_sample *sample, int max_stack, bool caller_order,
			      const struct frame ***frames, size_t *alloc)
{
	const struct ip_callchain *cc = sample->callchain;
	u64 n, i;
	u32 nr = 0;
	int cpumode = PERF_RECORD_MISC_USER;

	if (!cc || !cc->nr)
		return 0;
	n = cc->nr;
	if (max_stack <= 0)
		max_stack = 127;
	*frames = xgrow(*frames, n, alloc, sizeof(**frames));
	if (!caller_order) {
		for (i = 0; i < n && (int)nr < max_stack; i++) {
			u64 ip = cc->ips[i];

			if (ip >= PERF_CONTEXT_MAX) {
				int mode = callchain_context_cpumode(ip);

				if (mode >= 0)
					cpumode = mode;
				continue;
			}
			(*frames)[nr++] = machine_resolve_ip(machine, thread, cpumode, ip);
		}
		return nr;
	}
	/*
	 * Caller order: perf walks from the outermost frame, so --max-stack
	 * keeps the outermost frames. Each ip's cpumode is that of the nearest
	 * marker before it in the record.
	 */
	u64 start = 0;
	u32 taken = 0;

	for (i = n; i-- > 0;) {
		if (cc->ips[i] < PERF_CONTEXT_MAX) {
			if ((int)taken == max_stack)
				break;
			taken++;
			start = i;
		}
	}
	for (i = 0; i < n; i++) {
		u64 ip = cc->ips[i];

		if (ip >= PERF_CONTEXT_MAX) {
			int mode = callchain_context_cpumode(ip);

			if (mode >= 0)
				cpumode = mode;
			continue;
		}
		if (i < start)
			continue;
		(*frames)[nr++] = machine_resolve_ip(machine, thread, cpumode, ip);
	}
	return nr;
}
