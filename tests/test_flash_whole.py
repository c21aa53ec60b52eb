"""make flash whole or not at all: a drive that fills up, goes away or is
read-only, and a flash that writes only what changed."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

from drives import Drive, drive, files, quiet  # noqa: E402
from flash import FlashError, flash  # noqa: E402


def test_a_nearly_full_drive_is_refused_whole_counted_in_its_clusters(tmp_path, monkeypatch):
    # As on the fourth play-test's drive: a maker's code.py and a 60,000-byte
    # picture, and the game's file sizes add up to less than is free, but not
    # its files in the drive's clusters. One line, and the drive as it was.
    cluster = 1024
    sizes = drive(tmp_path / "sizes")
    with monkeypatch.context() as m:
        measure = Drive(m, sizes, cluster=cluster)
        flash(str(sizes), "pico-st7789-240", offline=True, say=quiet)
        in_clusters = measure.used()
    in_bytes = sum(len(data) for data in files(sizes).values())
    d = drive(tmp_path)
    (d / "code.py").write_text("print('mine')\n")
    (d / "picture.bmp").write_bytes(bytes(60000))
    stand_in = Drive(monkeypatch, d, cluster=cluster)
    stand_in.capacity = stand_in.used() + (in_bytes + in_clusters) // 2
    before = files(d)
    with pytest.raises(FlashError) as refused:
        flash(str(d), "pico-st7789-240", offline=True, say=quiet)
    said = str(refused.value)
    assert said.startswith("not enough space on the drive") and "Nothing was written" in said
    assert "1024-byte clusters" in said and "\n" not in said
    assert files(d) == before
    os.remove(d / "picture.bmp")  # room made: the same flash goes through
    flash(str(d), "pico-st7789-240", offline=True, say=quiet)
    assert (d / "code.py.bak").read_text() == "print('mine')\n" and stand_in.used() <= stand_in.capacity


def test_a_drive_that_fills_up_half_way_is_finished_by_the_next_flash(tmp_path, monkeypatch):
    # statvfs said it fits, then the drive ran out (another program wrote to
    # it): one line naming the file, the maker's code.py still the one that
    # runs, and the next plain flash, with room made, finishes without --force.
    d = drive(tmp_path)
    (d / "code.py").write_text("print('mine')\n")
    stand_in = Drive(monkeypatch, d, capacity=None)
    import flash as flash_module

    copy = flash_module.shutil.copyfile  # (the stand-in's)

    def fill(src, dst):
        if "hardware/" in dst and stand_in.capacity is None:
            stand_in.capacity = stand_in.used() + 2048  # another program fills the drive
        return copy(src, dst)

    monkeypatch.setattr(flash_module.shutil, "copyfile", fill)
    with pytest.raises(FlashError) as cut:
        flash(str(d), "pico-st7789-240", offline=True, say=quiet)
    said = str(cut.value)
    assert said.startswith("could not write hardware/") and "the drive is full" in said, said
    assert "the next flash finishes this one" in said and "\n" not in said
    assert (d / "code.py").read_text() == "print('mine')\n"
    stand_in.capacity = None
    monkeypatch.setattr(flash_module.shutil, "copyfile", copy)
    lines = []
    flash(str(d), "pico-st7789-240", offline=True, say=lines.append)
    assert not any("--force" in t or "these files" in t for t in lines), lines
    assert not list(d.rglob("*.spit-part"))
    assert (d / "code.py.bak").read_text() == "print('mine')\n"


def test_a_flash_cut_at_any_file_is_finished_by_the_next_plain_flash(tmp_path, monkeypatch):
    # The board unplugged at every write of a flash in turn (a file half
    # written, a file whole but not yet renamed, the manifest, settings.toml,
    # code.py): until the last step the maker's code.py is the one that runs,
    # and the next flash, without --force, leaves the drive an uncut flash leaves.
    whole = drive(tmp_path / "whole")
    (whole / "code.py").write_text("print('mine')\n")
    with monkeypatch.context() as m:
        stand_in = Drive(m, whole)  # (counting the steps)
        flash(str(whole), "pico-ssd1306", offline=True, say=quiet, source=True)
        steps = stand_in.ops
    want = files(whole)
    assert steps > 2 * len([p for p in want if p.endswith(".py")])  # each file: noted, written, renamed
    for cut in range(1, steps + 1):
        d = drive(tmp_path / ("cut%d" % cut))
        (d / "code.py").write_text("print('mine')\n")
        with monkeypatch.context() as m:
            Drive(m, d, cut_at=cut)
            with pytest.raises(FlashError) as stopped:
                flash(str(d), "pico-ssd1306", offline=True, say=quiet, source=True)
        said = str(stopped.value)
        assert "\n" not in said and "plug the board in again" in said, said
        code = d / "code.py"
        runs = code.read_bytes() if code.exists() else (d / "code.py.bak").read_bytes()
        if runs != b"print('mine')\n":  # the game's code.py lands last: by then the game is whole
            assert runs == want["code.py"], cut
            game = {rel: data for rel, data in want.items() if rel != ".spit-files"}
            assert {rel: data for rel, data in files(d).items() if rel in game} == game, cut
        lines = []
        flash(str(d), "pico-ssd1306", offline=True, say=lines.append, source=True)
        assert files(d) == want, cut  # (and so one code.py.bak, the maker's)
        assert not any("--force" in t for t in lines), (cut, lines)


def test_a_read_only_drive_is_one_line_and_nothing_changes(tmp_path, monkeypatch):
    d = drive(tmp_path)
    (d / "code.py").write_text("print('mine')\n")
    before = files(d)
    with monkeypatch.context() as m:
        Drive(m, d, read_only=True)
        with pytest.raises(FlashError) as refused:
            flash(str(d), "pico-st7789-240", offline=True, say=quiet)
    said = str(refused.value)
    assert "read-only" in said and "unplug the board" in said and "Nothing was changed" in said
    assert files(d) == before
    # A drive that says it is writable, then refuses the first write.
    with monkeypatch.context() as m:
        stand_in = Drive(m, d)
        m.setattr(stand_in, "read_only", True)
        m.setattr(__import__("flash").os, "access", lambda path, how: True)
        with pytest.raises(
            FlashError, match="could not write .spit-files: the drive is read-only.*Nothing was changed"
        ):
            flash(str(d), "pico-st7789-240", offline=True, say=quiet)
    assert files(d) == before
    out = subprocess.run(
        [sys.executable, os.path.join(ROOT, "tools", "flash.py"), "/proc/self", "--offline", "--force"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2 and "Traceback" not in out.stderr and out.stderr.count("\n") == 1, out.stderr


def test_a_second_flash_writes_nothing_and_says_so(tmp_path):
    d = drive(tmp_path)
    flash(str(d), "pico-st7789-240", offline=True, say=quiet)
    times = {p: p.stat().st_mtime_ns for p in d.rglob("*") if p.is_file()}
    lines = []
    flash(str(d), offline=True, say=lines.append)
    assert any(t.startswith("nothing to write: the drive already holds this game") for t in lines), lines
    assert {p: p.stat().st_mtime_ns for p in d.rglob("*") if p.is_file()} == times
    (d / "hardware" / "app.mpy").unlink()
    lines = []
    flash(str(d), offline=True, say=lines.append)
    assert any(t.startswith("wrote 1 files") for t in lines), lines
