# The measuring code.py of the emulated Pico (tools/picoemu.py writes it to the
# drive as code.py, and the shipped code.py beside it as spit_main.py; make
# flash never ships it). It runs the shipped program as code.py does: the same
# start(), the same loop; between passes it only reads the heap free (an int,
# nothing allocated), and it prints at these moments, with supervisor.ticks_ms():
#   probe top T FREE          before anything of the game is imported
#   probe ready T FREE KEPT   start() done (FREE), and after a collection (KEPT)
#   probe drawn T             the first pass drew the menu or the table
#   probe kept T FREE         with SPIT_PROBE_KEPT_MS: the heap free after a
#                             collection at the first pass that many ms into the loop
#   probe end T LOWEST PASSES after SPIT_PROBE_MS of the loop (or its end): the
#                             lowest heap free between passes, and their count
#   probe position TEXT       the game's position then
# The emulator presses the replay's keys counting from "probe ready". With
# SPIT_PROBE_PIN (a spare GPIO, "GP28"), the pin is high while io.refresh()
# runs, so the emulator knows which display writes make one frame.

import gc

import supervisor

top = gc.mem_free()
t0 = supervisor.ticks_ms()
print("probe top", t0, top)

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
    while io.running:
        io.pump()
        app.step(io.ticks_ms())
        if pin is not None:
            pin.value = True
        io.refresh()
        if pin is not None:
            pin.value = False
        passes += 1
        if passes == 1:
            print("probe drawn", supervisor.ticks_ms())
        m = gc.mem_free()
        if m < lowest:
            lowest = m
        if kept_at and ((supervisor.ticks_ms() - start) & _MASK) >= kept_at:
            kept_at = 0
            gc.collect()
            print("probe kept", supervisor.ticks_ms(), gc.mem_free())
        if limit and ((supervisor.ticks_ms() - start) & _MASK) >= limit:
            break
    print("probe end", supervisor.ticks_ms(), lowest, passes)
    if app.game is not None:
        print("probe position", app.game.text())


probe()
