"""The session tools/bench_pico.py --session plays on two emulated Picos
(tools/session.py): checked here on the desktop, with the same code and
keys, to reach each of its six matches from the menu, to leave each for the
menu, and to drop nothing on the way; and its later rounds (--rounds 3) to
reach the same six again from where the round before left the menu."""

import os
import sys

from test_linked import PICO, quiet

from desktop.linked_pair import Pair
from desktop.replay import read_replay
from engine.games import TITLES
from hardware.modes import MATCH, MENU, PLAYERS

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
import session  # noqa: E402


def test_the_session_reaches_each_match_and_leaves_it(tmp_path):
    a_lines, b_lines, end = session.replays(3)
    events = []
    for i, lines in enumerate((a_lines, b_lines)):
        path = tmp_path / ("device%d.txt" % i)
        path.write_text("\n".join(lines) + "\n")
        events.append(read_replay(str(path), PICO["keymap"])[0])
    pair = Pair(PICO, quiet(), seed=5)
    # (a handheld with a link starts at linked play, as Pair sets it)
    played = ([], [])
    menus = [0, 0]
    last = [MENU, MENU]
    sessions = []
    script = sorted((ms * 1000, d, k, pressed) for d, evs in enumerate(events) for ms, k, pressed in evs)
    while pair.t_us[0] < end * 1000:
        while script and script[0][0] <= pair.t_us[0]:
            _, d, k, pressed = script.pop(0)
            dev = pair.devices[d]
            dev.keys.set(k, pressed, dev.ticks_ms())
        pair.run(1)
        for i, d in enumerate(pair.devices):
            app = d.app
            if app.mode == MATCH and last[i] != MATCH and (not played[i] or menus[i] == len(played[i])):
                played[i].append((TITLES[app.kind], PLAYERS[app.players]))
                if app.linked is not None and app.linked not in sessions:
                    sessions.append(app.linked)
            if app.mode == MENU and last[i] != MENU:
                menus[i] += 1
            last[i] = app.mode
    assert played[0] == list(session.MATCHES) * 3
    assert played[1] == list(session.MATCHES[4:]) * 3
    assert menus == [18, 6] and all(d.app.mode == MENU and d.app.leaving is None for d in pair.devices)
    assert len(sessions) == 12 and all(s.dropped() == 0 for s in sessions)
