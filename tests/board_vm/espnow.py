"""Stand-in for CircuitPython's espnow (the ESP32-S2 and S3 ports'): the
modelled air of desktop/radio_model.py with this board's radio alone on it
(a lone handheld: its hellos reach nobody), on the board's clock. Of the
stand-in boards, only the Cardputer has the module. sent() says how many
packets the program sent."""

import board
import supervisor

from desktop.radio_model import Air, Peer  # noqa: F401  (espnow.Peer)

if getattr(board, "KB_A_0", None) is None:
    raise ImportError("no module named 'espnow'")


class _Clock:
    # The air's true time (us) as the board's ticks_ms.
    def __getitem__(self, i):
        return supervisor.ticks_ms() * 1000


_air = Air(1)
_station = _air.station(b"\x24\x0a\xc4\x12\x34\x56", _Clock())
_packets = []


def ESPNow(buffer_size=526, phy_rate=0):
    now = _station.espnow.ESPNow(buffer_size, phy_rate)
    real = now.send

    def send(message, peer=None):
        _packets.append(bytes(message))
        real(message, peer)

    now.send = send
    return now


def sent():
    return len(_packets)
