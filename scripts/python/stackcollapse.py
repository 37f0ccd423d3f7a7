# SPDX-License-Identifier: MIT
# stackcollapse: each distinct call stack on one line, "comm;outer;...;inner count",
# the folded format flame graph tools read.
# usage: sonde script report stackcollapse [--include-tid] [--include-pid]
#                                          [--kernel] [--tidy-java] [--event-filter=EV]

from __future__ import print_function

import argparse
import collections
import os
import sys

parser = argparse.ArgumentParser(prog="stackcollapse")
parser.add_argument("--include-tid", action="store_true",
                    help="include thread id in stack")
parser.add_argument("--include-pid", action="store_true",
                    help="include process id in stack")
parser.add_argument("--no-comm", action="store_true",
                    help="do not separate stacks according to comm")
parser.add_argument("--tidy-java", action="store_true",
                    help="beautify Java signatures")
parser.add_argument("--kernel", action="store_true",
                    help="mark kernel frames with _[k]")
parser.add_argument("--event-filter", default="",
                    help="only consider events with this name")
opts = parser.parse_args(sys.argv[1:])
if opts.include_tid and opts.include_pid:
    sys.exit("--include-tid and --include-pid are mutually exclusive")

stacks = collections.defaultdict(int)


def tidy(name):
    if not opts.tidy_java:
        return name
    # "Lpkg/Class;::method" -> "pkg/Class::method", arguments dropped
    name = name.split("(", 1)[0]
    if name.startswith("L") and "/" in name:
        name = name[1:]
    return name.replace(";", "")


def frame_name(node, kernel):
    name = node["sym"]["name"] if "sym" in node else "[unknown]"
    name = tidy(name)
    if opts.kernel and kernel:
        name += "_[k]"
    return name


def is_kernel_dso(dso):
    return dso.startswith("[kernel") or dso.endswith(".ko") or dso == "[guest.kernel.kallsyms]"


def process_event(param_dict):
    if opts.event_filter and param_dict["ev_name"] != opts.event_filter:
        return
    frames = []
    chain = param_dict.get("callchain")
    if chain:
        for node in chain:
            frames.append(frame_name(node, is_kernel_dso(node.get("dso", ""))))
    if opts.no_comm:
        head = []
    else:
        comm = param_dict["comm"].replace(" ", "_")
        sample = param_dict["sample"]
        if opts.include_pid:
            comm += "-%d" % sample["pid"]
        if opts.include_tid:
            comm += "-%d" % sample["tid"]
        head = [comm]
    stacks[";".join(head + frames[::-1])] += 1


def trace_end():
    for stack in sorted(stacks):
        print("%s %d" % (stack, stacks[stack]))
