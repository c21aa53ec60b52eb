# ESP-NOW between handhelds in simulated time, for linked play by radio in the
# tests and the bench (the board never loads it): the packet radio beside the
# byte cable of desktop/link_model.py.
#
# The air carries packets (at most 250 bytes) from one station (a handheld's
# radio, a MAC address) to another (unicast) or to every other station on
# the channel (broadcast). Each packet to each receiver is lost uniformly
# (parts per million of packets), or in bursts: spells of time in which the
# whole channel loses every packet (a person walking between, a microwave
# oven), starting on average burst_every_us apart and lasting burst_us on
# average (each a uniform draw up to twice its mean: a two-state channel
# in time, not in packets, so a quiet link meets a burst as a busy one
# does), or while the radio is silent (a span of time, one way or both);
# one that arrives takes 1 to 4 ms (a uniform draw), never before the packet
# sent ahead of it on the same way. Unicast packets are lost as often
# as broadcast ones here (the radio's own acknowledgement and resends of a
# unicast packet are not modelled: the figures are the pessimistic ones).
# A station keeps what arrives in CircuitPython's receive ring
# (ports/espressif/common-hal/espnow/ESPNow.c): 13 bytes of header a packet,
# then the packet, in a ring of buffer_size bytes; a packet that finds no
# room is dropped and counted (read_failure). A station whose ESPNow is
# not open hears nothing.
#
# Station(air, mac, clock).espnow stands for the firmware's espnow module
# (ESPNow, Peer, the packets read()), so hardware/radio.py runs on it as it
# runs on the board. Seeded with engine.cards.Rng, integer arithmetic only:
# the same seed gives the same run on CPython and on the MicroPython VM.

from engine.cards import Rng

_PPM = 1000000
HEADER = 13  # a packet's header in the receive ring (magic, length, time, rssi; the sender's MAC)
MAX_PACKET = 250
BROADCAST = b"\xff\xff\xff\xff\xff\xff"


class Air:
    def __init__(self, seed, loss=0, burst_every_us=0, burst_us=0, latency_us=(1000, 4000)):
        if not 0 <= loss <= _PPM:
            raise ValueError("loss is parts per million of packets, 0 to 1000000")
        if burst_every_us < 0 or burst_us < 0 or (burst_every_us > 0) != (burst_us > 0):
            raise ValueError("bursts need both how often (burst_every_us) and how long (burst_us)")
        lo, hi = latency_us
        if not 0 <= lo <= hi:
            raise ValueError("a latency span from its least to its most")
        self.rng = Rng(seed)
        self.loss = loss
        self.burst_every_us = burst_every_us
        self.burst_us = burst_us
        self.latency_us = latency_us
        self.stations = []
        self._silent = []  # (start, end, the sending station's MAC or None: every one)
        self._bad = False  # the channel in a burst
        self._change_us = self._spell(burst_every_us)  # when it changes (bursts)
        self._last = {}  # (from, to): when the last packet that way arrives
        self._seq = 0  # packets sent so far (the order of two arriving at once)
        self.sent = 0  # packets sent (one a receiver: a broadcast to two is two)
        self.lost = 0  # of them, lost on the way
        self.dropped = 0  # of them, arrived to a full receive ring

    def station(self, mac, t_us):
        # A handheld's radio on the channel (t_us: the shared true time, a list
        # of one). The same MAC again is the same radio, its handheld restarted:
        # nothing open, nothing held.
        for s in self.stations:
            if s.mac == mac:
                if s.now is not None:
                    s.now.deinit()
                s.held = []
                s.used = 0
                return s
        s = Station(self, mac, t_us)
        self.stations.append(s)
        return s

    def silence(self, start_us, end_us, mac=None):
        # Nothing sent from start_us to end_us arrives (mac: only what that station sends).
        if end_us < start_us:
            raise ValueError("a silent span ends after it starts")
        self._silent.append((start_us, end_us, mac))

    def heard(self, t_us, mac):
        for start, end, one in self._silent:
            if start <= t_us < end and (one is None or one == mac):
                return False
        return True

    def _spell(self, mean_us):
        # How long a good or bad spell lasts: a uniform draw up to twice its mean.
        return self.rng.below(2 * mean_us + 1) if mean_us else 0

    def in_burst(self, t_us):
        # Whether the channel is in a burst at t_us (times asked in order).
        while self.burst_us and self._change_us <= t_us:
            self._bad = not self._bad
            self._change_us += self._spell(self.burst_us if self._bad else self.burst_every_us) or 1
        return self._bad

    def _draw(self, per_million):
        if per_million <= 0:
            return False
        if per_million >= _PPM:
            return True
        return (self.rng.below(1000) * 1000 + self.rng.below(1000)) < per_million

    def send(self, sender, to, msg, t_us):
        # sender's packet msg (bytes) to the station of MAC to (BROADCAST: every other one).
        for s in self.stations:
            if s is sender or to != BROADCAST and s.mac != to:
                continue
            self.sent += 1
            way = (sender.mac, s.mac)
            if self.in_burst(t_us) or not self.heard(t_us, sender.mac) or self._draw(self.loss):
                self.lost += 1
                continue
            lo, hi = self.latency_us
            arrive = max(t_us + lo + self.rng.below(hi - lo + 1), self._last.get(way, 0))
            self._last[way] = arrive
            self._seq += 1
            coming = s.coming
            coming.append((arrive, self._seq, sender.mac, msg))
            if len(coming) > 1 and coming[-2][0] > arrive:
                coming.sort()  # (ways interleave: a station hears them as they come; the number keeps ties in order)


class Packet:
    # espnow.ESPNowPacket: what read() gives.
    def __init__(self, mac, msg, rssi, time):
        self.mac = mac
        self.msg = msg
        self.rssi = rssi
        self.time = time


class Peer:
    def __init__(self, mac, *, lmk=None, channel=0, interface=0, encrypted=False):
        if len(mac) != 6:
            raise ValueError("a MAC address is 6 bytes")
        self.mac = bytes(mac)


class Peers:
    def __init__(self):
        self._list = []

    def append(self, peer):
        if any(p.mac == peer.mac for p in self._list):
            raise OSError("ESP_ERR_ESPNOW_EXIST")  # (the firmware's esp_now_add_peer refuses it)
        self._list.append(peer)

    def remove(self, peer):
        if peer not in self._list:
            raise OSError("ESP_ERR_ESPNOW_NOT_FOUND")
        self._list.remove(peer)

    def __contains__(self, peer):
        return peer in self._list

    def __len__(self):
        return len(self._list)


class ESPNow:
    def __init__(self, station, buffer_size):
        self._station = station
        self.buffer_size = buffer_size
        self.peers = Peers()
        self.send_success = 0
        self.send_failure = 0
        self.read_success = 0
        self.read_failure = 0
        station.open(self)

    def send(self, message, peer=None):
        s = self._station
        if s.now is not self:
            raise RuntimeError("ESPNow deinited")
        if len(message) > MAX_PACKET:
            raise ValueError("message longer than 250 bytes")
        targets = [peer] if peer is not None else list(self.peers._list)
        for p in targets:
            if p not in self.peers:
                raise OSError("ESP_ERR_ESPNOW_NOT_FOUND")  # (a peer never appended)
            s.air.send(s, p.mac, bytes(message), s.t_us[0])

    def read(self):
        s = self._station
        if s.now is not self:
            raise RuntimeError("ESPNow deinited")
        s.land()
        if not s.held:
            return None
        mac, msg = s.held.pop(0)
        s.used -= HEADER + len(msg)
        return Packet(mac, msg, -50, s.t_us[0] // 1000)

    def deinit(self):
        if self._station.now is self:
            self._station.now = None


class _Module:
    # The espnow module as a station's program sees it.
    def __init__(self, station):
        self._station = station
        self.Peer = Peer

    def ESPNow(self, buffer_size=526, phy_rate=0):
        return ESPNow(self._station, buffer_size)


class Station:
    def __init__(self, air, mac, t_us):
        self.air = air
        self.mac = bytes(mac)
        self.t_us = t_us
        self.now = None  # the open ESPNow, or None: the radio hears nothing
        self.coming = []  # (arrival t_us, its number, sender's MAC, packet) on their way, the soonest first
        self.held = []  # (sender's MAC, packet) in the receive ring, not read yet
        self.used = 0  # bytes of the ring they take
        self.espnow = _Module(self)

    def open(self, now):
        # An ESPNow made (the session opened the radio): its ring starts
        # empty; what arrived before, unheard, is gone.
        self.land()
        self.now = now
        self.held = []
        self.used = 0

    def land(self):
        # The packets arrived by now, into the ring (those that find no room,
        # or no ESPNow open, are gone).
        t = self.t_us[0]
        coming = self.coming
        k = 0
        while k < len(coming) and coming[k][0] <= t:
            _, _, mac, msg = coming[k]
            k += 1
            if self.now is None:
                continue
            if self.used + HEADER + len(msg) > self.now.buffer_size:
                self.now.read_failure += 1
                self.air.dropped += 1
                continue
            self.held.append((mac, msg))
            self.used += HEADER + len(msg)
            self.now.read_success += 1
        del coming[:k]

    def next_arrival(self):
        # When the next packet on its way reaches this station, or None.
        return self.coming[0][0] if self.coming else None
