#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# Fold perf script text into "root;...;leaf weight" lines by the rules
# FlameGraph's stackcollapse-perf.pl documents (formats-and-ecosystem.md C.2):
# a header line ends with "[period] event:", frames are "ip func (module)",
# a blank line ends a sample, +0x offsets are dropped, [unknown] becomes
# [module basename], the comm (spaces as _) is the root frame.
use strict;
use warnings;

my (%weight, @frames, $comm, $period);

sub flush_sample {
	if (defined $comm && @frames) {
		$weight{ join(';', $comm, reverse @frames) } += $period;
	}
	undef $comm;
	@frames = ();
}

while (my $line = <>) {
	chomp $line;
	next if $line =~ /^#/;
	if ($line =~ /^\s*$/) {
		flush_sample();
		next;
	}
	if ($line =~ /^(\S.*?)\s+(\d+)(?:\/\d+)?\s+.*?:\s*(\d+)?\s+(\S+):\s*$/) {
		flush_sample();
		($comm, $period) = ($1, $3 || 1);
		$comm =~ s/ /_/g;
		next;
	}
	if ($line =~ /^\s*(\w+)\s*(.+) \((.*)\)$/) {
		my ($func, $module) = ($2, $3);
		$func =~ s/\+0x[0-9a-f]+$//;
		if ($func eq '[unknown]' && $module ne '[unknown]') {
			(my $base = $module) =~ s{.*/}{};
			$func = "[$base]";
		}
		$func =~ s/;/:/g;
		push @frames, $func;
		next;
	}
	die "line $.: neither a sample header nor a frame: $line\n" if defined $comm;
}
flush_sample();
print "$_ $weight{$_}\n" for sort keys %weight;
