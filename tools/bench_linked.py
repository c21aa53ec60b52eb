"""Linked play's benchmark: two handhelds' Apps, each with its own
clock, joined by the modelled cable (one way 5 +- 3 ms; desktop/link_model.py),
in simulated time (desktop/linked_pair.py), each played by a quick person
(Racer: a legal move every 120 to 400 ms, now and then a stray key).

    python tools/bench_linked.py [--matches 1000] [--contests 10000] [--pulls 1000] [--harsh 200]
                                 [--churn 2000] [--jobs N]
                                 [--pico-only | --model-only | --harsh-only | --radio-only | --churn-only]

- Agreement: --matches whole matches with 5 % of frames lost (0.6 % of
  bytes, uniformly), clocks at random offsets drifting up to +-50 ppm; as
  many with 10 % of frames lost in bursts. After every event of the order
  both positions are compared (the hash of hardware/linked.py, and the
  notation at the end): divergences found and mended by a snapshot, and any
  left. Latency: from a press (its true time) to the pass that applies it,
  on each device (median, 95th percentile).
- Fairness: --contests contested presses through both Apps: both players'
  8s fit one pile only (a snapshot brings the position; the contest starts
  once the follower has taken it up); one device presses, the other 0 to
  40 ms later (who first drawn at random); the card on the pile says who won. On a clean
  cable and with 5 % of frames lost. Prints how often the truly earlier
  press wins above 15 ms, the smallest gap from which it does 99.9 % of the
  time, and the ties (the same ms on the referee's clock) and their turns.
- Faults: --pulls times the cable is pulled mid-match for 2.5 to 6 s: when
  each device paused (goal: both within 2 s), and after it is back and both
  players are ready, the positions equal and the match going on.

- The harsh level: --harsh whole matches with many faults at once
  (desktop/linked_pair.py: harsh_pair: bytes lost and corrupted, bursts, one
  way 1 to 35 ms, clocks 300 ppm apart, one-way and two-way outages, a Pico's
  drawing time, quick players with one key in three a stray one): how often
  both devices showed the same scene within 2 s of any change, the positions
  equal at the end, snapshots per match against the divergences and losses
  of the link that called for them, presses refused as stale, and anything
  dropped without a word (goal 0).

- By radio: two Cardputers (hardware/radio.py) on the modelled air
  (desktop/radio_model.py: a packet a frame, 1 to 4 ms, the firmware's
  receive ring), with another pair's hellos on the channel all along:
  --matches whole matches with 5 % of packets lost, as many with 15 % lost
  in bursts (positions compared after every event, as above; the strangers'
  packets refused); --contests contested presses, on a clean channel and
  with 5 % lost; --pulls spells of radio silence (2.5 to 6 s).

- Churn: --churn sessions (40 s each, then 12 s of calm in which people go
  on when asked) in which, at random moments, either player leaves (the
  lobby, the countdown, a snapshot on its way, a match by the pause chord, a
  pause, a result), chooses linked play again with either game, restarts the
  handheld, or the cable is pulled for 1 to 5 s, both racing in between
  (desktop/linked_pair.py: Churn); on a clean cable, a lossy one (1.5 % of
  bytes lost), the harsh level and by radio with 5 % of packets lost. How
  each ended: both in the same match with equal positions, both out of
  linked play, alone (one in a match whose other handheld was switched off
  and on: nothing in its menu listens), or stranded (goal 0); exceptions;
  players in a match of a game they did not choose or go on into (goal 0).

- Two pairs in one room: --rooms times, two pairs of Cardputers on one
  channel choose linked play within the same second; each person confirms
  the handheld found when its name is on their friend's screen, else goes
  back and chooses again (desktop/linked_pair.py: Room). How often each
  handheld ends in a match with the one its player confirmed (goal: always),
  with its friend's, and how long it took.

The figures above are of the model: the board's own drawing time comes on top
of the latency. Last, where the firmware is present (tools/picoemu.py), two
emulated Picos play a linked match from their menus: the heap each keeps, the
bytes a move allocates, and each press's result on both screens.
"""

import argparse
import os
import sys
from multiprocessing import Pool

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from desktop.link_model import Link as Cable  # noqa: E402
from desktop.linked_pair import (  # noqa: E402
    HARSH_REACT_MS,
    HARSH_STRAY,
    IN_OVER,
    OUT,
    Churn,
    Pair,
    QuietScreen,
    Racer,
    Room,
    Scenes,
    Strangers,
    fuzzed_match,
    harsh_pair,
    scene,
)
from desktop.radio_model import Air  # noqa: E402
from engine.cards import Rng  # noqa: E402
from hardware import profiles  # noqa: E402
from hardware.keymaps import STOCK_0  # noqa: E402
from hardware.modes import EV_PAUSE, LOST, MATCH, OVER, PAUSED  # noqa: E402
from hardware.protocol import SNAP_ON, state_hash  # noqa: E402

PICO = profiles.get("pico-st7789-240")
CARDPUTER = profiles.get("cardputer")
LOSS = 6000  # bytes lost per million: about 5 % of frames (a frame is 8 to 19 bytes)
RADIO_LOSS = 50000  # packets lost per million: 5 %
RADIO = ("radio", "radio bursts", "radio clean")


def quiet(profile=PICO):
    return (QuietScreen(profile), QuietScreen(profile))


def cable(kind, seed):
    # The link of a kind: a cable, or by radio the air.
    if kind == "radio":
        return Air(seed, loss=RADIO_LOSS)
    if kind == "radio bursts":  # 15 % of the time lost, in bursts of 100 ms on average (0 to 200)
        return Air(seed, burst_every_us=567000, burst_us=100000)
    if kind == "radio clean":
        return Air(seed)
    if kind == "bursts":  # about 10 % of frames lost, in bursts of 12 bytes on average
        return Cable(seed, burst_every=1000, burst_bytes=12)
    return Cable(seed, loss=LOSS if kind == "uniform" else 0)


def pair_on(kind, seed):
    # Two Picos on a cable, or two Cardputers by radio with another pair's hellos on the channel.
    link = cable(kind, seed)
    if kind in RADIO:
        pair = Pair(CARDPUTER, quiet(CARDPUTER), seed=seed, cable=link)
        pair.others.append(Strangers(link, pair.t_us))
        return pair
    return Pair(PICO, quiet(), seed=seed, cable=link)


def _watch(pair):
    # Each device's applied events: (player, the pass's true time), by wrapping Linked.apply.
    seen = ([], [])
    for i, d in enumerate(pair.devices):
        linked = d.app.linked
        real = linked.apply

        def applied(player, action, t, now, real=real, log=seen[i]):
            if action < EV_PAUSE:
                log.append((player, pair.t_us[0]))
            return real(player, action, t, now)

        linked.apply = applied
    return seen


def one_match(args):
    # A whole match: (events, divergences, unresolved, equal at the end, latencies ms).
    kind, seed = args
    pair = pair_on(kind, seed)
    if not pair.start():
        return (0, 0, 1, False, [], 0)
    a, b = pair.devices
    seen = _watch(pair)
    racers = [Racer(d, 2 * seed + i, react_ms=(120, 400)) for i, d in enumerate(pair.devices)]
    pressed = ([], [])  # each player's presses into the order (after the debounce): their true times
    for d in pair.devices:
        linked = d.app.linked
        real = linked.press

        def press(player, action, t, real=real, log=pressed[linked.seat], linked=linked):
            if player == 0 and not linked.phase == LOST:
                log.append(pair.t_us[0])
            real(player, action, t)

        linked.press = press
    last = -1
    unresolved = 0
    while not (a.app.mode == OVER and b.app.mode == OVER) and pair.t_us[0] < 3600 * 10**6:
        for r in racers:
            r.step()
        pair.run(1)
        la, lb = a.app.linked, b.app.linked
        if la.count == lb.count != last and not lb.phase == LOST:
            last = la.count
            if state_hash(a.app.game, a.app.controls) != state_hash(b.app.game, b.app.controls):
                unresolved += 1  # (counted again at the end if no snapshot mended it)
    pair.run(500)
    equal = a.app.game.text() == b.app.game.text()
    latencies = []
    for d in range(2):
        k = [0, 0]
        for player, at in seen[d]:
            if k[player] < len(pressed[player]):
                latencies.append((at - pressed[player][k[player]]) / 1000)
            k[player] += 1
    divergences = max(a.app.linked.divergences, b.app.linked.divergences)
    strangers = sum(getattr(d.uart, "strangers", 0) for d in pair.devices)
    return (a.app.linked.count, divergences, 0 if equal else 1, equal, latencies, strangers)


def harsh_match(seed):
    """A whole match at the harsh level (desktop/linked_pair.py: harsh_pair):
    (started, the longest the scenes differed in ms, spells over 2 s, equal at
    the end, snapshots sent, divergences, times a device found the link
    lost, silent drops, the state at the end, presses refused as stale,
    players who left while their device found the link lost, and timed from
    the change itself: the longest in ms, spells over 2 s, spells with the
    wire from the device that changed out)."""
    pair = harsh_pair(PICO, seed)
    if not pair.start(20000):
        return (False, 0, 0, False, 0, 0, 0, 0, "no start", 0, 0, 0, 0, 0)
    racers = [Racer(d, 3 * seed + i, react_ms=HARSH_REACT_MS, stray=HARSH_STRAY) for i, d in enumerate(pair.devices)]
    scenes = Scenes(pair)
    sessions = [d.app.linked for d in pair.devices]
    end = pair.t_us[0] + 1200 * 10**6  # (20 minutes: a match is over in a few)
    settled = None
    while pair.t_us[0] < end:
        for r in racers:
            r.step()
        pair.run(1)
        scenes.watch()
        if all(scene(d.app) in (OUT, IN_OVER) for d in pair.devices):
            settled = settled or pair.t_us[0]
            if pair.t_us[0] - settled > 3 * 10**6:
                break
        else:
            settled = None
    scenes.finish()
    games = [d.app.game or d.app.saved for d in pair.devices]
    equal = all(g is not None for g in games) and games[0].text() == games[1].text()
    drops = sum(s.dropped() for s in sessions)
    state = "/".join(scene(d.app) for d in pair.devices)
    return (
        True,
        scenes.worst_ms,
        scenes.over_2s,
        equal,
        scenes.snapshots,
        scenes.divergences,
        scenes.lost,
        drops,
        state,
        sum(s.order.stale for s in sessions if s.order is not None),
        scenes.left_lost,
        scenes.worst_plain_ms,
        scenes.plain_over_2s,
        scenes.wire_out,
    )


def harsh(jobs, matches):
    with Pool(jobs) as pool:
        results = pool.map(harsh_match, range(matches), chunksize=2)
    started = [r for r in results if r[0]]
    same = [r for r in started if r[2] == 0]
    snaps = [r[4] for r in started]
    print(
        "harsh level, %d matches (0.6 %% of bytes lost, 0.3 %% corrupted, bursts, one way 1 to 35 ms, clocks 300 ppm "
        "apart, one-way and two-way outages, a Pico's drawing time, moves every 60 to 200 ms, one key in three stray): "
        "started %d; the same scene within 2 s of any change in %d (%.1f %%; the longest apart %d ms; a change made "
        "while the wire from its device is out is timed from when the wire is back: timed from the change itself, "
        "the longest apart %d ms, %d spells over 2 s, %d spells with that wire out); positions equal "
        "at the end %d (of the %d not left by a player while their device found the link lost: %d); "
        "snapshots per match median %d, most %d, %d in all for %d divergences and %d times a link was "
        "lost (goal: at most one each, and one to start); presses refused as stale (made on a replaced position) %d; "
        "presses or events dropped without a word %d"
        % (
            matches,
            len(started),
            len(same),
            100 * len(same) / max(1, len(started)),
            max([r[1] for r in started] or [0]),
            max([r[11] for r in started] or [0]),
            sum(r[12] for r in started),
            sum(r[13] for r in started),
            sum(r[3] for r in started),
            sum(1 for r in started if not r[10]),
            sum(1 for r in started if r[3] and not r[10]),
            pct(snaps, 50),
            max(snaps or [0]),
            sum(snaps),
            sum(r[5] for r in started),
            sum(r[6] for r in started),
            sum(r[9] for r in started),
            sum(r[7] for r in started),
        )
    )
    for seed, r in enumerate(results):
        if not r[0] or r[2] or not r[3] or r[7]:
            print("  seed %d: %s" % (seed, r))


def contested(args):
    # count contests on one pair: (gap ms, truly earlier won, tie, tie winner seat).
    kind, seed, count = args
    pair = pair_on(kind, seed)
    pair.start()
    pair.run(2000)
    rnd = Rng(seed)
    devices = sorted(pair.devices, key=lambda d: d.app.linked.seat)
    ref = devices[0] if devices[0].app.linked.is_referee else devices[1]
    order = []  # the referee's events of this contest: (player, its time on the referee's clock)
    real = ref.app.linked.apply

    def applied(player, action, t, now):
        if action == STOCK_0 + 3:
            order.append((player, t))
        return real(player, action, t, now)

    ref.app.linked.apply = applied
    out = []
    for _ in range(count):
        ref.app.game = _position()
        ref.app.mode = MATCH
        ref.app.linked.order.send_snapshot(SNAP_ON, ref.ticks_ms())
        # The contest starts once the follower has taken up this snapshot (one
        # sent before it, still on its way, brings the same position: a press
        # made on that one is stale, rightly refused, and no contest).
        if not pair.run_until(lambda: pair.agree() and _taken_up(devices), 2000):
            out.append((None, False, False, -1))
            continue
        order.clear()
        gap_us = rnd.below(40001)
        first = rnd.below(2)
        start = pair.t_us[0] + rnd.below(1000)
        while pair.t_us[0] < start:
            pair.run(1)
        pair.t_us[0] = start  # (to the microsecond: the device's clock stamps what its ms says)
        devices[first].press(STOCK_0 + 3)
        later = start + gap_us
        while pair.t_us[0] + 1000 <= later:
            pair.run(1)
        pair.t_us[0] = later
        devices[1 - first].press(STOCK_0 + 3)
        pair.run(200)
        top = devices[0].app.game.text().split()[-2].split(",")[-1].upper()
        winner = 0 if top == "8D" else 1 if top == "8C" else -1
        tie = len(order) == 2 and order[0][1] == order[1][1]  # (the same ms on the referee's clock)
        out.append((gap_us / 1000, winner == first or tie, tie, winner))
        pair.run(200)
    return out


def _taken_up(devices):
    # Both devices on the referee's latest snapshot, none on its way.
    a, b = (d.app.linked for d in devices)
    return (a.snapshots - b.snapshots) & 255 == 0 and a.snap is None and b.snap is None


def _position():
    # Both players' 8s fit pile 0 only (and each has another move: no stalemate).
    from engine.spit import Game

    return Game.from_text(
        "spit play - 1 0:0 1.1.1 2S/3S/4S/8D/5S kd 2C/3C/JC/8C/5C kh "
        "AC,4C,6C,7C,9C,10C,QC,KC,AD,2D,3D,4D,5D,6D,7D,9D,10D,JD,QD,AH,2H,3H,4H,5H,6H,7H,8H,9H,10H,JH,AS,6S,8S,9S,"
        "10S,JS,QS,KS,7S QH"
    )


def pulled(seed, radio=False):
    # One pull (by radio: a spell of silence): (ms until device 0 paused, until device 1 paused, equal and on after).
    rnd = Rng(seed)
    pair = pair_on("radio clean" if radio else "clean", seed)
    pair.start()
    racers = [Racer(d, 2 * seed + i, react_ms=(120, 400)) for i, d in enumerate(pair.devices)]
    for _ in range(2000 + rnd.below(3000)):
        for r in racers:
            r.step()
        pair.run(1)
        if any(d.app.mode != MATCH for d in pair.devices):
            break
    if any(d.app.mode != MATCH for d in pair.devices):
        return None  # (the match ended first)
    t = pair.t_us[0]
    if radio:
        pair.cable.silence(t, t + (2500 + rnd.below(3501)) * 1000)
    else:
        pair.cable.pull(t, t + (2500 + rnd.below(3501)) * 1000)
    paused = [None, None]
    while pair.t_us[0] < t + 2500 * 1000:
        pair.run(1)
        for i, d in enumerate(pair.devices):
            if paused[i] is None and d.app.mode == PAUSED:
                paused[i] = (pair.t_us[0] - t) / 1000
    pair.run_until(lambda: all(d.app.pause_why in ("cable back", "radio's back") for d in pair.devices), 8000)
    back = pair.agree()
    for d in pair.devices:
        d.press(STOCK_0)
    pair.run(3500)
    on = all(d.app.mode == MATCH for d in pair.devices)
    for _ in range(1000):
        for r in racers:
            r.step()
        pair.run(1)
    pair.run(300)  # (the last presses' events on their way)
    return paused[0], paused[1], back and on and pair.agree()


def pico_match(work, presses):
    """The emulated pair's linked match (also tools/heap_map.py's): each
    device's replay in work, the menu to a linked match, then presses on both
    devices 200 ms apart; (replay paths, until_ms, settings, each device's
    settings) for picoemu.emulate_pair."""
    paths = []
    for i in range(2):
        lines = ["200 p0.stock1"] + ["%d p0.pile0" % (400 + 200 * k) for k in range(6)]
        lines += ["%d p0.pile1" % (1600 + 250 * i)]
        lines += ["%d p0.stock%d" % (6000 + 400 * k + 200 * i, (k + 2 * i) % 5) for k in range(presses // 2)]
        path = os.path.join(work, "keys%d.txt" % i)
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        paths.append(path)
    until = 6000 + 400 * (presses // 2) + 1000
    settings = {"SPIT_SEED": 7, "SPIT_PROBE_KEPT_MS": until - 500}
    each = ({"SPIT_NONCE": 0x9000}, {"SPIT_NONCE": 0x1000})  # (device 0 referees)
    return paths, until, settings, each


def pico_figures(presses=40):
    # Two emulated Picos (the real firmware, tools/picoemu.py): a linked
    # match from both menus, then presses on both devices 200 ms apart; the
    # heap kept, the bytes a move allocated, and each press's first frame on
    # both screens. None when the firmware is absent.
    import tempfile

    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import picoemu

    try:
        picoemu.firmware()
    except picoemu.Missing as e:
        print("emulated Picos: skipped (%s)" % e)
        return None
    work = tempfile.mkdtemp(prefix="bench-linked-")
    paths, until, settings, each = pico_match(work, presses)
    # (a run of its own: counting walks the heap every pass)
    counted = dict(settings, SPIT_PROBE_ALLOC=1, SPIT_PROBE_NAMES=1)
    counts = picoemu.emulate_pair(PICO["name"], paths, counted, until_ms=until, work=work + "/counted", each=each)
    runs = picoemu.emulate_pair(PICO["name"], paths, settings, until_ms=until, work=work + "/timed", each=each)
    for d, (r, c) in enumerate(zip(runs, counts)):
        top = int(r.probe("top").split()[1])
        free = int(r.probe("kept").split()[1])
        moves, allocating, total = (int(w) for w in c.probe("alloc").split()[:3])
        left, pool = (int(w) for w in (c.probe("names") or "-1 0").split())  # (-1: not read before the run's end)
        seat = (r.probe("linked") or "?").split()[0]
        print(
            "emulated Pico %d (player %s): heap kept in the linked match %.1f KB; ordinary moves %d, "
            "allocating %d (%d B%s); names it can still intern %d, then a pool of %.1f KB"
            % (
                d,
                seat,
                (top - free) / 1024,
                moves,
                allocating,
                total,
                ": a move drawn as a refusal's word comes or goes builds the middle's words" if total else "",
                left,
                pool / 1024,
            )
        )
    waits = []
    for r in runs:
        for t, _, level in r.presses:
            if level == 0 and t > 5500:
                for e in runs:
                    frame = picoemu.first_frame_after(e, t)
                    if frame is not None:
                        waits.append(frame[1] - t)
    print(
        "emulated Picos: %d presses' results on both screens (to the last pixel): median %.1f ms, 95th percentile "
        "%.1f ms, worst %.1f ms (goal 40 at the 95th)" % (len(waits) // 2, pct(waits, 50), pct(waits, 95), max(waits))
    )
    return runs


def pct(values, q):
    s = sorted(values)
    return s[min(len(s) - 1, len(s) * q // 100)] if s else 0


def agreement(pool, args, levels):
    for label, kind in levels:
        results = pool.map(one_match, [(kind, seed) for seed in range(args.matches)], chunksize=4)
        events = sum(r[0] for r in results)
        found = sum(r[1] for r in results)
        left = sum(r[2] for r in results)
        lat = [x for r in results for x in r[4]]
        print(
            "%d matches, %s: %d events; positions equal at the end %d of %d; divergences found and mended %d, "
            "left %d; a press applied on each device median %.1f ms, 95th percentile %.1f ms (goal 50)%s"
            % (
                len(results),
                label,
                events,
                sum(r[3] for r in results),
                len(results),
                found,
                left,
                pct(lat, 50),
                pct(lat, 95),
                "; the other pair's packets refused %d" % sum(r[5] for r in results) if kind in RADIO else "",
            )
        )


def fairness(pool, args, levels):
    for label, kind in levels:
        per = 500
        jobs = [(kind, 500 + j, per) for j in range(max(1, args.contests // per))]
        chunks = pool.map(contested, jobs)  # (each a pair of devices of its own: its ties take turns)
        out = [x for chunk in chunks for x in chunk if x[0] is not None]
        over = [ok for gap, ok, _, _ in out if gap > 15]
        holds = None
        for g in range(400, -1, -1):
            wide = [ok for gap, ok, _, _ in out if gap >= g / 10]
            if sum(wide) < 0.999 * len(wide):
                holds = (g + 1) / 10
                break
        ties = [(gap, w) for gap, _, tie, w in out if tie]
        turns = pairs = 0
        for chunk in chunks:
            won = [w for gap, _, tie, w in chunk if tie]
            turns += sum(won[i] != won[i - 1] for i in range(1, len(won)))
            pairs += max(0, len(won) - 1)
        print(
            "%d contested presses through both Apps (%s): the truly earlier first above 15 ms %.2f %% (%d of %d); "
            "99.9 %% from a gap of %s; %d ties (gaps up to %.1f ms), each to the other player than the last: "
            "%d of %d"
            % (
                len(out),
                label,
                100 * sum(over) / max(1, len(over)),
                sum(over),
                len(over),
                "%.1f ms" % holds if holds is not None else "0 ms",
                len(ties),
                max([g for g, _ in ties] or [0]),
                turns,
                pairs,
            )
        )


def silences(pool, args, radio):
    tries = [r for r in pool.starmap(pulled, [(seed, radio) for seed in range(args.pulls)]) if r is not None]
    both = [r for r in tries if r[0] is not None and r[1] is not None and max(r[0], r[1]) <= 2000]
    worst = max(max(r[0] or 99999, r[1] or 99999) for r in tries) if tries else 0
    print(
        "%d %s (2.5 to 6 s): both paused within 2 s in %d (%.1f %%), the later after %.0f ms at worst; "
        "after it came back and both were ready, equal and playing on in %d"
        % (
            len(tries),
            "spells of radio silence" if radio else "pulled cables",
            len(both),
            100 * len(both) / max(1, len(tries)),
            worst,
            sum(r[2] for r in tries),
        )
    )


CHURN_LEVELS = (
    ("clean cable", "clean"),
    ("1.5 % of bytes lost", "lossy"),
    ("harsh", "harsh"),
    ("by radio, 5 % of packets lost", "radio"),
)


def churn_session(args):
    # One churn session: (how it ended, players in a game not theirs, the acts, an exception's text or "").
    seed, kind, ms = args
    if kind == "harsh":
        pair = harsh_pair(PICO, seed)
    elif kind == "lossy":
        pair = Pair(PICO, quiet(), seed=seed, cable=Cable(seed, loss=15000))
    else:
        pair = pair_on("radio" if kind == "radio" else "clean", seed)
    churn = Churn(pair, seed)
    try:
        for i in range(2):
            churn.choose(i)
        churn.play(ms)
        churn.calm()
        return churn.ended(), len(churn.wrong), dict(churn.acts, **churn.counts()), ""
    except Exception as e:  # (counted and printed: the goal is none)
        return "exception", len(churn.wrong), churn.acts, "%s: %s (seed %d)" % (type(e).__name__, e, seed)


def churn(jobs, sessions, ms=40000):
    print("Churn: people changing their minds (%d sessions of %d s and 12 s of calm a level)" % (sessions, ms // 1000))
    with Pool(jobs) as pool:
        for label, kind in CHURN_LEVELS:
            results = pool.map(churn_session, [(seed, kind, ms) for seed in range(sessions)], chunksize=4)
            ends = {}
            for end, _, _, _ in results:
                ends[end] = ends.get(end, 0) + 1
            acts = {}
            for _, _, a, _ in results:
                for k, v in a.items():
                    acts[k] = acts.get(k, 0) + v
            fine = ("match", "out", "alone", "both paused, the link out", "exception")
            stranded = sum(v for k, v in ends.items() if k not in fine)
            print(
                "  %s: in the same match %d, both out %d, alone %d, both paused with the link out %d, stranded %d, "
                "exceptions %d; "
                "players in a game they did not choose %d; acts and counts: %s"
                % (
                    label,
                    ends.get("match", 0),
                    ends.get("out", 0),
                    ends.get("alone", 0),
                    ends.get("both paused, the link out", 0),
                    stranded,
                    ends.get("exception", 0),
                    sum(r[1] for r in results),
                    ", ".join("%s %d" % kv for kv in sorted(acts.items())),
                )
            )
            for k, v in sorted(ends.items()):
                if k not in fine:
                    seeds = [seed for seed, r in enumerate(results) if r[0] == k]
                    print("    stranded: %s x%d (seeds %s)" % (k, v, " ".join(map(str, seeds[:10]))))
            for r in results:
                if r[3]:
                    print("    " + r[3])


def room_run(seed):
    # (each with the one confirmed, with friends, seconds to the four matches, players who went back)
    room = Room(CARDPUTER, seed)
    halves = 0
    while halves < 120 and not room.done():
        room.run(500)
        halves += 1
    done = room.done()
    return done and room.with_the_one_confirmed(), done and room.with_friends(), halves / 2, room.backs


def fuzz_match(seed):
    # (frames sent, refused by the protocol's check, counted by the devices, how it ended, an exception or "")
    try:
        _, pair, fz, sessions = fuzzed_match(PICO, seed)
    except Exception as e:  # (counted and printed: the goal is none)
        return 0, 0, 0, "exception", "%s: %s (seed %d)" % (type(e).__name__, e, seed)
    ends = [scene(d.app) for d in pair.devices]
    ok = set(ends) <= {OUT, IN_OVER} or ends[0] == ends[1] and pair.agree()
    counted = sum(s.link.bad + s.link.stale for s in sessions)
    return fz.sent, fz.unfit, counted, "ok" if ok else "apart", ""


def fuzz(jobs, n):
    with Pool(jobs) as pool:
        results = pool.map(fuzz_match, range(n), chunksize=8)
    print(
        "Random frames with good CRCs, one every 100 ms to either device through %d linked matches (lobby to "
        "result): %d sent, %d of them no frame the protocol sends, %d refused and counted by the devices; "
        "exceptions %d; matches ending apart %d"
        % (
            n,
            sum(r[0] for r in results),
            sum(r[1] for r in results),
            sum(r[2] for r in results),
            sum(r[3] == "exception" for r in results),
            sum(r[3] == "apart" for r in results),
        )
    )
    for r in results:
        if r[4]:
            print("    " + r[4])


def rooms(jobs, n):
    with Pool(jobs) as pool:
        results = pool.map(room_run, range(n), chunksize=8)
    secs = sorted(r[2] for r in results)
    print(
        "Two pairs in one room, choosing within the same second (%d times): each with the one its player "
        "confirmed %d, with their friend's %d; all four in matches after %.1f s (median), %.1f s (95 %%), "
        "players who went back from a handheld not their friend's %.1f a time"
        % (
            n,
            sum(r[0] for r in results),
            sum(r[1] for r in results),
            pct(secs, 50),
            pct(secs, 95),
            sum(r[3] for r in results) / n,
        )
    )


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=1000)
    ap.add_argument("--contests", type=int, default=10000)
    ap.add_argument("--pulls", type=int, default=1000)
    ap.add_argument("--harsh", type=int, default=200, help="matches at the harsh level (many faults at once)")
    ap.add_argument("--harsh-only", action="store_true", help="only the harsh level")
    ap.add_argument("--churn", type=int, default=0, help="churn sessions a level (people changing their minds)")
    ap.add_argument("--churn-only", action="store_true", help="only the churn")
    ap.add_argument("--rooms", type=int, default=0, help="two pairs choosing in the same second, this many times")
    ap.add_argument("--fuzz", type=int, default=0, help="linked matches with a random frame every 100 ms")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--pico-only", action="store_true", help="only the two emulated Picos' figures")
    ap.add_argument("--model-only", action="store_true", help="only the model's figures (not the emulated Picos')")
    ap.add_argument("--radio-only", action="store_true", help="only the radio's figures (two Cardputers)")
    args = ap.parse_args(argv)
    if args.pico_only:
        pico_figures()
        return 0
    if args.harsh_only:
        harsh(args.jobs, args.harsh)
        return 0
    if args.churn_only:
        churn(args.jobs, args.churn or 2000)
        rooms(args.jobs, args.rooms or 1000)
        fuzz(args.jobs, args.fuzz or 1000)
        return 0
    with Pool(args.jobs) as pool:
        if not args.radio_only:
            print("Linked play: two Apps on the link model (one way 5 +- 3 ms), simulated time")
            agreement(pool, args, (("5 % of frames lost", "uniform"), ("10 % of frames lost in bursts", "bursts")))
            fairness(pool, args, (("clean cable", "clean"), ("5 % of frames lost", "uniform")))
            silences(pool, args, False)
        print(
            "By radio: two Cardputers on the modelled air (a packet a frame, one way 1 to 4 ms), another pair's "
            "hellos on the channel all along"
        )
        agreement(
            pool,
            args,
            (("5 % of packets lost", "radio"), ("15 % of packets lost in bursts of 0 to 200 ms", "radio bursts")),
        )
        fairness(pool, args, (("clean channel", "radio clean"), ("5 % of packets lost", "radio")))
        silences(pool, args, True)
    if args.radio_only:
        return 0
    harsh(args.jobs, args.harsh)
    if args.churn:
        churn(args.jobs, args.churn)
    if args.rooms:
        rooms(args.jobs, args.rooms)
    if args.fuzz:
        fuzz(args.jobs, args.fuzz)
    if not args.model_only:
        pico_figures()
    return 0


if __name__ == "__main__":
    sys.exit(main())
