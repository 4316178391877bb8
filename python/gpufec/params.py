#
# Copyright 2026 gr-gpufec authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Checks of the Python wrappers' parameters, shared by every block: a value is used as given or
refused with a ValueError naming the parameter, never silently changed (no 6144.7 -> 6144)."""
import numbers


def check_int(name, value, lo, hi=None, allowed=None):
    """a constructor parameter: an integer (an int, or a float with no fraction) in lo..hi;
    ValueError naming it otherwise"""
    try:
        v = int(value)
        whole = not isinstance(value, bool) and isinstance(value, numbers.Real) and v == value
    except (ValueError, OverflowError):
        whole = False
    if not whole:
        raise ValueError("%s: %r is not an integer" % (name, value))
    if allowed is not None and v not in allowed:
        raise ValueError("%s: %d is not valid (allowed: %s)" % (name, v, ", ".join(str(a) for a in allowed)))
    if v < lo or (hi is not None and v > hi):
        raise ValueError("%s: %d is not valid (allowed: %d..%s)" % (name, v, lo, hi if hi is not None else ""))
    return v


def check_real(name, value, lo=None, hi=None, lo_open=False):
    """a number (finite) in lo..hi (lo excluded with lo_open); ValueError naming it otherwise"""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or value != value or \
            value in (float("inf"), float("-inf")):
        raise ValueError("%s: %r is not a finite number" % (name, value))
    v = float(value)
    if (lo is not None and (v < lo or (lo_open and v == lo))) or (hi is not None and v > hi):
        raise ValueError("%s: %r is not valid (allowed: %s%s..%s)" % (name, value, "above " if lo_open else "",
                                                                     lo if lo is not None else "", hi if hi is not None else ""))
    return v


def quote_option(value):
    """a value as an options string holds it: in double quotes where it has a comma, a quote or a
    backslash (a file path with a comma), as the C++ reader expects"""
    s = str(value)
    if not any(c in s for c in ',"\\') and s.strip() == s:
        return s
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
