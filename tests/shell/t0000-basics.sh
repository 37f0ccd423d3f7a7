#!/bin/bash
# SPDX-License-Identifier: MIT
# Global behaviour: usage, help, version, unknown commands, exit codes, the perf link.
. "$(dirname "$0")/lib.sh"

test_expect_success 'no command prints usage and exits 1' '
	test_exit_code 1 "$SONDE" >out &&
	test_grep "^ usage: sonde \[--version\] \[--help\] \[OPTIONS\] COMMAND \[ARGS\]" out &&
	test_grep "^   stat            Run a command and gather performance counter statistics" out
'

test_expect_success '--help lists the commands and exits 0' '
	"$SONDE" --help >out &&
	test_grep "^   record          Run a command and record its profile into perf.data" out
'

test_expect_success 'unknown command: perf message, exit 1' '
	test_exit_code 1 "$SONDE" nosuch 2>err &&
	test_grep "^sonde: .nosuch. is not a sonde-command. See .sonde --help.\.$" err
'

test_expect_success 'version and --version' '
	"$SONDE" version >out && test_grep "^sonde version [0-9]" out &&
	"$SONDE" --version >out && test_grep "^sonde version [0-9]" out
'

test_expect_success 'a link named perf behaves as perf' '
	ln -s "$SONDE" perf &&
	./perf version >out && test_grep "^perf version" out &&
	test_exit_code 1 ./perf nosuch 2>err &&
	test_grep "is not a perf-command. See .perf --help.\." err
'

test_expect_success 'CMD -h prints usage to stderr and exits 129' '
	test_exit_code 129 "$SONDE" version -h 2>err &&
	test_grep "^ Usage: sonde version \[<options>\]" err
'

test_expect_success 'unknown option exits 129 with perf text' '
	test_exit_code 129 "$SONDE" version --bogus 2>err &&
	test_grep "^  Error: unknown option .bogus.$" err
'

test_expect_success 'help COMMAND shows the command usage' '
	test_exit_code 129 "$SONDE" help version 2>err && test_grep "Usage: sonde version" err
'

test_expect_success 'unknown global option exits 129' '
	test_exit_code 129 "$SONDE" --frobnicate 2>err
'

test_done
