/* SPDX-License-Identifier: MIT */
/* Line buffer formatting: numbers written in place, two digits per division. */
#include "ui/linebuf.h"

/* "00".."99" */
static const char digit_pairs[] =
	"0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849"
	"5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";

/* the decimal digits of @v written backwards, ending just before @end; returns where they start */
static char *digits_back(char *end, u64 v)
{
	while (v >= 100) {
		end -= 2;
		memcpy(end, digit_pairs + (v % 100) * 2, 2);
		v /= 100;
	}
	if (v >= 10) {
		end -= 2;
		memcpy(end, digit_pairs + v * 2, 2);
	} else {
		*--end = (char)('0' + v);
	}
	return end;
}

/* the number of decimal digits of @v */
static int nr_digits(u64 v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

void lb_spaces(struct lbuf *l, int n)
{
	if (n > lb_room(l))
		n = lb_room(l);
	for (int i = 0; i < n; i++)
		l->b[l->n + i] = ' ';
	if (n > 0)
		l->n += n;
}

void lb_u64(struct lbuf *l, u64 v)
{
	char tmp[24], *start = digits_back(tmp + sizeof(tmp), v);

	lb_mem(l, start, (int)(tmp + sizeof(tmp) - start));
}

void lb_s64(struct lbuf *l, s64 v)
{
	if (v < 0) {
		lb_char(l, '-');
		lb_u64(l, (u64)(-(v + 1)) + 1);
		return;
	}
	lb_u64(l, (u64)v);
}

void lb_fixed(struct lbuf *l, u64 whole, u64 frac, int nfrac, int width)
{
	int n = nr_digits(whole) + 1 + nfrac, pad = width > n ? width - n : 0;
	char *q;

	if (pad + n > lb_room(l)) {
		lb_spaces(l, lb_room(l)); /* a full line: nothing more fits */
		return;
	}
	lb_spaces(l, pad);
	/* back to front: the fraction's digits, the point, the whole part */
	q = l->b + l->n + n;
	for (; nfrac >= 2; nfrac -= 2) {
		q -= 2;
		memcpy(q, digit_pairs + (frac % 100) * 2, 2);
		frac /= 100;
	}
	if (nfrac)
		*--q = (char)('0' + frac % 10);
	*--q = '.';
	digits_back(q, whole);
	l->n += n;
}
