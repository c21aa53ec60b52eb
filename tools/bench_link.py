"""Link benchmark (issue 36): the figures of the parts of linked play built
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
from hardware.clock_sync import FAST_MS, SLOW_MS, ClockSync  # noqa: E402
from hardware.link import PAYLOAD, Link  # noqa: E402


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


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=1000)
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
