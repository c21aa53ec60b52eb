# The radio between two desktop windows (make linked RADIO=1): the firmware's
# espnow module (ESPNow, Peer, read()'s packets) over loopback UDP, a packet
# a datagram, so hardware/radio.py runs on it as on a Cardputer. Each window
# binds the first free of a few ports from PORT (SPIT_RADIO_PORT sets
# another); its "MAC" names its port.
# A broadcast goes to every other of those ports, a unicast to the port its
# MAC names. Like the air, it loses what finds nobody listening.

import socket

PORT = 7710  # the first of the windows' ports
STATIONS = 4  # ports PORT .. PORT + STATIONS - 1: the windows that can be on the air
BROADCAST = b"\xff\xff\xff\xff\xff\xff"
_HOST = "127.0.0.1"


def _mac(port):
    return b"\x02\x00\x00\x00" + bytes((port >> 8, port & 255))


class Packet:
    def __init__(self, mac, msg):
        self.mac = mac
        self.msg = msg
        self.rssi = -40
        self.time = 0


class Peer:
    def __init__(self, mac, *, lmk=None, channel=0, interface=0, encrypted=False):
        self.mac = bytes(mac)


class Peers:
    def __init__(self):
        self._list = []

    def append(self, peer):
        self._list.append(peer)

    def remove(self, peer):
        self._list.remove(peer)


class ESPNow:
    def __init__(self, buffer_size=526, phy_rate=0, port=PORT):
        self.peers = Peers()
        self._first = port
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        for p in range(port, port + STATIONS):
            try:
                self._sock.bind((_HOST, p))
                break
            except OSError:
                continue
        else:
            self._sock.close()
            raise OSError("no free port from %d to %d for the radio" % (port, port + STATIONS - 1))
        self._sock.setblocking(False)
        self.port = self._sock.getsockname()[1]
        self.mac = _mac(self.port)

    def send(self, message, peer=None):
        to = peer.mac if peer is not None else BROADCAST
        ports = range(self._first, self._first + STATIONS) if to == BROADCAST else (to[4] << 8 | to[5],)
        for p in ports:
            if p == self.port:
                continue
            try:
                self._sock.sendto(self.mac + bytes(message), (_HOST, p))
            except OSError:
                pass  # (nobody there: lost, as on the air)

    def read(self):
        try:
            data = self._sock.recv(512)
        except (BlockingIOError, OSError):
            return None
        if len(data) < 6:
            return None
        return Packet(data[:6], data[6:])

    def deinit(self):
        self._sock.close()


class Module:
    # The espnow module as hardware/radio.py imports it, on ports from port.
    def __init__(self, port=None):
        self._port = port or PORT
        self.Peer = Peer

    def ESPNow(self, buffer_size=526, phy_rate=0):
        return ESPNow(buffer_size, phy_rate, self._port)
