# SPDX-License-Identifier: MIT
# Test script: the read counters in the sample dict (values, time_enabled, time_running).
from __future__ import print_function


def process_event(param_dict):
    s = param_dict['sample']
    print(param_dict['ev_name'], s['values'], s.get('time_enabled'), s.get('time_running'),
          list(s.keys()))
