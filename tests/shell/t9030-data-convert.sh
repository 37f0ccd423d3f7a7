#!/bin/bash
# SPDX-License-Identifier: MIT
# check: parallel (fixtures and a recording of its own workload, nothing timed, no system-wide recording)
# sonde data convert: --to-json byte for byte against perf data convert on
# fixtures and a live recording, perf's refusals and messages; speedscope
# validated against the schema its npm package publishes (fetched here when
# the registry answers), Chrome trace-event structure, pprof decoded by
# protoc with the profile.proto messages. --to-ctf: t9042.
. "$(dirname "$0")/lib.sh"

FIX=$SONDE_ROOT/tests/fixtures
W=$SONDE_WORKLOADS

# json_same FILE: both write the same JSON and the same messages
json_same() {
	rm -f p.json s.json
	"$PERF" data convert --to-json p.json -i "$1" 2>p.err || return 1
	"$SONDE" data convert --to-json s.json -i "$1" 2>s.err || { cat s.err; return 1; }
	test_cmp p.json s.json || return 1
	sed "s/'p\.json'/X/" p.err >p.msg && sed "s/'s\.json'/X/" s.err >s.msg &&
	test_cmp p.msg s.msg
}

test_expect_success PERF '--to-json: perf fixtures, byte for byte' '
	for f in callgraph system-wide tracepoints multi-event group compressed; do
		json_same "$FIX/$f.data" || { echo "differs: $f"; return 1; }
	done &&
	for f in faults mixed sched-g switch syscalls; do
		json_same "$FIX/script/$f.data" || { echo "differs: script/$f"; return 1; }
	done
'

test_expect_success PERF,ROOT '--to-json: a live forked, threaded -g recording' '
	"$PERF" record -q -o "$TRASH/g.data" -g -F 1000 -- "$W/rptmix" 100 >/dev/null 2>&1 &&
	json_same "$TRASH/g.data"
'

test_expect_success PERF 'refusals and messages as perf: existing output, --all, --tod, no format' '
	: >exists.json &&
	test_exit_code 255 "$SONDE" data convert --to-json exists.json -i "$FIX/callgraph.data" 2>s.err &&
	test_exit_code 255 "$PERF" data convert --to-json exists.json -i "$FIX/callgraph.data" 2>p.err &&
	test_cmp p.err s.err &&
	test_exit_code 255 "$SONDE" data convert -f --all --to-json x.json -i "$FIX/callgraph.data" 2>s.err &&
	test_exit_code 255 "$PERF" data convert -f --all --to-json x.json -i "$FIX/callgraph.data" 2>p.err &&
	test_cmp p.err s.err &&
	test_exit_code 255 "$SONDE" data convert -f --tod --to-json x.json -i "$FIX/callgraph.data" 2>s.err &&
	test_exit_code 255 "$PERF" data convert -f --tod --to-json x.json -i "$FIX/callgraph.data" 2>p.err &&
	test_cmp p.err s.err &&
	test_exit_code 255 "$SONDE" data convert -i "$FIX/callgraph.data" 2>s.err &&
	test_grep "You must specify one of --to-ctf or --to-json." s.err &&
	test_exit_code 129 "$SONDE" data
'


test_expect_success '--to-speedscope: frames and one sampled profile per thread' '
	"$SONDE" data convert --to-speedscope cg.speedscope.json -i "$FIX/callgraph.data" 2>err &&
	test_grep "into speedscope data" err &&
	python3 - cg.speedscope.json <<-\PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	assert d["$schema"] == "https://www.speedscope.app/file-format-schema.json"
	frames = d["shared"]["frames"]
	names = {f["name"] for f in frames}
	assert "__strpbrk_sse42" in names, names
	n = 0
	for p in d["profiles"]:
	    assert p["type"] == "sampled" and len(p["samples"]) == len(p["weights"])
	    for s in p["samples"]:
	        assert all(0 <= i < len(frames) for i in s)
	    n += len(p["samples"])
	assert n == 63, n
	PY
'

if command -v npm >/dev/null && python3 -c "import jsonschema" 2>/dev/null &&
	timeout 60 npm pack --silent speedscope >npm.out 2>/dev/null; then
	test_expect_success '--to-speedscope: valid against the schema the speedscope package ships' '
		tar xzf speedscope-*.tgz package/dist/release/file-format-schema.json &&
		python3 - package/dist/release/file-format-schema.json cg.speedscope.json <<-\PY
		import json, sys, jsonschema
		schema = json.load(open(sys.argv[1]))
		doc = json.load(open(sys.argv[2]))
		jsonschema.validate(doc, schema)
		bad = dict(doc, profiles="nope")
		try:
		    jsonschema.validate(bad, schema)
		    sys.exit("the schema accepted a broken file")
		except jsonschema.ValidationError:
		    pass
		PY
	'
else
	test_skip '--to-speedscope: valid against the schema the speedscope package ships' \
		'npm registry unreachable or python3-jsonschema missing: the schema comes from the speedscope npm package'
fi

test_expect_success '--to-chrome: trace events, samples on stack frames' '
	"$SONDE" data convert --to-chrome cg.chrome.json -i "$FIX/callgraph.data" 2>err &&
	python3 - cg.chrome.json <<-\PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	sf = d["stackFrames"]
	for k, f in sf.items():
	    assert "name" in f and ("parent" not in f or f["parent"] in sf), (k, f)
	assert len(d["samples"]) == 63
	for s in d["samples"]:
	    assert s["sf"] in sf and s["pid"] == 20494 and s["ts"] >= 0 and s["name"] == "cpu-clock:pppH"
	names = [e for e in d["traceEvents"] if e["ph"] == "M" and e["name"] == "thread_name"]
	assert names and names[0]["args"]["name"] == "sh"
	PY
'

if command -v protoc >/dev/null; then
	test_expect_success '--to-pprof: gzipped profile.proto that protoc decodes, samples and periods add up' '
		"$SONDE" data convert --to-pprof cg.pb.gz -i "$FIX/callgraph.data" 2>err &&
		gzip -t cg.pb.gz &&
		zcat cg.pb.gz | protoc --proto_path="$SONDE_ROOT/tests/shell" \
			--decode=perftools.profiles.Profile pprof-profile.proto >decoded.txt &&
		test "$(grep -c "^sample {" decoded.txt)" = 63 &&
		sum=$(awk "/^sample \{/ { s = 1; v = 0 } s && /value:/ { v++; if (v == 2) t += \$2 } /^}/ { s = 0 } END { print t }" decoded.txt) &&
		test "$sum" = "$("$PERF" script -i "$FIX/callgraph.data" -F period 2>/dev/null | awk "{ s += \$1 } END { print s }")" &&
		test_grep "string_table: \"__strpbrk_sse42\"" decoded.txt &&
		test_grep "string_table: \"cpu-clock:pppH\"" decoded.txt &&
		test_grep "string_table: \"nanoseconds\"" decoded.txt
	'
else
	test_skip '--to-pprof: gzipped profile.proto that protoc decodes, samples and periods add up' \
		'protoc not installed (protobuf-compiler; tools/install-deps.sh with WITH_TEST_DEPS=1)'
fi

# top_symbols_sql DB: "dso sym count" per symbol (unknown ones by address, as report shows them)
top_symbols_sql() {
	sqlite3 "$1" "SELECT d.short_name, CASE WHEN y.name = 'unknown' THEN printf('0x%016x', y.sym_start)
		ELSE y.name END, count(*) FROM samples s JOIN symbols y ON y.id = s.symbol_id
		JOIN dsos d ON d.id = s.dso_id WHERE s.id > 0 GROUP BY 1, 2" | tr '|' ' ' | sort
}

if command -v sqlite3 >/dev/null; then
	test_expect_success PERF '--to-sqlite: real SQL over it gives report'"'"'s samples per symbol' '
		"$SONDE" data convert --to-sqlite cg.db -i "$FIX/callgraph.data" 2>err &&
		test_grep "into SQLite database" err &&
		top_symbols_sql cg.db >sql.txt &&
		"$PERF" report -i "$FIX/callgraph.data" --stdio -n --no-children -g none --sort dso,sym -q 2>/dev/null |
			awk "NF { print \$3, \$5, \$2 }" | sort >report.txt &&
		test_cmp report.txt sql.txt &&
		test "$(sqlite3 cg.db "SELECT count(*) FROM samples_view WHERE id > 0 AND command = '"'"'sh'"'"'")" = 63 &&
		test "$(sqlite3 cg.db "SELECT sum(period) FROM samples")" = \
			"$("$PERF" script -i "$FIX/callgraph.data" -F period 2>/dev/null | awk "{ s += \$1 } END { print s }")" &&
		test_exit_code 255 "$SONDE" data convert --to-sqlite cg.db -i "$FIX/callgraph.data" 2>err &&
		test_grep "Output file exists" err
	'
	test_expect_success PERF '--to-sqlite: call paths follow the callchains' '
		test "$(sqlite3 cg.db "SELECT count(*) FROM samples WHERE id > 0 AND call_path_id = 0")" = 0 &&
		sqlite3 cg.db "SELECT symbol FROM call_paths_view WHERE parent_id = 0 AND id > 0" >roots.txt &&
		test -s roots.txt
	'
	# perf's own script is the layout oracle when this perf runs Python scripts
	test_expect_success '--to-sqlite: a write error is reported with its reason and leaves no file' '
		(trap "" XFSZ; ulimit -f 64; test_exit_code 255 "$SONDE" data convert --to-sqlite big.db \
			-i "$FIX/callgraph.data" 2>err) &&
		test_grep "sqlite: writing big.db: File too large" err &&
		test ! -e big.db
	'
	# thousands of samples: batches of 1024 for the writer thread, and the same
	# database when the session's thread writes them itself
	test_expect_success ROOT '--to-sqlite: a recording of many batches, written by two threads or one, the same' '
		"$SONDE" record -q -o many.data -g -F 10000 -- "$W/rptmix" 1000 >/dev/null 2>&1 &&
		n=$("$SONDE" report --stats -i many.data 2>/dev/null | awk "/SAMPLE events/ { print \$3; exit }") &&
		test "$n" -gt 1100 &&
		"$SONDE" data convert --to-sqlite two.db -i many.data 2>/dev/null &&
		SONDE_ONE_THREAD=1 "$SONDE" data convert --to-sqlite one.db -i many.data 2>/dev/null &&
		test "$(sqlite3 two.db "PRAGMA integrity_check")" = ok &&
		test "$(sqlite3 two.db "SELECT count(*) FROM samples WHERE id > 0")" = "$n" &&
		test "$(sqlite3 two.db "SELECT max(id) FROM samples")" = "$n" &&
		test "$(sqlite3 two.db "SELECT count(*) FROM call_paths WHERE id > 0")" = \
		     "$(sqlite3 two.db "SELECT max(id) FROM call_paths")" &&
		sqlite3 two.db .dump >two.sql && sqlite3 one.db .dump >one.sql &&
		test_cmp one.sql two.sql
	'
	if "$PERF" script -i "$FIX/callgraph.data" -s "$(dirname "$("$PERF" --exec-path 2>/dev/null || echo /usr/lib/perf-core)")/perf-core/scripts/python/export-to-sqlite.py" perf.db >/dev/null 2>&1 ||
	   "$PERF" script -i "$FIX/callgraph.data" -s /usr/lib/perf-core/scripts/python/export-to-sqlite.py perf.db >/dev/null 2>&1; then
		test_expect_success PERF '--to-sqlite: the tables and columns of perf'"'"'s export-to-sqlite.py, same rows' '
			for t in selected_events machines threads comm_threads dsos symbols samples; do
				sqlite3 perf.db "SELECT name, type FROM pragma_table_info('"'"'$t'"'"')" >p.cols &&
				sqlite3 cg.db "SELECT name, type FROM pragma_table_info('"'"'$t'"'"')" >s.cols &&
				test_cmp p.cols s.cols || return 1
			done &&
			for v in samples_view symbols_view threads_view dsos_view comm_threads_view machines_view; do
				sqlite3 perf.db "SELECT name FROM pragma_table_info('"'"'$v'"'"')" >p.cols &&
				sqlite3 cg.db "SELECT name FROM pragma_table_info('"'"'$v'"'"')" >s.cols &&
				test_cmp p.cols s.cols || return 1
			done &&
			# symbols and dsos also hold the callchains'"'"' in sonde (call_paths is always
			# filled): their rows are compared through samples_view
			for t in selected_events machines threads; do
				sqlite3 perf.db "SELECT * FROM $t" >p.rows &&
				sqlite3 cg.db "SELECT * FROM $t" >s.rows &&
				test_cmp p.rows s.rows || return 1
			done &&
			sqlite3 perf.db "SELECT * FROM samples_view" >p.rows &&
			sqlite3 cg.db "SELECT * FROM samples_view" >s.rows &&
			test_cmp p.rows s.rows &&
			top_symbols_sql perf.db >p.top &&
			test_cmp p.top sql.txt
		'
	else
		test_skip '--to-sqlite: the tables and columns of perf'"'"'s export-to-sqlite.py, same rows' \
			'this perf does not run its export-to-sqlite.py (no Python scripting)'
	fi
else
	test_skip '--to-sqlite: real SQL over it gives report'"'"'s samples per symbol' 'sqlite3 CLI not installed'
	test_skip '--to-sqlite: call paths follow the callchains' 'sqlite3 CLI not installed'
	test_skip '--to-sqlite: a write error is reported with its reason and leaves no file' 'sqlite3 CLI not installed'
	test_skip '--to-sqlite: a recording of many batches, written by two threads or one, the same' 'sqlite3 CLI not installed'
fi

test_done
