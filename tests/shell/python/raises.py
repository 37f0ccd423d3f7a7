# SPDX-License-Identifier: MIT
# Test script: a handler that raises.
def process_event(param_dict):
    raise ValueError("boom from the handler")
