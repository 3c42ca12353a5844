"""Time zones for the tests of what is printed in the reader's local zone (the ``zone`` fixture in
tests/conftest.py sets one). POSIX rules, so no tz database is needed: in December London is GMT,
Los Angeles PST and Auckland NZDT."""

import calendar

LONDON, LOS_ANGELES, AUCKLAND = "GMT0", "PST8", "NZDT-13"
LON = calendar.timegm((2026, 12, 1, 7, 0, 0))  # a London session ends Dec 1 07:00Z: Nov 30 23:00 in Los Angeles
