#!/bin/bash
# SPDX-License-Identifier: MIT
# Normalise perf/sonde output for golden comparisons (stdin -> stdout):
# capture dates, hostnames, /tmp paths and the perf binary path in cmdlines;
# the warning that the running kernel is not the recorded one (every machine
# but the recording one, until it reboots, prints it) is dropped.
sed -E \
	-e '/^No kallsyms or vmlinux with build-id [0-9a-f]+ was found$/d' \
	-e 's/^# captured on    : .*/# captured on    : <date>/' \
	-e 's/^# hostname : .*/# hostname : <host>/' \
	-e 's#/tmp/[A-Za-z0-9._-]+#/tmp/<tmp>#g'
