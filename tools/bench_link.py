"""Link benchmark: the figures of the parts of linked play built
so far, on the link model (desktop/link_model.py) in simulated time.

    python tools/bench_link.py [--seeds 1000]

- Sync: the clock offset's error after 16 pings (one way 5 +- 3 ms), over
  --seeds pairs of clocks (random offsets, drift within +-50 ppm each): the
  share within 1 and 2 ms and the worst; and over 30-minute matches with 2 %
  of bytes lost (a tenth as many seeds): the drift's error, the share of
  moments within 2 ms and the worst.
- Frames: reliable frames through 5 % of frames lost (uniform byte loss) and
  through 10 % lost in bursts: delivered once each and in order, resends, and
  the time from a frame's send to its delivery (median, 95th percentile).
- Fairness: --contests contested presses, one on each device, the second
  0 to 40 ms after the first (either player first): each stamped by its
  device's keypad (debounced two scans of 977 us, each device's scans at
  their own phase, its clock's ticks), the other device's sent as a frame
  (5 % of frames lost) and converted by the clock sync (pings every second),
  ordered by the referee (hardware/referee.py); on a clean cable, and with
  5 % of frames lost (a press is sent twice at once: both copies are lost
  about once in 400, and then it comes again 25 ms later, after its hold).
  Prints how often the truly earlier press goes first above 15 ms, the
  smallest gap from which it does 99.9 % of the time, and the ties.
"""

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from desktop.link_model import Link as Cable  # noqa: E402
from desktop.link_model import Uart, true_offset2, two_clocks  # noqa: E402
from desktop.link_model import ping as exchange  # noqa: E402
from engine.cards import Rng  # noqa: E402
from hardware.buttons import DEBOUNCE_SCANS, SCAN_INTERVAL  # noqa: E402
from hardware.clock_sync import FAST_MS, SLOW_MS, ClockSync  # noqa: E402
from hardware.follower import TICK_MS  # noqa: E402
from hardware.link import Link, get32, put32  # noqa: E402
from hardware.protocol import MAX_PAYLOAD as PAYLOAD  # noqa: E402
from hardware.protocol import UNRELIABLE  # noqa: E402
from hardware.referee import HOLD_MAX_MS, Referee  # noqa: E402
from hardware.ticks import ticks_add, ticks_diff  # noqa: E402


def sync_after_16(seeds):
    errors = []
    for seed in range(seeds):
        link = Cable(seed, delay_us=5000, jitter_us=3000)
        a, b = two_clocks(seed)
        sync = ClockSync()
        t = 0
        while sync.pings < 16:
            got = exchange(link, a, b, t)
            if got is not None:
                sync.ping(*got[0])
                t = got[1]
            t += FAST_MS * 1000
        errors.append(abs(sync.offset2(a.ticks_ms(t)) - true_offset2(a, b, t)) / 2)
    return errors


def sync_30_minutes(seeds):
    drift, moments, worst = [], [], 0
    for seed in range(seeds):
        link = Cable(1000 + seed, delay_us=5000, jitter_us=3000, loss=20000)
        a, b = two_clocks(seed)
        sync = ClockSync()
        t = 0
        while t < 1800 * 10**6:
            got = exchange(link, a, b, t)
            if got is not None:
                sync.ping(*got[0])
                t = got[1]
            t += (FAST_MS if not sync.drift_known else SLOW_MS) * 1000
            if sync.pings >= 16:
                e = abs(sync.offset2(a.ticks_ms(t)) - true_offset2(a, b, t)) / 2
                moments.append(e)
                worst = max(worst, e)
        drift.append(abs(sync.ppm - (b.ppm - a.ppm)))
    return drift, moments, worst


def frames(cable, count=2000, seed=1):
    clock = [0]
    sent_at = {}
    latency = []
    got = []

    def arrived(kind, p, n):
        i = p[0] | p[1] << 8
        got.append(i)
        latency.append((clock[0] - sent_at[i]) / 1000)

    ends = (Link(Uart(cable, 0, clock), lambda *a: None), Link(Uart(cable, 1, clock), arrived))
    rnd = Rng(seed)
    payload = bytearray(PAYLOAD)
    i = 0
    while i < count or ends[0].waiting():
        clock[0] += 1000  # a pass of the loop every millisecond
        if i < count and rnd.below(20) == 0:  # a press every 20 ms on average
            payload[0], payload[1] = i & 255, i >> 8
            if ends[0].send(1, payload, 4, clock[0] // 1000):
                sent_at[i] = clock[0]
                i += 1
        for end in ends:
            end.poll(clock[0] // 1000)
    latency.sort()
    return got == list(range(count)), ends[0].resent, latency[len(latency) // 2], latency[len(latency) * 95 // 100]


_PRESS = 1  # this bench's frame kinds: a press (reliable), a tick (not)
_TICK = UNRELIABLE
SCAN_US = int(SCAN_INTERVAL * 1024) * 1000000 // 1024  # the keypad's scan: whole ticks of 1/1024 s


def stamp(clock, phase_us, t_us):
    # The keypad's timestamp of a press at t_us: the DEBOUNCE_SCANS-th scan
    # that sees it, in the device's ticks.
    k = -(-(t_us - phase_us) // SCAN_US)
    return clock.ticks_ms(phase_us + (k + DEBOUNCE_SCANS - 1) * SCAN_US)


def contests(count, loss=0, seed=21):
    rnd = Rng(seed)
    a, b = two_clocks(seed)  # the referee's clock, the other device's
    cable = Cable(seed, delay_us=5000, jitter_us=3000, loss=loss)
    pings = Cable(seed + 1, delay_us=5000, jitter_us=3000)
    sync = ClockSync()
    clock = [0]
    ref = Referee()
    first = []
    upto = [None]  # the other device's presses are all here up to this time (ours)

    def arrived(kind, p, n):
        # The other device's press (its action and keypad time), or its tick
        # (its keys read up to then, and its next reliable frame's number:
        # no press of its is still on the way), as hardware/order.py takes them.
        now = a.ticks_ms(clock[0])
        if kind == _TICK and not ends[0].has_before(p[4]):
            return
        t = sync.to_ours(get32(p, 1 if kind == _PRESS else 0), now)  # (a press's time follows its action)
        if upto[0] is None or ticks_diff(t, upto[0]) > 0:
            upto[0] = t
        if kind == _PRESS:
            ref.add(1, p[0], t)

    ends = (Link(Uart(cable, 0, clock), arrived), Link(Uart(cable, 1, clock), lambda *x: None))
    tick = bytearray(PAYLOAD)
    phases = (rnd.below(SCAN_US), rnd.below(SCAN_US))
    payload = bytearray(PAYLOAD)
    t_ping = 0
    results = []  # (gap ms, the truly earlier went first, a tie)
    for trial in range(count):
        start = clock[0] + 200000
        gap_us = rnd.below(40001)
        early = rnd.below(2)  # who presses first
        press_us = [start, start]
        press_us[1 - early] += gap_us
        pending = [True, True]
        first.clear()
        while clock[0] < start + gap_us + 200000:
            clock[0] += 1000  # each device's loop: a pass every millisecond
            now_a = a.ticks_ms(clock[0])
            if clock[0] >= t_ping:  # a ping every second (every 250 ms until the drift is known)
                got = exchange(pings, a, b, clock[0])
                if got is not None:
                    sync.ping(*got[0])
                t_ping = clock[0] + (250000 if not sync.drift_known else 1000000)
            for p in (0, 1):
                seen = stamp(a if p == 0 else b, phases[p], press_us[p]) if pending[p] else None
                if seen is None or ticks_diff((now_a if p == 0 else b.ticks_ms(clock[0])), seen) < 0:
                    continue
                pending[p] = False
                if p == 0:
                    ref.add(0, 1, seen)
                else:
                    payload[0] = 1
                    put32(payload, 1, seen)
                    ends[1].send(_PRESS, payload, 5, b.ticks_ms(clock[0]), True)  # (a press: twice)
            if clock[0] % (TICK_MS * 1000) == 0:  # the other device's tick: its keys read up to now
                now_b = b.ticks_ms(clock[0])
                put32(tick, 0, now_b)
                tick[4] = ends[1].next_seq()
                ends[1].send(_TICK, tick, 5, now_b)
            for end in ends:
                end.poll((a if end is ends[0] else b).ticks_ms(clock[0]))
            heard = upto[0] if upto[0] is not None else ticks_add(now_a, -HOLD_MAX_MS)  # (no word yet)
            ref.release(now_a, lambda p, act, t: first.append((p, t)), heard, now_a)
        if trial >= 16 and len(first) == 2:  # (the first contests wait for the clock sync)
            results.append((gap_us / 1000, first[0][0] == early or gap_us == 0, first[0][1] == first[1][1]))
    return results


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=1000)
    ap.add_argument("--contests", type=int, default=10000)
    args = ap.parse_args(argv)
    e = sync_after_16(args.seeds)
    print("Linked play on the link model (one way 5 +- 3 ms), simulated time")
    print(
        "clock offset after 16 pings, %d pairs: within 1 ms %.1f %%, within 2 ms %.1f %%, worst %.1f ms (goal 2 ms)"
        % (len(e), 100 * sum(x <= 1 for x in e) / len(e), 100 * sum(x <= 2 for x in e) / len(e), max(e))
    )
    drift, moments, worst = sync_30_minutes(max(1, args.seeds // 10))
    print(
        "30-minute matches, 2 %% bytes lost, %d pairs: drift error worst %d ppm; offset within 2 ms at %.2f %% "
        "of %d moments, worst %.1f ms"
        % (len(drift), max(drift), 100 * sum(x <= 2 for x in moments) / len(moments), len(moments), worst)
    )
    for label, cable in (
        ("5 % of frames lost (0.6 % of bytes)", Cable(11, delay_us=5000, jitter_us=3000, loss=6000)),
        ("10 % lost in bursts", Cable(12, delay_us=5000, jitter_us=3000, burst_every=1000, burst_bytes=12)),
    ):
        ok, resent, median, p95 = frames(cable)
        print(
            "2,000 reliable frames, %s: once each in order %s, %d resent, send to delivery median %.1f ms, "
            "95th percentile %.1f ms" % (label, "yes" if ok else "NO", resent, median, p95)
        )
    for label, loss in (("", 0), (", 5 % of frames lost", 6000)):
        results = contests(args.contests, loss)
        over = [ok for gap, ok, _ in results if gap > 15]
        holds = 0.0
        for g in range(400, -1, -1):  # from the widest gaps down, in 0.1 ms steps
            wide = [ok for gap, ok, _ in results if gap >= g / 10]
            if sum(wide) < 0.999 * len(wide):
                holds = (g + 1) / 10
                break
        ties = [gap for gap, _, tie in results if tie]
        print(
            "%d contested presses (gaps 0 to 40 ms%s): the truly earlier first above 15 ms %.2f %% (%d of %d); "
            "99.9 %% from a gap of %s; %d ties (the same ms on the referee's clock, gaps up to %.1f ms)"
            % (
                len(results),
                label,
                100 * sum(over) / len(over),
                sum(over),
                len(over),
                "%.1f ms" % holds if holds <= 40 else "(never)",
                len(ties),
                max(ties or [0]),
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
