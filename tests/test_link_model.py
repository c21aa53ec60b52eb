"""The link model (desktop/link_model.py): a UART cable between
two devices in simulated time, seeded, with delay and jitter, byte loss and
corruption (uniform and in bursts), two clocks' offset and drift, and a
pulled cable. The same seed gives the same run on CPython and the VM."""

import pytest
from test_vm import run_cpython, run_vm

from desktop.link_model import RX_BYTES, Clock, Link


def sent_and_arrived(link, count, side=0, gap_us=1000):
    # Send count single bytes from side, gap_us apart; (byte, sent at,
    # arrived at) of those that arrived, reading each microsecond's arrivals
    # (all sent first: the receive buffer holds them all, as one read at once would).
    link.rx_bytes = count
    sent = {}
    for i in range(count):
        sent[i] = link.send(side, bytes((i & 255,)), i * gap_us)
    out = []
    buf = bytearray(1)
    end = count * gap_us + 100000
    t = 0
    while t <= end:
        nxt = link.next_arrival(1 - side)
        if nxt is None:
            break
        t = max(t, nxt)
        while link.receive(1 - side, t, buf):
            out.append((buf[0], t))
    return sent, out


def test_bytes_arrive_in_order_after_their_wire_time_and_the_delay():
    link = Link(3, baud=115200, delay_us=5000, jitter_us=3000)
    assert link.byte_us() == 86  # 10 bits at 115,200 baud
    sent, out = sent_and_arrived(link, 2000)
    assert [b for b, _ in out] == [i & 255 for i in range(2000)]  # nothing lost, nothing reordered
    times = [t for _, t in out]
    assert times == sorted(times)
    delays = [t - sent[i] for i, (_, t) in enumerate(out)]
    assert min(delays) >= 2000  # 5 - 3 ms at the soonest
    # Bytes 1 ms apart wait behind a later-drawn one before them; 10 ms apart,
    # each has its own delay: 5 +- 3 ms, 5 ms on average.
    sent, out = sent_and_arrived(Link(3, baud=115200, delay_us=5000, jitter_us=3000), 2000, gap_us=10000)
    delays = [t - sent[i] for i, (_, t) in enumerate(out)]
    assert min(delays) >= 2000 and max(delays) <= 8000
    assert 4900 < sum(delays) / len(delays) < 5100


def test_a_burst_of_bytes_queues_on_the_wire():
    link = Link(1, baud=9600, delay_us=0, jitter_us=0)
    done = link.send(0, bytes(10), 0)
    assert done == 10 * link.byte_us()  # the UART sends them one after another
    buf = bytearray(16)
    assert link.receive(1, done - 1, buf) == 9 and link.receive(1, done, buf) == 1


def test_the_same_seed_the_same_run_another_seed_another():
    def run(seed):
        return sent_and_arrived(Link(seed, loss=50000, corrupt=10000), 500)[1]

    assert run(7) == run(7)
    assert run(7) != run(8)


def test_uniform_loss_and_corruption_at_their_rates():
    link = Link(5, delay_us=0, jitter_us=0, loss=50000, corrupt=10000)  # 5 % lost, 1 % corrupted
    link.rx_bytes = 10**6  # (the wire's faults, not the buffer's: all read at once)
    data = bytes(102400)  # all zero: a corrupted byte is one with a bit set
    link.send(0, data, 0)
    buf = bytearray(len(data))
    n = link.receive(1, 10**12, buf)
    assert n == len(data) - link.lost[0]
    assert abs(link.lost[0] - 5120) < 5 * 70  # 5 % of 102,400, within five standard deviations
    assert abs(link.corrupted[0] - 973) < 5 * 31  # 1 % of those that arrive
    flipped = [b for b in buf[:n] if b]
    assert len(flipped) == link.corrupted[0] and all(bin(b).count("1") == 1 for b in flipped)


def test_bursts_lose_runs_of_bytes():
    link = Link(9, delay_us=0, jitter_us=0, burst_every=1000, burst_bytes=20)
    link.rx_bytes = 10**6  # (the wire's faults, not the buffer's: all read at once)
    data = bytes(200000)
    link.send(0, data, 0)
    buf = bytearray(len(data))
    link.receive(1, 10**12, buf)
    # The bad state: about 20 / (1000 + 20) of the bytes, in runs of about 20.
    share = link.lost[0] / len(data)
    assert 0.012 < share < 0.028
    # Runs: read the arrival gaps back from the sent positions (all bytes are 0,
    # so count the runs through the channel state instead).
    link = Link(9, delay_us=0, jitter_us=0, burst_every=1000, burst_bytes=20)
    runs = []
    run = 0
    for _ in range(200000):
        before = link.lost[0]
        link.send(0, b"\0", 0)
        if link.lost[0] != before:
            run += 1
        elif run:
            runs.append(run)
            run = 0
    assert runs and 14 < sum(runs) / len(runs) < 28


def test_a_pulled_cable_loses_everything_sent_while_it_is_out():
    link = Link(2, delay_us=1000, jitter_us=0)
    link.pull(50000, 150000)
    sent, out = sent_and_arrived(link, 200, gap_us=1000)
    got = {b for b, _ in out}
    assert all(i in got for i in range(49)) and all(i in got for i in range(150, 200))
    assert not any(i in got for i in range(50, 149))
    assert link.lost[0] == 100 - 1 or link.lost[0] == 100  # (the byte at the edge: its last bit decides)


def test_a_wire_pulled_one_way_loses_only_what_that_side_sends():
    link = Link(2, delay_us=1000, jitter_us=0)
    link.pull(0, 10**6, side=1)
    link.send(0, b"abc", 0)
    link.send(1, b"xyz", 0)
    buf = bytearray(8)
    assert link.receive(1, 10**5, buf) == 3 and buf[:3] == b"abc"
    assert link.receive(0, 10**5, buf) == 0 and link.lost == [0, 3]


def test_a_full_receive_buffer_loses_what_arrives_after_as_the_firmware_does():
    # A side that reads nothing for a while (a Pico drawing a new table)
    # holds RX_BYTES; the newest bytes are lost, and counted as an overrun.
    link = Link(3, delay_us=1000, jitter_us=0)
    link.send(0, bytes(range(256)) * 3, 0)  # 768 bytes, 67 ms on the wire
    buf = bytearray(1000)
    n = link.receive(1, 10**6, buf)
    assert n == RX_BYTES and buf[:n] == (bytes(range(256)) * 3)[:n]
    assert link.overrun == [768 - RX_BYTES, 0] and link.lost[0] == 768 - RX_BYTES
    link.send(0, b"more", 10**6)
    assert link.receive(1, 2 * 10**6, buf) == 4  # (read: room again)


def test_each_device_has_its_own_clock_that_drifts_and_wraps():
    fast = Clock(0x1FFF0000, 50)  # a board's start, 65,536 ms before the wrap, 50 ppm fast
    slow = Clock(1000, -50)
    assert fast.ticks_ms(0) == 0x1FFF0000
    assert fast.ticks_ms(70000 * 1000) == (0x1FFF0000 + 70003) & ((1 << 29) - 1)  # past the wrap, 3.5 ms ahead
    half_hour = 1800 * 1000 * 1000
    assert slow.ticks_ms(half_hour) == 1000 + 1800000 - 90  # 50 ppm of 30 minutes: 90 ms


def test_bad_settings_are_clear_errors():
    with pytest.raises(ValueError, match="baud"):
        Link(1, baud=0)
    with pytest.raises(ValueError, match="parts per million"):
        Link(1, loss=2000000)
    with pytest.raises(ValueError, match="bursts"):
        Link(1, burst_every=100)
    with pytest.raises(ValueError, match="ends after"):
        Link(1).pull(10, 5)
    with pytest.raises(ValueError, match="side"):
        Link(1).pull(5, 10, side=2)


def test_the_model_runs_alike_on_the_vm_and_cpython():
    vm = run_vm("link.py", 4, pkgs=("engine", "hardware", "desktop"))
    assert vm == run_cpython("link.py", 4)
    assert "lost" in vm and " got 0 " not in vm
