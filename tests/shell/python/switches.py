# SPDX-License-Identifier: MIT
# Test script: context_switch() for SWITCH records, with and without the extras.
from __future__ import print_function

n = [0]


def context_switch(ts, cpu, pid, tid, np_pid, np_tid, machine_pid, out, out_preempt, *x):
    n[0] += 1
    print(ts, cpu, pid, tid, np_pid, np_tid, machine_pid, out, out_preempt, x)


def process_event(param_dict):
    print("sample", param_dict['sample']['time'])


def trace_end():
    print("switches", n[0])
