# SPDX-License-Identifier: MIT
# Test oracle: stackcollapse-perf.pl's default folding of perf script output, restated in awk
# from its documented behaviour (t9000 compares sonde's folded stacks with it).
function tidy(f,   i, c, out, n) {
	gsub(/;/, ":", f)
	if (f !~ /\.\(.*\)\./) {
		n = length(f)
		for (i = 1; i <= n; i++)
			if (substr(f, i, 1) == "(" && substr(f, i + 1, 20) != "anonymous namespace)") {
				f = substr(f, 1, i - 1)
				break
			}
	}
	gsub(/["']/, "", f)
	return f
}
/^#/ { next }
/^$/ {
	if (keep) {
		s = pname
		if (stack != "")
			s = s ";" stack
		count[s]++
	}
	stack = ""; pname = ""; keep = 0
	next
}
/^[^ \t]/ {
	pname = ""
	for (p = 2; p < length($0); p++)
		if (match(substr($0, p + 1), /^[ \t]+[0-9]+\/*[0-9]*[ \t]/)) {
			pname = substr($0, 1, p)
			break
		}
	gsub(/ /, "_", pname)
	ev = $0
	sub(/:[ \t]*$/, "", ev)
	sub(/.*[ \t]/, "", ev)
	if (event == "")
		event = ev
	keep = (ev == event)
	next
}
{
	line = $0
	sub(/^[ \t]+/, "", line)
	pc = line
	sub(/[ \t].*/, "", pc)
	rest = substr(line, length(pc) + 1)
	sub(/^[ \t]+/, "", rest)
	if (!match(rest, / \([^ \t]*\)$/))
		next
	mod = substr(rest, RSTART + 2, RLENGTH - 3)
	func = substr(rest, 1, RSTART - 1)
	sub(/\+0x[0-9a-f]+$/, "", func)
	if (func ~ /^\(/)
		next
	nparts = split(func, parts, "->")
	frames = ""
	for (i = 1; i <= nparts; i++) {
		f = parts[i]
		if (f == "[unknown]" && mod != "[unknown]") {
			f = mod
			sub(/.*\//, "", f)
			f = "[" f "]"
		}
		f = tidy(f)
		if (i > 1)
			f = f "_[i]"
		frames = frames == "" ? f : frames ";" f
	}
	stack = stack == "" ? frames : frames ";" stack
}
END { for (s in count) print s, count[s] }
