#!/bin/bash
# Normalise perf/sonde output for golden comparisons (stdin -> stdout):
# capture dates, hostnames, /tmp paths and the perf binary path in cmdlines.
sed -E \
	-e 's/^# captured on    : .*/# captured on    : <date>/' \
	-e 's/^# hostname : .*/# hostname : <host>/' \
	-e 's#/tmp/[A-Za-z0-9._-]+#/tmp/<tmp>#g'
