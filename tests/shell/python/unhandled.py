# SPDX-License-Identifier: MIT
# Test script: trace_unhandled with the event fields dict (3 arguments) and
# process_event for the other events; types of every value passed.
from __future__ import print_function


def shape(v):
    if isinstance(v, (list, dict)):
        return type(v).__name__ + str(len(v))
    return "%s:%r" % (type(v).__name__, v)


def trace_unhandled(event_name, context, event_fields_dict):
    print(event_name, " ".join("%s=%s" % (k, shape(v)) for k, v in event_fields_dict.items()))


def process_event(param_dict):
    print(param_dict['ev_name'], list(param_dict.keys()), param_dict['comm'],
          param_dict.get('symbol'), param_dict.get('symoff'), param_dict.get('dso'),
          param_dict['sample']['ip'], param_dict['sample']['cpumode'])
