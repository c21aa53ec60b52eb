"""Headless snapshots of every scene at every board profile's resolution.

Each scene is drawn by hardware/screen.py on Blinka's displayio, saved as a
PNG (to SPIT_SNAPSHOTS when set, for people to look at) and checked
structurally: the size, what the labels say, that each card is drawn where it
belongs in its colour, and that a monochrome screen uses black and white only.
"""
import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import displayio  # noqa: E402
import pygame  # noqa: E402
import pytest  # noqa: E402

from engine.spit import CHOOSE, GAME_OVER, PLAY, READY, SLAP, SPIT, STALEMATE, Game  # noqa: E402
from hardware import profiles  # noqa: E402
from hardware.app import App  # noqa: E402
from hardware.controls import Controls  # noqa: E402
from hardware.desktop import DesktopKeys, Event, _pygame_display_class  # noqa: E402
from hardware.screen import Screen, card_text  # noqa: E402
from helpers import position  # noqa: E402



def reddish(rgb):
    return rgb[0] > 200 and rgb[1] < 100 and rgb[2] < 100
STUCK1 = "5C/5D/5H/5S/4C"


def play_scene(controls):
    g = position("8D/9h,2C/2D/2H/2S", "6H/9s,10S/5H/5S/4C", pile0="7C", pile1="9C", spit0="3C", spit1="3D")
    controls.chosen[0] = 1
    controls.result[1] = 5  # player 1's last move was refused: flash
    controls.attempts += 1
    return g


def stalemate_scene(controls):
    g = position("8D/2C/2D/2H/2S", STUCK1, pile0="7C", pile1="KD", spit0="3C", spit1="3D")
    g.play(0, 0)
    g.play(0, SPIT)
    return g


def slap_scene(controls):
    return position("8D/-/-/-/-", STUCK1, pile0="7C", pile1="KD,AC", spit0="3C", spit1="3D", phase="slap")


def choose_scene(controls):
    return position("8D/-/-/-/-", STUCK1, pile0="7C", pile1="KD,AC", spit0="3C", spit1="3D", phase="choose:0",
                    rules="N")


def result_scene(controls):
    g = position("8D/-/-/-/-", STUCK1, pile0="7C", pile1="KD,AC", spit0="3C", spit1="3D", phase="slap",
                 rules="S", scores="20:31")
    g.play(1, 37)  # player 1 slaps pile 1: a new round is dealt
    return g


SCENES = {
    "ready": (lambda c: Game(5), READY, "SPIT"),
    "play": (play_scene, PLAY, "R"),
    "stalemate": (stalemate_scene, STALEMATE, "SPIT"),
    "slap": (slap_scene, SLAP, "SLAP"),
    "choose": (choose_scene, CHOOSE, "P0"),
    "result": (result_scene, READY, "SPIT"),
}


@pytest.fixture(params=sorted(profiles.PROFILES))
def rig(request):
    displayio.release_displays()
    profile = profiles.get(request.param)
    display = _pygame_display_class()(width=profile["width"], height=profile["height"], auto_refresh=False)
    screen = Screen(display, profile["width"], profile["height"], profile["colour"], profile["cursor"])
    return profile, display, screen


def snapshot(display, name, tmp_path):
    folder = os.environ.get("SPIT_SNAPSHOTS") or str(tmp_path)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, name + ".png")
    display.refresh()
    pygame.image.save(display._pygame_screen, path)
    return pygame.image.load(path)


def colours(image, label):
    """The colours drawn inside a label's box."""
    x, y = label.anchored_position
    box = label.bounding_box
    w, h = box[2] * label.scale, box[3] * label.scale
    found = set()
    for yy in range(int(y), min(int(y + h), image.get_height())):
        for xx in range(int(x), min(int(x + w), image.get_width())):
            found.add(tuple(image.get_at((xx, yy)))[:3])
    return found


def check_cards(profile, screen, image, g):
    for p in range(2):
        for s in range(g.stocks):
            label = screen.cards[p][s]
            card = g.top(p * 5 + s)
            assert label.text == card_text(card)
            if g.counts[p * 5 + s]:
                drawn = colours(image, label)
                assert len(drawn) > 1, "nothing drawn for player %d stock %d" % (p, s)
                red = card // 13 in (1, 2)
                assert any(reddish(c) for c in drawn) == (red and profile["colour"])


@pytest.mark.parametrize("scene", sorted(SCENES))
def test_scene_snapshot(rig, scene, tmp_path):
    profile, display, screen = rig
    make, phase, word = SCENES[scene]
    controls = Controls(profile["keymap"], profile["cursor"])
    g = make(controls)
    assert g.phase == phase
    screen.show_game(g, controls, 0)
    image = snapshot(display, "%s-%s" % (profile["name"], scene), tmp_path)
    assert image.get_size() == (profile["width"], profile["height"])
    assert word in screen.status.text
    check_cards(profile, screen, image, g)
    for k in range(2):
        assert screen.pile_sizes[k].text.strip() == (str(g.counts[12 + k]) if g.counts[12 + k] else "")
    if not profile["colour"]:
        every = {tuple(image.get_at((x, y)))[:3] for x in range(image.get_width()) for y in range(image.get_height())}
        assert every == {(0, 0, 0), (255, 255, 255)}
    if scene == "play":
        marks = screen.hidden if screen.compact else screen.marks
        assert marks[0][1].text == "^"  # player 0's chosen stock is marked
        assert screen.flash[1].text.strip()  # player 1's refused move flashes
        assert not screen.flash[0].text.strip()
    if scene == "result":
        assert g.round == 2
        if screen.info is not None:
            assert "20:" in screen.info.text or "took" in screen.info.text


def test_menu_and_game_over_scenes(rig, tmp_path):
    profile, display, screen = rig
    keys = DesktopKeys(len(profile["keymap"]), lambda: 0)
    app = App(screen, keys, Event(), profile, lambda: 0, seed=1)
    image = snapshot(display, "%s-menu" % profile["name"], tmp_path)
    texts = [lab.text for lab in screen.lines]
    assert any(">Game: Spit" in t for t in texts) and any("Win: first out" in t for t in texts)
    assert any("Players: two" in t for t in texts)
    assert any("start" in t for t in texts) or screen.rows < 10  # a 5-line OLED has no room for help
    assert len(colours(image, screen.lines[0])) > 1
    app.game = _over_game()
    screen.show_lines(app.over_lines())
    image = snapshot(display, "%s-over" % profile["name"], tmp_path)
    texts = [lab.text for lab in screen.lines]
    assert any("wins" in t for t in texts)
    assert any("points" in t for t in texts)
    assert screen.board.hidden and not screen.scene.hidden


def _over_game():
    g = position("8D/-/-/-/-", STUCK1, pile0="7C", pile1="KD", spit0="3C", spit1="3D", rules="S", scores="40:95")
    g.play(0, 0)
    assert g.phase == GAME_OVER
    return g


@pytest.mark.parametrize("phase", ["ready", "play"])
def test_speed_scenes(rig, phase, tmp_path):
    from engine import speed

    profile, display, screen = rig
    screen.speed = True
    controls = Controls(profile["keymap"], profile["cursor"])
    g = speed.Game(9)
    if phase == "play":
        g.play(0, speed.TURN)
        g.play(1, speed.TURN)
    screen.show_game(g, controls, 0)
    image = snapshot(display, "%s-speed-%s" % (profile["name"], phase), tmp_path)
    for p in range(2):
        for h in range(5):
            assert screen.cards[p][h].text == card_text(g.hand(p, h))  # hands are shown face up (D-11)
        assert str(g.counts[speed.STOCK + p]) in screen.spit[p].text
        assert str(g.counts[speed.SIDE + p]) in screen.side[p].text
    if phase == "ready":
        assert screen.piles[0].text == "###"  # the middle cards lie face down
        assert "TURN" in screen.status.text
    else:
        assert screen.piles[0].text == card_text(g.top(speed.PILE))
        assert len(colours(image, screen.piles[0])) > 1
