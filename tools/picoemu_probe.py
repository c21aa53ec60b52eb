# The measuring code.py of the emulated Pico (tools/picoemu.py writes it to the
# drive as code.py, and the shipped code.py beside it as spit_main.py; make
# flash never ships it). It runs the shipped program as code.py does: the same
# start(), the same loop; between passes it reads nothing (with
# SPIT_PROBE_ALLOC=1 it reads the heap, which walks it: not for timing), and
# it prints at these moments, with supervisor.ticks_ms():
#   probe top T FREE TOTAL    before anything of the game is imported (TOTAL:
#                             the heap's size, its areas together: free and used)
#   probe ready T FREE KEPT   start() done (FREE), and after a collection (KEPT)
#   probe drawn T             the first pass drew the menu or the table
#   probe kept T FREE         with SPIT_PROBE_KEPT_MS: the heap free after a
#                             collection at the first pass that many ms into the loop
#   probe modules NAMES       then, with SPIT_PROBE_MODULES=1: the modules loaded
#   probe end T LOWEST PASSES TOTAL
#                             after SPIT_PROBE_MS of the loop (or its end): the
#                             lowest heap free between passes (SPIT_PROBE_ALLOC
#                             only: reading it walks the heap), their count,
#                             and the heap's size then
#   probe alloc MOVES ALLOCATING TOTAL MAX
#                             with SPIT_PROBE_ALLOC=1: the ordinary moves (one move applied in a pass,
#                             in play before and after, the same round), how
#                             many allocated, their bytes in all and the most
#                             of one: the collector is off while a pass runs
#                             (gc.disable; a collection between passes when
#                             the heap runs low), so gc.mem_alloc() counts it
#   probe names LEFT BYTES    with SPIT_PROBE_NAMES=1, last of all: how many
#                             names (a loaded module's, an attribute's) the
#                             firmware can still intern before its pool of
#                             names is full (at least: up to 7 more), and the
#                             bytes of the pool it then takes (twice the last
#                             one's entries: CircuitPython's py/qstr.c), found
#                             by interning new names (getattr does) eight at a
#                             time: reading the heap walks it, 8 ms on a Pico
#   probe position TEXT       the game's position then
#   probe match T FREE LARGEST
#   probe menu T FREE LARGEST LOWEST LIVE TOTAL
#                             with SPIT_PROBE_SESSION=1 (a session of matches,
#                             tools/bench_pico.py --session): 4 s into each
#                             match, and at each return to the menu (a linked
#                             session left let go), the heap
#                             free after a collection and the largest block
#                             that can be had then (bytearrays tried, halving
#                             the gap, to 256 B); at the menu also the lowest
#                             free between passes since the last (the heap is
#                             read every pass: not for timing), and the lowest
#                             free just after a collection (LIVE: a pass whose
#                             free rose by 1 KB or more had one, the firmware's
#                             own when an allocation failed, or the game's: the
#                             headroom left, garbage of that pass aside)
#   probe linked SEAT REFEREE EVENTS DIVERGENCES BAD GOOD STATE PROBLEM
#                             linked play: this device's player, 1 if it referees,
#                             the order's events, divergences mended, bad and good
#                             frames, the session's state (2: a match), the lobby's problem
# The emulator presses the replay's keys counting from "probe ready". With
# SPIT_PROBE_PIN (a spare GPIO, "GP28"), the pin is high while io.refresh()
# runs, so the emulator knows which display writes make one frame.

import gc

import supervisor

top = gc.mem_free()
t0 = supervisor.ticks_ms()
print("probe top", t0, top, top + gc.mem_alloc())

import os  # noqa: E402

import spit_main  # noqa: E402  (the shipped code.py)

_MASK = (1 << 29) - 1


def _pin(name):
    if not name:
        return None
    import board
    import digitalio

    pin = digitalio.DigitalInOut(getattr(board, name))
    pin.switch_to_output(False)
    return pin


def _largest(free):
    # The largest block the heap gives now (a collection first), to 256 B.
    gc.collect()
    lo, hi = 0, free + 4096  # (a split heap may add an area from the outer heap)
    while hi - lo > 256:
        mid = (lo + hi) // 2
        try:
            block = bytearray(mid)
            block = None  # noqa: F841  (let go)
            lo = mid
        except MemoryError:
            hi = mid
    gc.collect()
    return lo


def probe():
    io, app = spit_main.start()
    free = gc.mem_free()
    gc.collect()
    limit = int(os.getenv("SPIT_PROBE_MS") or 0)
    kept_at = int(os.getenv("SPIT_PROBE_KEPT_MS") or 0)
    start = supervisor.ticks_ms()
    print("probe ready", start, free, gc.mem_free())
    lowest = gc.mem_free()
    passes = 0
    pin = _pin(os.getenv("SPIT_PROBE_PIN"))
    moves = allocating = total = most = 0
    controls = app.controls
    counting = os.getenv("SPIT_PROBE_ALLOC") == "1"  # (the collections it adds would delay presses)
    if counting:
        gc.disable()
    session = os.getenv("SPIT_PROBE_SESSION") == "1"
    low = gc.mem_free()  # the session's lowest free since the last menu
    # (This file is compiled on the board, so each name in it is interned
    # before the game's, and moves where the firmware takes its next pool of
    # names: three new ones here once cost the session's second device 8 KB.
    # Names the game interns anyway cost nothing: gone, last, collect.)
    gone = low  # of it, the lowest just after a collection
    last = low  # the free after the last pass
    playing = False  # a match (or its scenes) since the last menu
    match_at = None  # when the match began (its heap looked at 4 s in)
    while io.running:
        if counting:  # (gc.mem_free and mem_alloc read the whole heap: not in a timed run)
            if gc.mem_free() < 24000:
                gc.collect()
            g = app.game
            ordinary = g is not None and g.phase == 1  # PLAY
            applied = controls.applied
            rnd = g.round if g is not None else 0
            before = gc.mem_alloc()
        io.pump()
        app.step(io.ticks_ms())
        if pin is not None:
            pin.value = True
        io.refresh()
        if pin is not None:
            pin.value = False
        if counting:
            spent = gc.mem_alloc() - before
            g = app.game
            if ordinary and g is not None and g.phase == 1 and g.round == rnd and controls.applied == applied + 1:
                moves += 1
                if spent:
                    allocating += 1
                    total += spent
                    if spent > most:
                        most = spent
        if session:
            m = gc.mem_free()
            collect = m >= last + 1024  # (a collection in this pass: what is left is what lives)
            last = m
            if app.mode != 0:  # (hardware/modes.py: MENU)
                playing = True
                if m < low:
                    low = m
                if collect and m < gone:
                    gone = m
                if app.mode == 1 and match_at is None:  # MATCH
                    match_at = supervisor.ticks_ms()
                if match_at is not None and match_at >= 0 and ((supervisor.ticks_ms() - match_at) & _MASK) >= 4000:
                    match_at = -1  # (once a match)
                    gc.collect()
                    free_now = gc.mem_free()
                    print("probe match", supervisor.ticks_ms(), free_now, _largest(free_now))
            elif playing and getattr(app, "leaving", None) is None:  # (a linked session left: once it is let go)
                playing = False
                match_at = None
                gc.collect()
                free_now = gc.mem_free()
                print(
                    "probe menu",
                    supervisor.ticks_ms(),
                    free_now,
                    _largest(free_now),
                    low,
                    gone,
                    free_now + gc.mem_alloc(),
                )
                low = gone = last = gc.mem_free()
                if os.getenv("SPIT_PROBE_MODULES"):
                    import sys

                    print("probe modules", " ".join(sorted(sys.modules)))
        passes += 1
        if passes == 1:
            print("probe drawn", supervisor.ticks_ms())
        if counting:
            m = gc.mem_free()
            if m < lowest:
                lowest = m
        if kept_at and ((supervisor.ticks_ms() - start) & _MASK) >= kept_at:
            kept_at = 0
            gc.collect()
            print("probe kept", supervisor.ticks_ms(), gc.mem_free())
            if os.getenv("SPIT_PROBE_MODULES"):
                import sys

                print("probe modules", " ".join(sorted(sys.modules)))
        if limit and ((supervisor.ticks_ms() - start) & _MASK) >= limit:
            break
    gc.enable()
    print("probe end", supervisor.ticks_ms(), lowest, passes, gc.mem_free() + gc.mem_alloc())
    if counting:
        print("probe alloc", moves, allocating, total, most)
    if app.game is not None:
        print("probe position", app.game.text())
    linked = getattr(app, "linked", None)
    if linked is not None:  # linked play: this device's seat, the order's events, what was mended
        print(
            "probe linked",
            linked.seat,
            1 if linked.is_referee else 0,
            linked.count,
            linked.divergences,
            linked.link.bad,
            linked.link.good,
            linked.phase,
            linked.problem,
        )
    if os.getenv("SPIT_PROBE_NAMES") == "1":
        gc.collect()
        for i in range(0, 5000, 8):
            names = ["probe_name_%d" % (i + k) for k in range(8)]
            before = gc.mem_alloc()
            for name in names:
                getattr(gc, name, None)
            grew = gc.mem_alloc() - before
            if grew > 1500:  # (a pool: thousands of bytes; eight names: a few hundred)
                print("probe names", i, grew)
                break


probe()
