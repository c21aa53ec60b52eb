"""What the sound and light stand-ins put out, and when: a count and a running
checksum of (ticks_ms, what) for each change, in small ints (nothing is
allocated). boardrun.py prints them, so runs can be compared change for change."""

import supervisor

count = 0
digest = 0


def heard(what):
    # what: a small int naming the change (a frequency and duty, a note, a colour)
    global count, digest
    count += 1
    digest = (digest * 31 + supervisor.ticks_ms()) & 0xFFFFFF
    digest = (digest * 31 + (what & 0xFFFFF)) & 0xFFFFFF
