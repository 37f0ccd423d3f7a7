# SPDX-License-Identifier: MIT
# Terminal (tmux) helpers for the TUI tests: a pane per program run, waits, screen shots.
# Sourced after lib.sh; not a test itself (run.sh runs t[0-9]*.sh only).

# tui_setup NAME WHAT: tmux or skip the whole script; screens go to $SHOTS and, named
# NAME-SHOT.txt, to $SONDE_TEST_ARTEFACTS when set. TUI_STRIP: what shot drops from line ends.
tui_setup() {
	TUI_NAME=$1
	SHOTS=$TRASH/screens
	SOCK=$TRASH/tmux.sock
	TUI_STRIP=${TUI_STRIP:-' '}
	mkdir -p "$SHOTS"
	if ! command -v tmux >/dev/null; then
		test_skip "$2 through tmux" 'tmux is not installed'
		test_done
		exit 0
	fi
	echo 0 >"$TRASH/nsock"
}

# tm ARGS: tmux on the current pane's server (one server per pane started, so a new
# one never meets the old one shutting down)
tm() { tmux -S "$SOCK.$(cat "$TRASH/nsock")" "$@"; }

# tui_kill: every tmux server the script started (for its EXIT trap)
tui_kill() {
	local s

	for s in "$SOCK".*; do
		[ -e "$s" ] && tmux -S "$s" kill-server 2>/dev/null
	done
	return 0
}

# tui_start W H CMD [READY]: CMD in a fresh W x H pane (env TUI_ENV), "rc=N" when it
# ends (the previous pane's server goes); waits for READY (default TUI_READY, or a
# browser's title line or the end)
tui_start() {
	if tm has-session 2>/dev/null; then tm kill-server; fi
	echo $(($(cat "$TRASH/nsock") + 1)) >"$TRASH/nsock"
	tm new-session -d -s t -x "$1" -y "$2" \
		"cd $TRASH; LANG=C.UTF-8 LC_ALL= $TUI_ENV $3; echo rc=\$?; sleep 60"
	wait_screen "${4:-${TUI_READY:-Samples:|rc=}}"
}

# wait_screen REGEX [TENTHS]: until the pane shows REGEX (5 s unless told)
wait_screen() {
	local i

	for i in $(seq "${2:-50}"); do
		tm capture-pane -p -t t | grep -Eq -- "$1" && return 0
		sleep 0.1
	done
	echo "screen never showed: $1"
	tm capture-pane -p -t t
	return 1
}

# shot NAME: the pane's text into $SHOTS/NAME.txt (TUI_STRIP runs dropped from line
# ends), as captured in NAME.raw, and the reverse-video (selected) lines in NAME.sel;
# taken once the pane is still (two captures 0.15 s apart alike), at once if keys just
# saw it settle
shot() {
	local a b i

	a=$(tm capture-pane -p -e -t t)
	if [ "$a" != "$TUI_DRAWN" ]; then
		for i in $(seq 30); do
			sleep 0.15
			b=$(tm capture-pane -p -e -t t)
			[ "$a" = "$b" ] && break
			a=$b
		done
	fi
	TUI_DRAWN=
	tm capture-pane -p -t t >"$SHOTS/$1.raw"
	sed -E "s/[$TUI_STRIP]+\$//" "$SHOTS/$1.raw" >"$SHOTS/$1.txt"
	tm capture-pane -p -e -t t | grep -F "$(printf '\033[7m')" |
		sed -E 's/\x1b\[[0-9;]*m//g; s/ +$//' >"$SHOTS/$1.sel"
	[ -z "$SONDE_TEST_ARTEFACTS" ] || cp "$SHOTS/$1.raw" "$SONDE_TEST_ARTEFACTS/$TUI_NAME-$1.txt"
}

# keys KEY...: send keys to the pane one by one, each once the pane has drawn the one
# before (tui_settle)
keys() {
	local k a

	for k; do
		a=$(tm capture-pane -p -e -t t)
		tm send-keys -t t "$k"
		TUI_DRAWN=$(tui_settle "$SOCK.$(cat "$TRASH/nsock")" "$a")
	done
}

# tui_settle SOCK BEFORE: the pane of tmux server SOCK (capture-pane -p -e) once it has drawn
# the keys just sent to it: polled until it differs from BEFORE, the screen before them (a key
# that changes nothing is given TUI_NOCHANGE polls of 0.05 s, 10 unless told), then until two
# captures 0.15 s apart are alike. TUI_LOG: a file that gets a line per call, "changed N" (polls)
# or "unchanged", to tune the waits
tui_settle() {
	local s=$1 a=$2 b i

	for i in $(seq "${TUI_NOCHANGE:-10}"); do
		sleep 0.05
		b=$(tmux -S "$s" capture-pane -p -e -t t)
		[ "$b" != "$a" ] && break
	done
	[ -n "$TUI_LOG" ] && { [ "$b" != "$a" ] && echo "changed $i" || echo unchanged; } >>"$TUI_LOG"
	a=$b
	for i in $(seq 30); do
		sleep 0.15
		b=$(tmux -S "$s" capture-pane -p -e -t t)
		[ "$a" = "$b" ] && break
		a=$b
	done
	printf '%s\n' "$a"
}
