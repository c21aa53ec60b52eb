# The cable between two desktop windows: busio.UART's surface
# (write; readinto and read that never wait, None when nothing came;
# in_waiting; deinit) over a loopback TCP socket. Both windows are started
# alike (make linked: SPIT_LINK=port); the first to open the link listens on
# the port, the second connects to it. When the other window closes, the
# bytes stop as if the cable were pulled, and the link is looked for again
# (a restarted window finds it): the game notices the silence, as on a board.

import socket
import time

RETRY_S = 0.5  # between attempts to find the other window


class SocketUart:
    def __init__(self, port, host="127.0.0.1"):
        self.port = port
        self.host = host
        self._conn = None
        self._server = None
        self._tried = 0.0
        self._find()

    def _find(self):
        # Connect to the other window, or listen for it.
        self._tried = time.monotonic()
        try:
            conn = socket.create_connection((self.host, self.port), timeout=0.2)
        except OSError:
            conn = None
        if conn is not None:
            conn.setblocking(False)
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self._conn = conn
            return
        if self._server is None:
            server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                server.bind((self.host, self.port))
            except OSError:
                server.close()  # (the other window listens, and will answer the next try)
                return
            server.listen(1)
            server.setblocking(False)
            self._server = server

    def _ready(self):
        if self._conn is not None:
            return True
        if self._server is not None:
            try:
                conn, _ = self._server.accept()
            except BlockingIOError:
                return False
            conn.setblocking(False)
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self._conn = conn
            return True
        if time.monotonic() - self._tried >= RETRY_S:
            self._find()
        return self._conn is not None

    def _drop(self):
        # The other window went: as a pulled cable; look for it again.
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def write(self, buf):
        if not self._ready():
            return len(buf)  # (no cable: the bytes go nowhere, as on a board)
        try:
            self._conn.sendall(bytes(buf))
        except OSError:
            self._drop()
        return len(buf)

    def readinto(self, buf):
        if not self._ready():
            return None
        try:
            n = self._conn.recv_into(buf)
        except BlockingIOError:
            return None
        except OSError:
            self._drop()
            return None
        if n == 0:  # the other window closed
            self._drop()
            return None
        return n

    def read(self, nbytes=64):
        buf = bytearray(nbytes)
        n = self.readinto(buf)
        return bytes(buf[:n]) if n else None

    @property
    def in_waiting(self):
        # (a socket does not say without reading; the game reads with readinto)
        return 0

    def deinit(self):
        self._drop()
        if self._server is not None:
            self._server.close()
            self._server = None
