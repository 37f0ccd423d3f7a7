/* SPDX-License-Identifier: MIT */
/* Session: reader + ordered events queue + machine; delivers records to a tool. */
#define PR_PREFIX "session"
#include "session/session.h"
#include "session/ordered-events.h"

#include "core/evlist.h"
#include "core/evsel.h"
#include "data/sample.h"
#include "lib/debug.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

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

struct session *session_new(struct data_reader *reader, const struct machine_opts *opts)
{
	struct session *s = xzalloc(sizeof(*s));

	s->reader = reader;
	return session_setup(s, opts);
}

struct session *session_new_borrowed(struct data_reader *reader, const struct machine_opts *opts)
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
	ordered_events_free(s->oq);
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
static int deliver(struct session *s, struct tool *tool, const union perf_event *ev,
		   const struct record_pos *pos)
{
	struct perf_sample sample;
	struct evsel *evsel = NULL;
	struct machine *m = &s->machine;

	if (data_reader_parse_sample(s->reader, ev, &sample, &evsel) &&
	    ev->header.type == PERF_RECORD_SAMPLE) {
		s->stats.nr_bad_samples++;
		/* a raw dump shows it anyway, as a sample it could not decode */
		return tool->event ? tool->event(tool, s, ev, pos) : 0;
	}
	if (ev->header.type == PERF_RECORD_LOST)
		s->stats.total_lost += ev->lost.lost;
	else if (ev->header.type == PERF_RECORD_LOST_SAMPLES)
		s->stats.total_lost_samples += ev->lost_samples.lost;
	if (ev->header.type != PERF_RECORD_SAMPLE)
		machine_process_event(m, ev);
	/* a tool that takes records whole (raw dumps) sees each once */
	if (tool->event)
		return tool->event(tool, s, ev, pos);
	if (ev->header.type == PERF_RECORD_SAMPLE) {
		if (!evsel || !tool->sample)
			return 0;
		if (evsel->attr.sample_type & PERF_SAMPLE_READ)
			return deliver_sample_read(s, tool, ev, &sample, evsel);
		return tool->sample(tool, s, ev, &sample, evsel);
	}
	return tool->other ? tool->other(tool, s, ev, &sample) : 0;
}

/* the timestamp's offset in a SAMPLE of @attr (from the record start), -1: none */
static int sample_time_offset(const struct perf_event_attr *attr)
{
	u64 t = attr->sample_type;

	if (!(t & PERF_SAMPLE_TIME))
		return -1;
	return sizeof(struct perf_event_header) +
	       8 * (!!(t & PERF_SAMPLE_IDENTIFIER) + !!(t & PERF_SAMPLE_IP) + !!(t & PERF_SAMPLE_TID));
}

/* bytes back from the end of another record to its trailer's timestamp, -1: none */
static int trailer_time_offset(const struct perf_event_attr *attr)
{
	u64 t = attr->sample_type;

	if (!attr->sample_id_all || !(t & PERF_SAMPLE_TIME))
		return -1;
	return 8 * (1 + !!(t & PERF_SAMPLE_ID) + !!(t & PERF_SAMPLE_STREAM_ID) +
		     !!(t & PERF_SAMPLE_CPU) + !!(t & PERF_SAMPLE_IDENTIFIER));
}

/*
 * time_offsets - where the timestamp sits when every event puts it at the
 * same place: bytes from the record start of a SAMPLE, bytes from the end
 * of other records (their sample_id trailer). -1 when unknown. Only the
 * fields before the timestamp matter, so events whose sample_types differ
 * after it (perf sched's dummy event has no PERIOD) still share offsets and
 * the queue need not parse each record to place it.
 */
static void time_offsets(struct session *s)
{
	struct evsel *evsel, *first = evlist_first(s->evlist);

	s->sample_time_off = s->trailer_time_off = -1;
	if (!first)
		return;
	s->sample_time_off = sample_time_offset(&first->attr);
	s->trailer_time_off = trailer_time_offset(&first->attr);
	evlist_for_each_entry(s->evlist, evsel) {
		if (sample_time_offset(&evsel->attr) != s->sample_time_off)
			s->sample_time_off = -1;
		if (trailer_time_offset(&evsel->attr) != s->trailer_time_off)
			s->trailer_time_off = -1;
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

/* ordered delivery: the queue hands records back in time order */
struct delivery {
	struct session *session;
	struct tool *tool;
};

static int deliver_queued(void *arg, const union perf_event *ev, u64 time,
			  const struct record_pos *pos)
{
	struct delivery *d = arg;

	(void)time;
	return deliver(d->session, d->tool, ev, pos);
}

static void read_pos(struct session *s, u64 offset, struct record_pos *pos)
{
	pos->offset = offset;
	if (!data_reader_in_compressed(s->reader, &pos->compressed_offset))
		pos->compressed_offset = ~0ULL;
	pos->file = data_reader_cur_path(s->reader);
}

/* the reader keeps the file pages of the queued records, from the oldest on */
static void hold_kept(struct session *s)
{
	if (!s->held)
		return;
	s->held = ordered_events_oldest_kept(s->oq);
	data_reader_hold(s->reader, s->held);
}

int session_mark_hit(struct tool *tool, struct session *session, const union perf_event *ev,
		     const struct perf_sample *sample, struct evsel *evsel)
{
	struct map *map = machine_sample_map(&session->machine, sample);

	(void)tool, (void)ev, (void)evsel;
	if (map && map->dso)
		map->dso->is_hit = true;
	return 0;
}

/*
 * ---- two threads: one reads and orders, the other delivers ----
 *
 * The reader thread does what session_process() does up to delivery and
 * appends each record it would deliver to a batch; the calling thread
 * delivers the batches in turn. Records in the file's mapping are passed
 * as they are (their pages are held until delivered), others are copied,
 * as the reader reuses their buffer. Only for a seekable file with one
 * event and timestamps at fixed places: the reader thread then never
 * parses a sample (the reader's id cache is the delivering thread's).
 */
#define PIPE_SLOTS 3
#define PIPE_BATCH 4096

struct pipe_batch {
	const union perf_event **evs;
	size_t nr, alloc;
	void **copies; /* owned: the records not in the mapping */
	size_t nr_copies, alloc_copies;
	const union perf_event *low; /* the lowest record in the mapping, or NULL */
};

struct session_pipe {
	struct session *s;
	pthread_t th;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct pipe_batch slots[PIPE_SLOTS];
	const union perf_event *pub_low[PIPE_SLOTS]; /* the reader's copy of each handed
							batch's low */
	u64 published, consumed; /* batches handed over, batches delivered */
	bool done, stop;	 /* the reader is through; the deliverer stopped */
	int ret;		 /* the reader's result */
	struct data_error *err;
};

static bool pipe_possible(const struct session *s, const struct tool *tool)
{
	const struct perf_header *h = data_reader_header(s->reader);

	/* every record in the mapping: none compressed, swapped, or in another file */
	return tool->two_threads && tool->ordered && tool->sample && !tool->other &&
	       !tool->read && !tool->event && !tool->progress && s->evlist &&
	       s->evlist->nr_entries == 1 && !data_reader_is_pipe(s->reader) &&
	       !data_reader_is_dir(s->reader) && h && !h->needs_swap &&
	       !perf_header_has_feat(h, HEADER_COMPRESSED) && s->sample_time_off > 0 &&
	       s->trailer_time_off > 0;
}

/* the timestamp at its fixed place, 0 when the record does not have it there */
static u64 pipe_record_time(const struct session *s, const union perf_event *ev)
{
	u64 t = 0;

	if (ev->header.type == PERF_RECORD_SAMPLE) {
		if ((int)ev->header.size >= s->sample_time_off + 8)
			memcpy(&t, (const char *)ev + s->sample_time_off, 8);
	} else if (ev->header.size >= sizeof(ev->header) + (unsigned)s->trailer_time_off) {
		memcpy(&t, (const char *)ev + ev->header.size - s->trailer_time_off, 8);
	}
	return t;
}

static struct pipe_batch *pipe_filling(struct session_pipe *p)
{
	return &p->slots[p->published % PIPE_SLOTS];
}

static void batch_add(struct session_pipe *p, const union perf_event *ev)
{
	struct pipe_batch *b = pipe_filling(p);

	b->evs = xgrow(b->evs, b->nr + 1, &b->alloc, sizeof(*b->evs));
	b->evs[b->nr++] = ev;
	if (data_reader_record_kept(p->s->reader, ev)) {
		if (!b->low || ev < b->low)
			b->low = ev;
	} else {
		/* a copy made at reading: the batch frees it once delivered */
		b->copies = xgrow(b->copies, b->nr_copies + 1, &b->alloc_copies, sizeof(*b->copies));
		b->copies[b->nr_copies++] = (void *)ev;
	}
}

static int pipe_collect(void *arg, const union perf_event *ev, u64 time,
			const struct record_pos *pos)
{
	(void)time, (void)pos;
	batch_add(arg, ev);
	return 0;
}

/*
 * hand the filled batch over when it is big enough (at @last, even an
 * empty one); the reader keeps the pages of what is queued, of the batch
 * filling and of the batches not yet delivered. False: the deliverer stopped.
 */
static bool pipe_publish(struct session_pipe *p, bool last)
{
	const union perf_event *hold = ordered_events_oldest_kept(p->s->oq);
	struct pipe_batch *b = pipe_filling(p);
	bool stop;
	u64 consumed;

	pthread_mutex_lock(&p->lock);
	if (last || b->nr >= PIPE_BATCH) {
		p->pub_low[p->published % PIPE_SLOTS] = b->low;
		p->published++;
		p->done = last;
		pthread_cond_broadcast(&p->cond);
		/* the next slot to fill must be delivered and emptied */
		while (!p->stop && p->published - p->consumed >= PIPE_SLOTS)
			pthread_cond_wait(&p->cond, &p->lock);
		b = NULL;
	}
	consumed = p->consumed;
	stop = p->stop;
	pthread_mutex_unlock(&p->lock);
	if (last)
		return !stop;
	/* pub_low is the reader's own: no lock needed to read it */
	for (u64 i = consumed; i < p->published; i++) {
		const union perf_event *low = p->pub_low[i % PIPE_SLOTS];

		if (low && (!hold || low < hold))
			hold = low;
	}
	if (b && b->low && (!hold || b->low < hold))
		hold = b->low;
	data_reader_hold(p->s->reader, hold);
	return !stop;
}

static void *pipe_reader_main(void *arg)
{
	struct session_pipe *p = arg;
	struct session *s = p->s;
	union perf_event *ev;
	u64 offset;
	int ret;

	while ((ret = data_reader_next(s->reader, &ev, &offset, p->err)) > 0) {
		u32 type = ev->header.type;
		bool kept = data_reader_record_kept(s->reader, ev);
		u64 t;

		if (type < PERF_RECORD_HEADER_MAX)
			s->stats.nr_events[type]++;
		if (type >= PERF_RECORD_USER_TYPE_START) {
			if (type == PERF_RECORD_FINISHED_ROUND) {
				ordered_events_flush(s->oq, s->next_flush, false, pipe_collect, p);
				s->next_flush = ordered_events_max_time(s->oq);
				if (!pipe_publish(p, false))
					break;
			}
			continue;
		}
		if (!kept)
			ev = xmemdup(ev, ev->header.size);
		t = pipe_record_time(s, ev);
		if (!t) {
			batch_add(p, ev);
			continue;
		}
		if (t < ordered_events_last_delivered(s->oq))
			s->stats.nr_unordered++;
		ordered_events_queue_kept(s->oq, ev, t);
		if (ordered_events_over_limit(s->oq)) {
			ordered_events_flush_half(s->oq, pipe_collect, p);
			if (!pipe_publish(p, false))
				break;
		}
	}
	p->ret = ret;
	ordered_events_flush(s->oq, 0, true, pipe_collect, p);
	pipe_publish(p, true);
	return NULL;
}

static void batch_empty(struct pipe_batch *b)
{
	for (size_t i = 0; i < b->nr_copies; i++)
		free(b->copies[i]);
	b->nr = b->nr_copies = 0;
	b->low = NULL;
}

static int session_process_two(struct session *s, struct tool *tool, struct data_error *err)
{
	struct session_pipe p = { .s = s, .err = err };
	struct record_pos pos = { 0, ~0ULL, NULL };
	int ret = 0;

	s->oq = ordered_events_new(SESSION_QUEUE_BYTES, false);
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.cond, NULL);
	if (pthread_create(&p.th, NULL, pipe_reader_main, &p)) {
		pthread_cond_destroy(&p.cond);
		pthread_mutex_destroy(&p.lock);
		return -EAGAIN;
	}
	for (;;) {
		struct pipe_batch *b;
		bool last;

		pthread_mutex_lock(&p.lock);
		while (p.consumed == p.published)
			pthread_cond_wait(&p.cond, &p.lock);
		b = &p.slots[p.consumed % PIPE_SLOTS];
		last = p.done && p.consumed + 1 == p.published;
		pthread_mutex_unlock(&p.lock);
		for (size_t i = 0; i < b->nr && !ret; i++)
			ret = deliver(s, tool, b->evs[i], &pos);
		batch_empty(b);
		pthread_mutex_lock(&p.lock);
		p.consumed++;
		p.stop = ret != 0;
		pthread_cond_broadcast(&p.cond);
		pthread_mutex_unlock(&p.lock);
		if (last || ret)
			break;
	}
	pthread_join(p.th, NULL);
	/* after a stop, what the reader handed over undelivered is dropped */
	for (int i = 0; i < PIPE_SLOTS; i++) {
		batch_empty(&p.slots[i]);
		free(p.slots[i].evs);
		free(p.slots[i].copies);
	}
	pthread_cond_destroy(&p.cond);
	pthread_mutex_destroy(&p.lock);
	if (ret)
		return ret;
	return p.ret < 0 ? p.ret : 0;
}

int session_process(struct session *s, struct tool *tool, struct data_error *err)
{
	struct delivery d = { s, tool };
	bool want_pos = tool->read || tool->event;
	struct record_pos pos = { 0, ~0ULL, NULL };
	union perf_event *ev;
	u64 offset, nr = 0;
	int ret;

	if (!s->oq && pipe_possible(s, tool))
		return session_process_two(s, tool, err);
	if (tool->ordered && !s->oq)
		s->oq = ordered_events_new(SESSION_QUEUE_BYTES, want_pos);
	while ((ret = data_reader_next(s->reader, &ev, &offset, err)) > 0) {
		u32 type = ev->header.type;

		if (type < PERF_RECORD_HEADER_MAX)
			s->stats.nr_events[type]++;
		if (tool->progress && !(++nr & 0xffff))
			tool->progress(tool, offset, s->file_size);
		if (want_pos)
			read_pos(s, offset, &pos);
		if (tool->read && (ret = tool->read(tool, s, ev, &pos)))
			return ret;
		if (type >= PERF_RECORD_USER_TYPE_START) {
			if (type == PERF_RECORD_FINISHED_ROUND && tool->ordered) {
				ret = ordered_events_flush(s->oq, s->next_flush, false, deliver_queued, &d);
				s->next_flush = ordered_events_max_time(s->oq);
				hold_kept(s);
				if (ret)
					return ret;
			}
			if (tool->other && (ret = tool->other(tool, s, ev, NULL)))
				return ret;
			continue;
		}
		if (!tool->sample && !tool->other && !tool->event)
			continue; /* a tool that only counts what it reads */
		if (!tool->ordered) {
			if ((ret = deliver(s, tool, ev, &pos)))
				return ret;
			continue;
		}
		u64 t = record_time(s, ev);

		/*
		 * a record without a timestamp cannot be placed: it goes out
		 * now, as in perf (before every queued one, between the round
		 * markers it was read between)
		 */
		if (!t) {
			if ((ret = deliver(s, tool, ev, &pos)))
				return ret;
			continue;
		}
		if (t < ordered_events_last_delivered(s->oq))
			s->stats.nr_unordered++;
		/*
		 * a record in the file's mapping stays readable: queue it in
		 * place, no copy (positions are kept only with copies)
		 */
		if (!want_pos && data_reader_record_kept(s->reader, ev)) {
			ordered_events_queue_kept(s->oq, ev, t);
			if (!s->held)
				data_reader_hold(s->reader, s->held = ev);
		} else {
			ordered_events_queue(s->oq, ev, t, &pos);
		}
		/* no round markers (a pipe, an old file): memory decides when to deliver */
		if (ordered_events_over_limit(s->oq)) {
			ret = ordered_events_flush_half(s->oq, deliver_queued, &d);
			hold_kept(s);
			if (ret)
				return ret;
		}
	}
	/* what was read before a damaged part is delivered all the same */
	if (tool->ordered) {
		int flushed = ordered_events_flush(s->oq, 0, true, deliver_queued, &d);

		hold_kept(s);
		if (ret >= 0)
			ret = flushed;
	}
	return ret < 0 ? ret : 0;
}

int session_deliver_event(struct session *s, struct tool *tool, const union perf_event *ev)
{
	struct record_pos pos = { 0, ~0ULL, NULL };
	u32 type = ev->header.type;

	if (type < PERF_RECORD_HEADER_MAX)
		s->stats.nr_events[type]++;
	if (type >= PERF_RECORD_USER_TYPE_START)
		return 0;
	return deliver(s, tool, ev, &pos);
}
