/* SPDX-License-Identifier: MIT */
/* Open-addressing hash maps: u64 keys to pointers, and interned strings. */
#ifndef SONDE_LIB_HASHMAP_H
#define SONDE_LIB_HASHMAP_H

#include <stddef.h>
#include <stdint.h>

/*
 * struct u64map - map from a 64-bit key to a non-NULL pointer value.
 * Values are borrowed: the map never frees them.
 */
struct u64map {
	uint64_t *keys;
	void **vals; /* NULL marks an empty slot */
	size_t nr;
	size_t mask; /* capacity - 1; capacity is a power of two, or 0 */
};

#define U64MAP_INIT { NULL, NULL, 0, 0 }

void u64map_init(struct u64map *m);
void u64map_release(struct u64map *m);
/* u64map_find - the value for @key, or NULL. */
void *u64map_find(const struct u64map *m, uint64_t key);
/* u64map_set - insert or replace; @val must not be NULL. Returns the old value or NULL. */
void *u64map_set(struct u64map *m, uint64_t key, void *val);
/* u64map_remove - delete @key. Returns the removed value or NULL. */
void *u64map_remove(struct u64map *m, uint64_t key);
/* u64map_for_each - visit every entry (order unspecified); stop when @fn returns non-zero. */
int u64map_for_each(const struct u64map *m, int (*fn)(uint64_t key, void *val, void *arg),
		    void *arg);

/* hash_u64 - the splitmix64 finaliser: cheap, mixes every bit (inline: hot in every map) */
static inline uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

uint64_t hash_bytes(const void *data, size_t len);

/*
 * struct strpool - string interning: equal strings give the same pointer,
 * so later comparisons are pointer compares. The pool owns the strings;
 * they live until strpool_release().
 */
struct strpool {
	const char **slots;
	size_t nr;
	size_t mask;
	char *chunk; /* current allocation chunk */
	size_t chunk_used, chunk_size;
	void *chunks; /* list of chunks to free */
	uint32_t *hashes; /* hash of slots[i], so probes and growth skip string work */
};

#define STRPOOL_INIT { NULL, 0, 0, NULL, 0, 0, NULL, NULL }

void strpool_init(struct strpool *p);
void strpool_release(struct strpool *p);
/* strpool_intern - the pool's copy of @s (len bytes, NUL added). Never NULL. */
const char *strpool_intern_len(struct strpool *p, const char *s, size_t len);
const char *strpool_intern(struct strpool *p, const char *s);

#endif
