#!/bin/bash
# SPDX-License-Identifier: MIT
# check: parallel (its own files and workloads, nothing timed, no system-wide recording)
# Symbol tables full of aliases, zero sizes, overlaps, weak/local/global
# functions, objects and labels (generated assembly, fixed seeds): sonde script
# must name every sample as perf 6.1 does, [unknown] included. This pins down
# perf's rules: which symbols are kept, end fix-up before alias removal, the
# alias preference order and the red-black search tree where symbols overlap.
. "$(dirname "$0")/lib.sh"

# a private build-id cache: every seed's loop has the same code, and ld's
# build-id does not hash .symtab, so each program also carries its seed in
# .rodata to get a build-id of its own
export HOME=$TRASH/home
mkdir -p "$HOME"

# gen.awk: a 160-nop loop in hot() with random labels at random offsets
cat >gen.awk <<'EOF2'
BEGIN {
	srand(seed); n = 160;
	print "\t.text"; print "\t.globl hot"; print "\t.type hot, @function";
	print "hot:"; print "\tmov %rdi, %rcx"; print "1:";
	k = 0;
	for (i = 0; i < n; i++) {
		if (rand() < 0.25) {
			na = 1 + int(rand() * 3);
			for (a = 0; a < na; a++) {
				name = sprintf("s%d_%d", i, a);
				r = rand(); ty = r < 0.5 ? "@function" : (r < 0.75 ? "@object" : "@notype");
				r = rand(); bind = r < 0.4 ? "globl" : (r < 0.7 ? "weak" : "local");
				if (bind != "local") printf "\t.%s %s\n", bind, name;
				printf "\t.type %s, %s\n", name, ty;
				printf "%s:\n", name;
				r = rand();
				if (r < 0.4) sz = 0; else sz = 1 + int(rand() * 40);
				if (sz) { sizes[k] = name; sv[k] = sz; k++; }
			}
		}
		print "\tnop";
	}
	print "\tdec %rcx"; print "\tjnz 1b"; print "\tret";
	for (j = 0; j < k; j++) printf "\t.size %s, %d\n", sizes[j], sv[j];
	print "\t.section .note.GNU-stack,\"\",@progbits";
}
EOF2
cat >main.c <<'EOF2'
#define STR2(x) #x
#define STR(x) STR2(x)
__attribute__((used)) static const char tag[] = "seed " STR(SEED);
void hot(long n);
int main(void) { hot(40000000L); return 0; }
EOF2

for seed in 3 5 7 12 21 33; do
	test_expect_success PERF "generated symbol table, seed $seed: sonde script == perf script" "
		awk -v seed=$seed -f gen.awk >t$seed.S &&
		cc -O0 -DSEED=$seed -o tg$seed main.c t$seed.S &&
		\"\$PERF\" record -q -e cpu-clock -F 4000 -o tg$seed.data ./tg$seed >/dev/null 2>&1 &&
		\"\$PERF\" script -i tg$seed.data -F ip,sym,symoff,dso 2>/dev/null | grep '/tg$seed)' >perf.out &&
		\"\$SONDE\" script -i tg$seed.data -F ip,sym,symoff,dso 2>sonde.err | grep '/tg$seed)' >sonde.out &&
		test \$(wc -l <perf.out) -gt 500 &&
		test_cmp perf.out sonde.out
	"
done

test_done
