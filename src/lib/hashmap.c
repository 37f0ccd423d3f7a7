/* SPDX-License-Identifier: MIT */
/* Open-addressing hash maps: u64 keys to pointers, and interned strings. */
#include "lib/hashmap.h"
#include "lib/xalloc.h"

#include <stdlib.h>
#include <string.h>

uint64_t hash_bytes(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

void u64map_init(struct u64map *m)
{
	memset(m, 0, sizeof(*m));
}

void u64map_release(struct u64map *m)
{
	free(m->keys);
	free(m->vals);
	u64map_init(m);
}

static size_t slot_of(const struct u64map *m, uint64_t key)
{
	size_t i = hash_u64(key) & m->mask;

	while (m->vals[i] && m->keys[i] != key)
		i = (i + 1) & m->mask;
	return i;
}

void *u64map_find(const struct u64map *m, uint64_t key)
{
	if (!m->nr)
		return NULL;
	return m->vals[slot_of(m, key)];
}

static void rehash(struct u64map *m, size_t cap)
{
	struct u64map n = { xcalloc(cap, sizeof(uint64_t)), xcalloc(cap, sizeof(void *)), 0,
			    cap - 1 };

	for (size_t i = 0; m->vals && i <= m->mask; i++) {
		if (m->vals[i]) {
			size_t j = slot_of(&n, m->keys[i]);

			n.keys[j] = m->keys[i];
			n.vals[j] = m->vals[i];
			n.nr++;
		}
	}
	free(m->keys);
	free(m->vals);
	*m = n;
}

void *u64map_set(struct u64map *m, uint64_t key, void *val)
{
	size_t i;
	void *old;

	if (!m->vals || (m->nr + 1) * 4 > (m->mask + 1) * 3)
		rehash(m, m->vals ? (m->mask + 1) * 2 : 16);
	i = slot_of(m, key);
	old = m->vals[i];
	if (!old)
		m->nr++;
	m->keys[i] = key;
	m->vals[i] = val;
	return old;
}

void *u64map_remove(struct u64map *m, uint64_t key)
{
	size_t i, j;
	void *old;

	if (!m->nr)
		return NULL;
	i = slot_of(m, key);
	old = m->vals[i];
	if (!old)
		return NULL;
	m->vals[i] = NULL;
	m->nr--;
	/* backward-shift deletion keeps probe chains intact without tombstones */
	j = i;
	for (;;) {
		size_t home;

		j = (j + 1) & m->mask;
		if (!m->vals[j])
			break;
		home = hash_u64(m->keys[j]) & m->mask;
		if ((j > i && (home <= i || home > j)) || (j < i && (home <= i && home > j))) {
			m->keys[i] = m->keys[j];
			m->vals[i] = m->vals[j];
			m->vals[j] = NULL;
			i = j;
		}
	}
	return old;
}

int u64map_for_each(const struct u64map *m, int (*fn)(uint64_t key, void *val, void *arg),
		    void *arg)
{
	for (size_t i = 0; m->vals && i <= m->mask; i++) {
		if (m->vals[i]) {
			int ret = fn(m->keys[i], m->vals[i], arg);

			if (ret)
				return ret;
		}
	}
	return 0;
}

struct pool_chunk {
	struct pool_chunk *next;
	char data[];
};

void strpool_init(struct strpool *p)
{
	memset(p, 0, sizeof(*p));
}

void strpool_release(struct strpool *p)
{
	struct pool_chunk *c = p->chunks;

	while (c) {
		struct pool_chunk *n = c->next;

		free(c);
		c = n;
	}
	free(p->slots);
	free(p->hashes);
	strpool_init(p);
}

static const char *pool_copy(struct strpool *p, const char *s, size_t len)
{
	char *d;

	if (len + 1 > p->chunk_size - p->chunk_used) {
		size_t sz = len + 1 > 32768 ? len + 1 : 65536;
		struct pool_chunk *c = xmalloc(sizeof(*c) + sz);

		c->next = p->chunks;
		p->chunks = c;
		p->chunk = c->data;
		p->chunk_size = sz;
		p->chunk_used = 0;
	}
	d = p->chunk + p->chunk_used;
	memcpy(d, s, len);
	d[len] = '\0';
	p->chunk_used += len + 1;
	return d;
}

static void pool_grow(struct strpool *p)
{
	size_t cap = p->slots ? (p->mask + 1) * 2 : 256;
	const char **slots = xcalloc(cap, sizeof(*slots));
	uint32_t *hashes = xcalloc(cap, sizeof(*hashes));

	for (size_t i = 0; p->slots && i <= p->mask; i++) {
		if (p->slots[i]) {
			size_t j = p->hashes[i] & (cap - 1);

			while (slots[j])
				j = (j + 1) & (cap - 1);
			slots[j] = p->slots[i];
			hashes[j] = p->hashes[i];
		}
	}
	free(p->slots);
	free(p->hashes);
	p->slots = slots;
	p->hashes = hashes;
	p->mask = cap - 1;
}

const char *strpool_intern_len(struct strpool *p, const char *s, size_t len)
{
	size_t i;
	uint32_t h;

	if (!p->slots || (p->nr + 1) * 2 > p->mask + 1)
		pool_grow(p);
	h = (uint32_t)hash_bytes(s, len);
	i = h & p->mask;
	while (p->slots[i]) {
		if (p->hashes[i] == h && !strncmp(p->slots[i], s, len) && p->slots[i][len] == '\0')
			return p->slots[i];
		i = (i + 1) & p->mask;
	}
	p->slots[i] = pool_copy(p, s, len);
	p->hashes[i] = h;
	p->nr++;
	return p->slots[i];
}

const char *strpool_intern(struct strpool *p, const char *s)
{
	return strpool_intern_len(p, s, strlen(s));
}
