/* SPDX-License-Identifier: MIT */
/* Intrusive circular doubly linked lists. */
#ifndef SONDE_LIB_LIST_H
#define SONDE_LIB_LIST_H

#include <stddef.h>

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name) { &(name), &(name) }
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)

#ifndef container_of
#define container_of(ptr, type, member) ((type *)((char *)(ptr)-offsetof(type, member)))
#endif

static inline void INIT_LIST_HEAD(struct list_head *h)
{
	h->next = h->prev = h;
}

static inline void list_insert_between(struct list_head *n, struct list_head *prev,
				       struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

/* list_add - insert @n right after @head (stack order). */
static inline void list_add(struct list_head *n, struct list_head *head)
{
	list_insert_between(n, head, head->next);
}

/* list_add_tail - insert @n before @head (queue order). */
static inline void list_add_tail(struct list_head *n, struct list_head *head)
{
	list_insert_between(n, head->prev, head);
}

static inline void list_del_init(struct list_head *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
	INIT_LIST_HEAD(e);
}

static inline int list_empty(const struct list_head *h)
{
	return h->next == h;
}

#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(head, type, member) list_entry((head)->next, type, member)
#define list_last_entry(head, type, member) list_entry((head)->prev, type, member)

#define list_for_each_entry(pos, head, member)                                     \
	for (pos = list_entry((head)->next, __typeof__(*pos), member);             \
	     &pos->member != (head);                                                 \
	     pos = list_entry(pos->member.next, __typeof__(*pos), member))

#define list_for_each_entry_safe(pos, n, head, member)                             \
	for (pos = list_entry((head)->next, __typeof__(*pos), member),             \
	    n = list_entry(pos->member.next, __typeof__(*pos), member);              \
	     &pos->member != (head);                                                 \
	     pos = n, n = list_entry(n->member.next, __typeof__(*n), member))

#endif
