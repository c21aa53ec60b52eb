# Linked play by radio (SPIT_LINK = "espnow"): ESP-NOW between two ESP32
# handhelds (the Cardputer's), as the link's byte stream (hardware/link.py
# writes a whole frame at a time: each write is one packet, and each packet
# read gives its bytes). A frame a packet: a packet lost is the frame lost,
# and the link's acknowledgements and resends do the rest, as on the cable.
#
# Until the two have found each other, packets go to every handheld in
# range (ESP-NOW's broadcast address) and come from any. Once the session
# knows its partner (hardware/hello.py: its hello says it has heard ours;
# hardware/linked.py: a reliable frame of the session), the port pairs with
# the sender of the packet just read: packets go to it alone (unicast: the
# receiving radio acknowledges each packet), and a packet from any other
# handheld (another pair on the channel) is refused and counted (strangers).
# A partner that restarts is the same radio: its packets still come in.
#
# The firmware's espnow.ESPNow.read() makes a packet object (its MAC and
# message as bytes) for each packet: by radio each frame read allocates (a
# tuple and two bytes objects), where the cable's UART reads into a buffer.

BROADCAST = b"\xff\xff\xff\xff\xff\xff"
RX_BYTES = 526  # the receive ring (espnow.ESPNow's default): 13 bytes of header a packet, then the packet


class Radio:
    # What opens the radio when linked play is chosen (the App's open_link,
    # as hardware/cable.py's Cable): espnow, or a model of it (desktop/radio_model.py).
    def __init__(self, espnow=None):
        self.espnow = espnow

    def __call__(self):
        espnow = self.espnow
        if espnow is None:
            import espnow  # (the firmware's module, on an ESP32 board)
        return RadioPort(espnow)


class RadioPort:
    def __init__(self, espnow):
        self._espnow = espnow
        self.now = espnow.ESPNow(buffer_size=RX_BYTES)
        self.everyone = espnow.Peer(mac=BROADCAST)
        self.now.peers.append(self.everyone)
        self.to = self.everyone  # where packets go: everyone, or the partner
        self.partner = None  # the partner's MAC (bytes), once paired
        self.last = None  # the MAC of the packet read last
        self.strangers = 0  # packets from another handheld than the partner, refused
        self.unsent = 0  # packets the radio refused to send (its buffers full for 2 s, an error)

    def write(self, buf):
        try:
            self.now.send(buf, self.to)
        except (RuntimeError, OSError, ValueError):
            self.unsent += 1  # (a packet lost: the link sends it again)
        return len(buf)

    def readinto(self, buf):
        # The next packet's bytes (from the partner, once paired) into buf, or
        # None: nothing came. A packet longer than buf is no frame of ours.
        while True:
            packet = self.now.read()
            if packet is None:
                return None
            mac = packet.mac
            if self.partner is not None and mac != self.partner:
                self.strangers += 1
                continue
            msg = packet.msg
            n = len(msg)
            if n > len(buf):
                self.strangers += 1
                continue
            for i in range(n):
                buf[i] = msg[i]
            self.last = mac
            return n

    def pair(self, keep=True):
        # The sender of the packet read last is the partner, from now on
        # (keep False: back to everyone in range; True if it was paired).
        if not keep:
            return self.unpair()
        mac = self.last
        if mac is None or mac == self.partner:
            return
        if self.to is not self.everyone:
            self.now.peers.remove(self.to)
        self.to = self._espnow.Peer(mac=mac)
        self.now.peers.append(self.to)
        self.partner = mac

    def unpair(self):
        # Back to everyone in range (the partner found another handheld):
        # True if it was paired.
        if self.partner is None:
            return False
        self.now.peers.remove(self.to)
        self.to = self.everyone
        self.partner = None
        return True

    def deinit(self):
        self.now.deinit()
