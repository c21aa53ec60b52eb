"""What the flash and bundle tests share: a folder standing in for a
CIRCUITPY drive, and a file system under flash's writes that fills up, goes
away or is read-only (no root, no real FAT needed), in the drive's clusters."""

import errno
import os

BOARDS = {
    "raspberry_pi_pico": "Raspberry Pi Pico with rp2040",
    "pybadge": "Adafruit PyBadge with samd51j19",
    "m5stack_cardputer": "M5Stack Cardputer with ESP32S3",
}


def drive(tmp_path, boot=True, version="10.2.1", board="raspberry_pi_pico"):
    d = tmp_path / "CIRCUITPY"
    d.mkdir(parents=True)
    if boot:
        (d / "boot_out.txt").write_text(
            "Adafruit CircuitPython %s on 2024-11-20; %s\nBoard ID:%s\n" % (version, BOARDS[board], board)
        )
    return d


def quiet(s):
    pass


class Drive:
    def __init__(self, monkeypatch, folder, capacity=None, cluster=4096, cut_at=None, read_only=False):
        import flash as flash_module

        self.folder, self.capacity, self.cluster = str(folder), capacity, cluster
        self.cut_at, self.read_only, self.ops = cut_at, read_only, 0
        real_replace, real_open = os.replace, open

        def inside(path):
            return os.path.abspath(str(path)).startswith(self.folder)

        def step(path):
            if not inside(path):
                return
            if self.read_only:
                raise OSError(errno.EROFS, "Read-only file system", str(path))
            self.ops += 1
            if self.ops == self.cut_at:
                raise OSError(errno.EIO, "Input/output error", str(path))

        def copy(src, dst):
            step(dst)
            with real_open(src, "rb") as f:
                data = f.read()
            room = self.room()
            with real_open(dst, "wb") as f:
                f.write(data[: max(0, room)] if room < len(data) else data)
            if room < len(data):
                raise OSError(errno.ENOSPC, "No space left on device", dst)

        def replace(src, dst):
            step(dst)
            real_replace(src, dst)

        def opener(path, mode="r", *args, **kwargs):
            if any(c in mode for c in "wa+") and inside(path):
                step(path)
            return real_open(path, mode, *args, **kwargs)

        def statvfs(path):
            free = max(0, self.room()) // cluster if self.capacity is not None else 1 << 30
            return os.statvfs_result((cluster, cluster, 1 << 20, free, free, 0, 0, 0, 0, 255))

        monkeypatch.setattr(flash_module.shutil, "copyfile", copy)
        monkeypatch.setattr(flash_module.os, "replace", replace)
        monkeypatch.setattr(flash_module, "open", opener, raising=False)
        monkeypatch.setattr(flash_module.os, "statvfs", statvfs)
        monkeypatch.setattr(flash_module.os, "access", lambda path, how: not self.read_only)

    def used(self):
        n = 0
        for top, _, names in os.walk(self.folder):
            n += sum(-(-os.path.getsize(os.path.join(top, f)) // self.cluster) * self.cluster for f in names)
        return n

    def room(self):
        return (self.capacity - self.used()) if self.capacity is not None else 1 << 40


def files(d):
    return {p.relative_to(d).as_posix(): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}
