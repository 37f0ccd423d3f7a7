/* SPDX-License-Identifier: MIT */
/* The project's one ordered tree: libbsd's red-black <sys/tree.h> (BSD licence), and how to use it. */
#ifndef SONDE_LIB_RBTREE_H
#define SONDE_LIB_RBTREE_H

#include <bsd/sys/tree.h>

/*
 * Every red-black tree in sonde is this one. It is the classic algorithm
 * (insertions linked at a leaf, then recoloured and rotated bottom-up), so
 * the same insertions into it give the same shape as into any classic
 * red-black tree: where perf's output depends on the shape of its trees
 * (a walk that stops at the first of several "equal" nodes), ours match.
 *
 * Using it:
 *  - the element embeds RB_ENTRY(type) field; the root is a
 *    RB_HEAD(name, type) (one pointer: heads may live in arrays that grow);
 *  - the .c file that uses the tree says RBTREE_GENERATE(name, type, field,
 *    cmp) once, or RBTREE_GENERATE_LINKED(name, type, field) when its
 *    insertions all find their place with their own walk;
 *  - RB_INSERT / RB_FIND / RB_REMOVE / RB_MIN / RB_NEXT / RB_FOREACH as
 *    documented in libbsd's tree(3);
 *  - a comparison that needs context (an argument cmp cannot take) or a
 *    walk of its own (one that stops at a match of a non-total order):
 *    walk from RB_ROOT with RB_LEFT / RB_RIGHT, then RBTREE_LINK the new
 *    element at the leaf where the walk ended.
 *
 * Elements are linked by address: an element must not move while it is in
 * a tree. Keep them where they never move while the tree lives: an array
 * sized once, or a pool of fixed-size chunks. A pool addressed by index
 * that grows by realloc (struct hists' callchain nodes) keeps the tree
 * links of its nodes in a separate chunked pool, each link naming its node
 * by index.
 */

/* RBTREE_GENERATE - the static functions of tree @name ordered by @cmp(a, b) (<0, 0, >0). */
#define RBTREE_GENERATE(name, type, field, cmp)                                       \
	RB_GENERATE_INTERNAL(name, type, field, cmp, static __attribute__((unused)))  \
	RBTREE_GENERATE_LINK(name, type, field)

/*
 * RBTREE_GENERATE_LINKED - the functions of tree @name whose elements are
 * only ever placed by RBTREE_LINK: it has no comparison, so RB_INSERT,
 * RB_FIND and RB_NFIND must not be used on it (they trap).
 */
#define RBTREE_GENERATE_LINKED(name, type, field)                                        \
	static inline int name##_rbtree_no_cmp(const struct type *a, const struct type *b) \
	{                                                                                \
		(void)a;                                                                 \
		(void)b;                                                                 \
		__builtin_trap();                                                        \
	}                                                                                \
	RBTREE_GENERATE(name, type, field, name##_rbtree_no_cmp)

/*
 * RBTREE_LINK - hang @elm under @parent (NULL: as the root of the empty
 * tree @head), on its left when @left, else on its right, where the
 * caller's walk ended; then rebalance the tree @head.
 */
#define RBTREE_LINK(name, head, elm, parent, left) name##_RBTREE_LINK(head, elm, parent, left)

#define RBTREE_GENERATE_LINK(name, type, field)                                          \
	static inline void name##_RBTREE_LINK(struct name *head, struct type *elm,        \
					      struct type *parent, int left)             \
	{                                                                                 \
		RB_SET(elm, parent, field);                                               \
		if (!parent)                                                              \
			RB_ROOT(head) = elm;                                              \
		else if (left)                                                            \
			RB_LEFT(parent, field) = elm;                                     \
		else                                                                      \
			RB_RIGHT(parent, field) = elm;                                    \
		name##_RB_INSERT_COLOR(head, elm);                                        \
	}

#endif
