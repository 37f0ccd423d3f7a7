#!/bin/bash
# SPDX-License-Identifier: MIT
# check: parallel (its own files and workloads, nothing timed, no system-wide recording)
# report options: the implemented ones print what perf prints, the others are refused.
. "$(dirname "$0")/lib.sh"

# same FILE OPTS...: report_same (lib.sh)
same() { report_same "$@"; }

test_must_be_empty() {
	if [ -s "$1" ]; then
		echo "$1 is not empty:"
		head -5 "$1"
		return 1
	fi
}

# refused NAME OPTION...: a clear message, exit 129, nothing on stdout
refused() {
	local name=$1
	shift
	test_exit_code 129 "$SONDE" report --stdio -i "$FIXTURES/callgraph.data" "$@" \
		>out 2>err &&
	test_grep "^Error: --$name is not supported by " err &&
	test_must_be_empty out
}

CG=$FIXTURES/callgraph.data
ME=$FIXTURES/multi-event.data
W=$SONDE_WORKLOADS

test_expect_success 'options sonde does not implement are refused' '
	refused branch-stack -b &&
	refused vmlinux -k vmlinux &&
	refused modules -m &&
	refused column-widths -w 10,10 &&
	refused branch-history --branch-history &&
	refused full-source-path --full-source-path &&
	refused group-sort-idx --group-sort-idx 1 &&
	refused hierarchy --hierarchy &&
	refused ignore-callees --ignore-callees foo &&
	refused inline --inline &&
	refused itrace --itrace &&
	refused itrace --itrace=i100 &&
	refused mmaps --mmaps &&
	refused tasks --tasks &&
	refused ns --ns &&
	refused raw-trace --raw-trace &&
	refused show-cpu-utilization --show-cpu-utilization &&
	refused show-ref-call-graph --show-ref-call-graph &&
	refused socket-filter --socket-filter 0 &&
	refused stitch-lbr --stitch-lbr &&
	refused total-cycles --total-cycles &&
	refused disable-order --disable-order &&
	refused stdio-color --stdio-color always
'

test_expect_success 'the negated (default) form of a refused option is accepted' '
	"$SONDE" report --stdio -i $CG --no-hierarchy --no-inline >out 2>err &&
	test_grep "^# Samples: " out
'

test_expect_success 'value checks of accepted no-op options' '
	# perf: a blank line and the usage; the option'"'"'s help only when its
	# name was typed without "=value"
	test_exit_code 129 "$SONDE" report --stdio -i $CG --percent-type=foo >out 2>err &&
	printf "\n Usage: sonde report [<options>]\n\n" >want && test_cmp want err &&
	test_exit_code 129 "$SONDE" report --stdio -i $CG --percent-type foo >out 2>err &&
	printf "%s\n" "" " Usage: sonde report [<options>]" "" \
		"        --percent-type <local-period>" \
		"                          Set percent type local/global-period/hits" >want &&
	test_cmp want err &&
	test_exit_code 129 "$SONDE" report --stdio -i $CG --samples=x >out 2>err &&
	test_grep "option .samples. expects a numerical value" err &&
	test_exit_code 234 "$SONDE" report --stdio -i $CG --prefix-strip=2 >out 2>err &&
	test_grep "^--prefix-strip requires --prefix" err
'

test_expect_success PERF 'annotate and TUI options do not change --stdio output (as in perf)' '
	same $CG --percent-type=local-hits &&
	same $CG --samples=5 &&
	same $CG -M intel --asm-raw --source --objdump=objdump &&
	same $CG --prefix=/x --prefix-strip=1 &&
	same $CG --stdio-color never &&
	same $CG --ignore-vmlinux --skip-empty &&
	same $CG -I
'

test_expect_success PERF '-t/--field-separator' '
	same $CG -t , &&
	same $CG -t , --no-children -g none &&
	same $CG -t r -n --show-total-period -s pid,dso,sym &&
	same $CG -t k -s pid,cpu,dso,sym &&
	same $CG -t :: -g none &&
	same $ME -t ";" --no-children
'

test_expect_success PERF '-U/--hide-unresolved drops unresolved samples and frames' '
	same $CG -U &&
	same $CG -U --no-children &&
	same $CG -U --no-children -g none &&
	same $ME -U -g none
'

# (-p with children alone is not compared: its 1.59% cumulative entries tie
# and perf's order among them is the row-order work of docs/cmd/report.md)
test_expect_success PERF '-p adds the parent key; -x/--exclude-other' '
	same $CG -p "^__str" --no-children &&
	same $CG -p "^__str" -x -g none &&
	same $CG -p "^__str" -x --no-children &&
	same $CG -s parent,sym -p "^__str" -x --no-children -g none &&
	same $CG -x
'

test_expect_success PERF,ROOT 'parent key without callchains: perf error' '
	"$PERF" record -q -o $TRASH/nog.data -F 999 "$W/rptmix" 100 >/dev/null 2>&1 &&
	same $TRASH/nog.data -p "^hot" &&
	same $TRASH/nog.data -s parent &&
	same $TRASH/nog.data -t , -n
'

test_expect_success PERF '--symbol-filter (single-event files)' '
	same $CG --symbol-filter=str &&
	same $CG --symbol-filter=str --no-children &&
	same $CG --symbol-filter=nothing-like-this -g none
'

test_expect_success PERF '--switch-on/--switch-off/--show-on-off-events' '
	same $ME --switch-on=task-clock -g none &&
	same $ME --switch-on=task-clock --switch-off=page-faults -g none &&
	same $ME --switch-on=task-clock --show-on-off-events -g none &&
	same $ME --switch-off=cpu-clock --show-on-off-events -g none &&
	same $ME --switch-off=page-faults --no-children
'

test_expect_success '--switch-on of an event not in the file' '
	test_exit_code 254 "$SONDE" report --stdio -i $ME --switch-on=nope >out 2>err &&
	test_grep "^ERROR: switch-on event not found \(nope\)" err &&
	test_must_be_empty out
'

test_done
