// The real CircuitPython firmware on an emulated Raspberry Pi Pico (rp2040js).
//
//     node tools/picoemu.mjs JOB.json
//
// JOB names the RP2040 bootrom, the firmware's UF2 and a CIRCUITPY drive image
// (FAT, written at the drive's flash offset), the GPIOs of the buttons and of
// the ST7789, and a script: GPIO levels to set at emulated times counted from
// a mark (the first console line that starts with job.mark), and when to save
// the panel's picture. The run ends job.until_ms after the mark, or when a
// console line starts with job.stop. It prints one JSON object a line on stdout:
//   {"t": ms, "console": "a line"}       a line the board printed over USB
//   {"t": ms, "mark": true}              the mark was seen: the script starts
//   {"t": ms, "sram": path}             job.sram: the chip's SRAM written to job.sram.path
//                                        when a console line starts with job.sram.at
//   {"t": ms, "press": [gpio, level]}    a scripted level was set
//   {"t": ms, "write": [x0, y0, x1, y1, first_ms, pixels]}  a display update:
//        the RAM window of its RAMWR, when it began and its last pixel (t)
//   {"t": ms, "refresh": [start_ms, pixels]}  job.refresh_pin was high from
//        start_ms to t (the probe's io.refresh()), and the pixels written then
//   {"t": ms, "frame": path}             the panel's RAM saved (raw RGB565, 240x320)
//   {"t": ms, "pin": [gpio, level]}     a pin of job.record_pins changed (the piezo)
//   {"t": ms, "end": why}                the run is over (done, timeout)
// Times are ms of emulated time since reset. The emulator runs as fast as it
// can; idle time (the core waiting for an interrupt) costs no wall time.
//
// Two linked handhelds: a JOB with "devices", a list of two such
// jobs, runs two Picos in one process, in lockstep (each stepped to the same
// emulated time, SLICE_NS at a time), each UART's TX wired to the other's RX
// (job.link.uart): a byte reaches the other chip its time on the wire later
// (10 bits at the baud rate the firmware set), none sooner than the one
// before it; job.link.pulled lists [from, to] ms (after device 0's mark)
// when the cable is out and bytes are lost. Every line carries "d": the
// device. The run ends when both devices are done.
//
// What is modelled beyond rp2040js: QSPI_SS held high (CircuitPython reads a
// floating one as BOOTSEL held), button pins held high unless pressed (no
// pull-ups in rp2040js), SPI bytes that take their time on the wire (the
// firmware's SPI DMA hangs if they complete at once), a USB host that opens
// the CDC console (DTR) and then soft-reloads code.py so its output is seen,
// and an ST7789 that keeps its 240x320 RAM under MADCTL, CASET, RASET and
// RAMWR. Flash writes (nvm, the drive) are not emulated by rp2040js.

import fs from 'fs';
import { Simulator, USBCDC } from 'rp2040js';

const FLASH_START = 0x10000000;
const UF2_MAGIC = [0x0a324655, 0x9e5d5157];
const CYCLE_NS = 8; // 125 MHz
const RAM_W = 240;
const RAM_H = 320;

const top = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const SLICE_NS = 50000; // two devices: each stepped 50 us at a time (a byte at 115200 baud takes 87)

// One emulated Pico and its parts, as its job says; tag: its number in a
// pair (null alone). What the run loop needs of it is returned.
function makeDevice(job, tag) {
  const sim = new Simulator(); // its clock and chip; its own run loop is not used
  const clock = sim.clock;
  const mcu = sim.rp2040;
  mcu.logger = { debug() {}, info() {}, warn() {}, error() {} };
  const out = (obj) => process.stdout.write(JSON.stringify(tag === null ? obj : { d: tag, ...obj }) + '\n');
  const ms = () => Math.round(clock.nanos / 1e3) / 1e3;

  // -- the chip: bootrom, firmware, drive --
  const rom = fs.readFileSync(job.bootrom);
  mcu.loadBootrom(new Uint32Array(rom.buffer, rom.byteOffset, rom.length / 4));
  const uf2 = fs.readFileSync(job.firmware);
  for (let i = 0; i + 512 <= uf2.length; i += 512) {
    const b = uf2.subarray(i, i + 512);
    const word = (o) => b.readUInt32LE(o);
    if (word(0) !== UF2_MAGIC[0] || word(4) !== UF2_MAGIC[1]) throw new Error('not a UF2 block at ' + i);
    mcu.flash.set(b.subarray(32, 32 + word(16)), word(12) - FLASH_START);
  }
  if (job.drive) mcu.flash.set(fs.readFileSync(job.drive), job.drive_offset);
  mcu.qspi[1].padValue |= 0x40; // its pad's input enabled, as the chip resets it (rp2040js does not)
  mcu.qspi[1].setInputValue(true); // QSPI_SS high: BOOTSEL not pressed
  for (const pin of job.held_high || []) mcu.gpio[pin].setInputValue(true);

  // -- the console: a USB host with the CDC port open --
  const cdc = new USBCDC(mcu.usbCtrl);
  let line = '';
  let marked = null; // emulated ns when the mark was seen
  let stopped = false; // job.stop was seen after the mark: the program is over
  let reloaded = job.reload === false;
  cdc.onDeviceConnected = () => {
    // Ctrl-C, then Ctrl-D at the prompt: code.py again, from a fresh VM, with the console open.
    if (!reloaded) cdc.sendSerialByte(3);
  };
  cdc.onSerialData = (data) => {
    for (const byte of data) {
      if (byte === 10) {
        // (less the terminal-title and line-clearing escapes CircuitPython writes)
        const text = line.replace(/\r$/, '').replace(/\x1b\][^\x1b]*\x1b\\/g, '').replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');
        out({ t: ms(), console: text });
        if (!reloaded && text.includes('Use CTRL-D to reload')) {
          reloaded = true;
          cdc.sendSerialByte(4);
        }
        if (marked !== null && job.stop && text.startsWith(job.stop)) stopped = true;
        if (job.sram && text.startsWith(job.sram.at) && !job.sram.done) {
          // (tools/heap_map.py: the RAM as it is when the line is printed)
          fs.writeFileSync(job.sram.path, mcu.sram);
          job.sram.done = true;
          out({ t: ms(), sram: job.sram.path });
        }
        if (marked === null && job.mark && text.startsWith(job.mark)) {
          marked = clock.nanos;
          out({ t: ms(), mark: true });
          schedule();
        }
        line = '';
      } else {
        line += String.fromCharCode(byte);
      }
    }
  };

  // -- the ST7789 (when the job names its pins) --
  const spiBus = job.spi ? mcu.spi[job.spi.bus] : null;
  const dcPin = job.spi ? mcu.gpio[job.spi.dc] : null;
  const csPin = job.spi ? mcu.gpio[job.spi.cs] : null;
  const ram = new Uint16Array(RAM_W * RAM_H);
  const byteNs = job.spi ? Math.max(1, Math.round((8 * 1e9) / (job.spi.hz || 62500000))) : 0;
  let command = -1;
  let args = [];
  let madctl = 0;
  let cols = [0, RAM_W - 1];
  let rows = [0, RAM_H - 1];
  let col = 0;
  let row = 0;
  let half = -1;
  let update = null; // the RAMWR under way: [x0, y0, x1, y1, first_ms, pixels]
  const spiDone = spiBus && clock.createAlarm(() => spiBus.completeTransmit(0));

  function endUpdate() {
    if (update !== null && update[5] > 0) out({ t: update.last, write: update.slice(0, 6) });
    update = null;
  }

  function pixel(value) {
    // The window's address (col, row) to the RAM cell MADCTL puts it in.
    if (update === null) update = [cols[0], row, cols[1], rows[1], ms(), 0]; // a RAMWR going on past a frame save
    let x = col;
    let y = row;
    if (madctl & 0x20) [x, y] = [y, x]; // MV: rows and columns exchanged
    if (madctl & 0x40) x = RAM_W - 1 - x; // MX
    if (madctl & 0x80) y = RAM_H - 1 - y; // MY
    if (x >= 0 && x < RAM_W && y >= 0 && y < RAM_H) ram[y * RAM_W + x] = value;
    update[5]++;
    pixels++;
    update.last = ms();
    col++;
    if (col > cols[1]) {
      col = cols[0];
      row++;
      if (row > rows[1]) row = rows[0];
    }
  }

  const onSpiByte = (value) => {
    spiDone.schedule(byteNs);
    if (csPin.outputValue) return; // chip not selected
    if (!dcPin.outputValue) {
      endUpdate();
      command = value;
      args = [];
      if (command === 0x2c) {
        col = cols[0];
        row = rows[0];
        half = -1;
        update = [cols[0], rows[0], cols[1], rows[1], ms(), 0];
      }
      return;
    }
    if (command === 0x2c) {
      if (half < 0) {
        half = value;
      } else {
        pixel((half << 8) | value);
        half = -1;
      }
      return;
    }
    args.push(value);
    if (command === 0x2a && args.length === 4) cols = [(args[0] << 8) | args[1], (args[2] << 8) | args[3]];
    if (command === 0x2b && args.length === 4) rows = [(args[0] << 8) | args[1], (args[2] << 8) | args[3]];
    if (command === 0x36 && args.length === 1) madctl = value;
  };

  if (spiBus) spiBus.onTransmit = onSpiByte;

  // -- the SSD1306 on I2C (when the job names its pins; job.i2c.address absent:
  //    nothing answers on the bus, as with no OLED wired) --
  //
  // Its bytes come two ways, as on the real chip: the firmware's I2C block
  // (rp2040js's I2C callbacks, each step completed after its time on the wire
  // at the clock the firmware set), and the firmware's bit-banged probe (a
  // zero-byte write CircuitPython does on the GPIOs: the open-drain lines are
  // modelled, pulled high, and the OLED pulls SDA low to acknowledge its
  // address). The controller decodes the SSD1306's commands; one it does not
  // know is reported ({"error": ...}) and a test fails on it.
  const OLED_W = 128;
  const OLED_PAGES = 8;
  const gram = new Uint8Array(OLED_W * OLED_PAGES); // the panel's memory: a byte is 8 rows of a column
  const oled = {
    on: false, invert: false, allOn: false, remap: false, comFlip: false, startLine: 0, offset: 0, contrast: 0x7f,
    mode: 2, cols: [0, OLED_W - 1], pages: [0, OLED_PAGES - 1], col: 0, page: 0,
  };
  const ARGS = { 0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8d: 1, 0xa8: 1, 0xd3: 1, 0xd5: 1, 0xd9: 1, 0xda: 1, 0xdb: 1 };
  let oledCommand = [];
  let control = -1; // the transaction's control byte state: -1 expect one, else 0x00 commands / 0x40 data
  let oneOnly = false; // Co set: one byte, then a control byte again

  function oledError(what) {
    out({ t: ms(), error: 'SSD1306: ' + what });
  }

  function runCommand(c) {
    const a = c[0];
    if (a <= 0x0f) oled.col = (oled.col & 0xf0) | a;
    else if (a <= 0x1f) oled.col = (oled.col & 0x0f) | ((a & 0x0f) << 4);
    else if (a === 0x20) {
      if (c[1] > 2) oledError('addressing mode ' + c[1]);
      oled.mode = c[1] & 3;
    } else if (a === 0x21) {
      oled.cols = [c[1] & 0x7f, c[2] & 0x7f];
      oled.col = oled.cols[0];
    } else if (a === 0x22) {
      oled.pages = [c[1] & 7, c[2] & 7];
      oled.page = oled.pages[0];
    } else if (a >= 0x40 && a <= 0x7f) oled.startLine = a & 0x3f;
    else if (a === 0x81) oled.contrast = c[1];
    else if (a === 0xa0 || a === 0xa1) oled.remap = a === 0xa1;
    else if (a === 0xa4 || a === 0xa5) oled.allOn = a === 0xa5;
    else if (a === 0xa6 || a === 0xa7) oled.invert = a === 0xa7;
    else if (a === 0xae || a === 0xaf) oled.on = a === 0xaf;
    else if (a >= 0xb0 && a <= 0xb7) oled.page = a & 7;
    else if (a === 0xc0 || a === 0xc8) oled.comFlip = a === 0xc8;
    else if (a === 0xd3) oled.offset = c[1] & 0x3f;
    else if (a === 0xa8) {
      if (c[1] !== 63) oledError('multiplex ratio ' + c[1] + ' on a 64-row panel');
    } else if (a === 0x8d || a === 0xd5 || a === 0xd9 || a === 0xda || a === 0xdb || a === 0xe3) {
      // charge pump, clock, pre-charge, COM pins, VCOMH, no-op: nothing the picture shows
    } else oledError('unknown command 0x' + a.toString(16));
  }

  function oledCommandByte(b) {
    oledCommand.push(b);
    const want = (ARGS[oledCommand[0]] || 0) + 1;
    if (oledCommand.length === want) {
      runCommand(oledCommand);
      oledCommand = [];
    }
  }

  function oledDataByte(b) {
    if (update === null) update = [oled.col, oled.page, oled.cols[1], oled.pages[1], ms(), 0];
    gram[oled.page * OLED_W + oled.col] = b;
    update[5] += 8;
    pixels += 8;
    if (oled.mode === 2) {
      oled.col = (oled.col + 1) & 0x7f; // page addressing: the column wraps in its page
    } else if (oled.mode === 0) {
      if (oled.col++ >= oled.cols[1]) {
        oled.col = oled.cols[0];
        oled.page = oled.page >= oled.pages[1] ? oled.pages[0] : oled.page + 1;
      }
    } else if (oled.page++ >= oled.pages[1]) {
      oled.page = oled.pages[0];
      oled.col = oled.col >= oled.cols[1] ? oled.cols[0] : oled.col + 1;
    }
  }

  function oledByte(b) {
    // A byte after the address: a control byte, or what it announced.
    if (control < 0) {
      if (b & 0x3f) oledError('control byte 0x' + b.toString(16));
      control = b & 0x40;
      oneOnly = !!(b & 0x80);
      return;
    }
    if (control) oledDataByte(b);
    else oledCommandByte(b);
    if (oneOnly) control = -1;
  }

  function oledStop() {
    // A transaction's end: its data written (the time of its last byte).
    if (update !== null) update.last = ms();
    endUpdate();
    control = -1;
  }

  function oledPicture() {
    // The glass, 128 x 64, a byte a pixel (1 lit), as a player sees it: the
    // module is made to be read with column 127 on segment 0 (A1) and COM
    // scanned from 63 (C8), so RAM column 0, row 0 is at the top left.
    const pic = new Uint8Array(OLED_W * 64);
    if (!oled.on) return pic;
    for (let y = 0; y < 64; y++) {
      const row = ((oled.comFlip ? y : 63 - y) + oled.startLine + oled.offset) & 63;
      for (let x = 0; x < OLED_W; x++) {
        const col = oled.remap ? x : OLED_W - 1 - x;
        let lit = (gram[(row >> 3) * OLED_W + col] >> (row & 7)) & 1;
        if (oled.allOn) lit = 1;
        pic[y * OLED_W + x] = lit ^ (oled.invert ? 1 : 0);
      }
    }
    return pic;
  }

  if (job.i2c) {
    const i2c = mcu.i2c[(job.i2c.sda >> 1) & 1];
    const address = job.i2c.address;
    let acked = false;
    const bitNs = () => Math.max(1, (i2c.sclLowPeriod + i2c.sclHighPeriod) * CYCLE_NS);
    const later = (bits, fn) => clock.createAlarm(fn).schedule(bits * bitNs());
    i2c.onStart = () => later(1, () => i2c.completeStart());
    i2c.onConnect = (addr, mode) => {
      acked = address != null && addr === address && mode === 0;
      control = -1;
      later(9, () => i2c.completeConnect(acked));
    };
    i2c.onWriteByte = (value) => {
      if (acked) oledByte(value);
      later(9, () => i2c.completeWrite(acked));
    };
    i2c.onReadByte = () => later(9, () => i2c.completeRead(0xff));
    i2c.onStop = () => {
      if (acked) oledStop();
      later(1, () => i2c.completeStop());
    };

    // The two lines as wires: pulled high (job.held_high), low where the
    // firmware drives them low or the OLED holds SDA low (its acknowledge).
    const sda = mcu.gpio[job.i2c.sda];
    const scl = mcu.gpio[job.i2c.scl];
    const pulled = job.i2c.pulled;
    let holdSda = false;
    let lastScl = true;
    let lastSda = true;
    let bits = -1; // -1: no transaction; 0-8: bits of the address byte seen; 9: its acknowledge clock
    let shift = 0;
    const wires = () => {
      const c = pulled && scl.value !== 0; // (GPIOPinState.Low is 0)
      const d = pulled && sda.value !== 0 && !holdSda;
      scl.setInputValue(c);
      sda.setInputValue(d);
      if (c && lastScl && d !== lastSda) {
        bits = d ? -1 : 0; // SDA falling while SCL is high: a start; rising: a stop
        shift = 0;
      } else if (c && !lastScl && bits >= 0 && bits < 8) {
        shift = (shift << 1) | (d ? 1 : 0);
        bits++;
      } else if (!c && lastScl && bits === 8) {
        holdSda = address != null && shift >> 1 === address; // acknowledge on the 9th clock
        bits = 9;
        if (holdSda) sda.setInputValue(false);
      } else if (!c && lastScl && bits === 9) {
        holdSda = false; // (a zero-byte write: nothing follows but the stop)
        bits = 10;
        sda.setInputValue(pulled && sda.value !== 0);
      }
      lastScl = c;
      lastSda = pulled && sda.value !== 0 && !holdSda;
    };
    sda.addListener(wires);
    scl.addListener(wires);
  }

  // -- PIO: rp2040js runs its state machines on timers of the host, apart
  // from emulated time; here each steps in emulated time at the rate its
  // clock divider gives, so a PIO program keeps the chip's timing.
  for (const p of mcu.pio) p.run = () => {};
  const pioAcc = [0, 0, 0, 0, 0, 0, 0, 0]; // each machine's cycles of 1/256 not yet stepped
  let pioAt = 0; // emulated ns the PIO has run to
  let pioGrainNs = Infinity; // the shortest step of a busy machine (Infinity: none is busy)
  function pioCheck() {
    // Called every so many instructions: while no machine is busy, the PIO
    // keeps level with the clock (its stalled steps would change nothing).
    const was = Number.isFinite(pioGrainNs);
    pioGrainNs = pioGrain();
    if (!was) pioAt = clock.nanos;
  }
  function pioStep(toNs) {
    // The PIO's steps from pioAt to toNs; a pin changed is seen at the step's own time.
    if (toNs - pioAt < pioGrainNs) return;
    const cycles = Math.floor((toNs - pioAt) / CYCLE_NS);
    if (cycles <= 0) return;
    pioAt += cycles * CYCLE_NS;
    mcu.pio.forEach((p, pi) =>
      p.machines.forEach((m, i) => {
        if (!m.enabled) return;
        if (m.txFIFO.empty && (p.instructions[m.pc] & 0xe0a0) === 0x80a0) {
          pioAcc[pi * 4 + i] = 0; // (stalled on a blocking pull: its steps would change nothing)
          return;
        }
        const div = (m.clockDivInt || 65536) * 256 + m.clockDivFrac;
        pioAcc[pi * 4 + i] += cycles * 256;
        while (pioAcc[pi * 4 + i] >= div) {
          pioAcc[pi * 4 + i] -= div;
          m.step();
          p.checkChangedPins();
        }
      }),
    );
  }
  // The shortest step of a busy machine (ns): how far idle time may jump at
  // once. A machine stalled on a blocking pull of an empty FIFO is not busy:
  // nothing changes until a write (the core's or a DMA's alarm) fills it.
  function pioGrain() {
    let grain = Infinity;
    for (const p of mcu.pio)
      for (const m of p.machines) {
        if (!m.enabled) continue;
        if (m.txFIFO.empty && (p.instructions[m.pc] & 0xe0a0) === 0x80a0) continue;
        grain = Math.min(grain, (((m.clockDivInt || 65536) * 256 + m.clockDivFrac) / 256) * CYCLE_NS);
      }
    return grain;
  }

  // -- recorded pins (the piezo): each level it takes, and when --
  for (const pin of job.record_pins || []) {
    let level = null;
    mcu.gpio[pin].addListener((state) => {
      const now = state === 1 ? 1 : 0;
      if (now !== level) {
        level = now;
        out({ t: Math.round(clock.nanos) / 1e6, pin: [pin, now] });
      }
    });
  }

  // -- the probe's refresh pin: which writes make one frame --
  let refreshAt = null;
  let pixels = 0;
  if (job.refresh_pin != null) {
    mcu.gpio[job.refresh_pin].addListener((state) => {
      if (state === 1 && refreshAt === null) {
        refreshAt = ms();
        pixels = 0;
      } else if (state === 0 && refreshAt !== null) {
        endUpdate();
        if (pixels) out({ t: ms(), refresh: [refreshAt, pixels] });
        refreshAt = null;
      }
    });
  }

  // -- the script: levels at ms after the mark, frames to save --
  function schedule() {
    for (const [at, pin, level] of job.events || []) {
      clock.createAlarm(() => {
        mcu.gpio[pin].setInputValue(!!level);
        out({ t: ms(), press: [pin, level ? 1 : 0] });
      }).schedule(at * 1e6);
    }
    (job.frames || []).forEach(([at, path]) => {
      clock.createAlarm(() => {
        endUpdate();
        fs.writeFileSync(path, job.i2c ? Buffer.from(oledPicture()) : Buffer.from(ram.buffer));
        out({ t: ms(), frame: path });
      }).schedule(at * 1e6);
    });
  }

  return {
    mcu,
    clock,
    ms,
    pioCheck,
    pioStep,
    pioGrain: () => pioGrainNs,
    out,
    job,
    markedAt: () => marked,
    done: () => stopped || (marked !== null && clock.nanos >= marked + (job.until_ms || 0) * 1e6),
    over: () => clock.nanos >= job.max_ms * 1e6,
    end: (why) => {
      endUpdate();
      if (line) out({ t: ms(), console: line });
      out({ t: ms(), end: why });
    },
  };
}

function advance(dev, limitNs) {
  // One instruction, or idle time up to the next alarm (and no further than
  // limitNs, nor than a step of the PIO while it runs).
  const { mcu, clock } = dev;
  if (mcu.core.waiting) {
    let wait = clock.nanosToNextAlarm;
    if (wait <= 0 || !Number.isFinite(wait)) wait = 1000;
    const grain = dev.pioGrain();
    if (grain !== Infinity) wait = Math.min(wait, Math.max(CYCLE_NS, grain));
    clock.tick(Math.min(wait, limitNs - clock.nanos));
  } else {
    clock.tick(mcu.core.executeInstruction() * CYCLE_NS);
  }
  if (dev.pioGrain() !== Infinity) dev.pioStep(clock.nanos);
}

function runUntil(dev, targetNs) {
  // Instructions, and idle time to the next alarm, up to targetNs.
  let n = 0;
  while (dev.clock.nanos < targetNs) {
    if ((n++ & 1023) === 0) dev.pioCheck();
    advance(dev, targetNs);
  }
}

// -- run --
function runAlone(dev) {
  let why = 'timeout';
  for (;;) {
    if (dev.done()) {
      why = 'done';
      break;
    }
    if (dev.over()) break;
    for (let i = 0; i < 100000; i++) {
      if ((i & 1023) === 0) dev.pioCheck();
      advance(dev, Infinity);
    }
  }
  dev.end(why);
}

function heldInReset(dev, n) {
  // The chip's RESETS holds UART n in reset (bit 22 + n), as busio.UART's
  // deinit leaves it: its registers at their reset values, nothing received.
  // rp2040js keeps the bit but not its effect, so it is modelled here.
  const resets = dev.mcu.peripherals[0x4000c];
  const bit = 1 << (22 + n);
  const write = resets.writeUint32.bind(resets);
  resets.writeUint32 = (offset, value) => {
    write(offset, value);
    if (offset === 0 && value & bit) {
      const u = dev.mcu.uart[n];
      u.rxFIFO.reset();
      u.ctrlRegister = (1 << 9) | (1 << 8); // RXE | TXE, not enabled
      u.lineCtrlRegister = 0;
      u.interruptMask = 0;
      u.interruptStatus = 0;
    }
  };
  return () => (resets.reset & bit) !== 0;
}

function wire(from, to, link) {
  // from's TX to to's RX: each byte its time on the wire later, in order; a
  // byte reaching a UART held in reset (deinit) is lost, as on the chip.
  const uart = from.mcu.uart[link.uart];
  const rx = to.mcu.uart[link.uart];
  const held = heldInReset(to, link.uart);
  let baud = link.baud || 115200;
  uart.onBaudRateChange = (rate) => {
    if (rate > 0) baud = rate;
  };
  let free = 0; // when the wire is free for the next byte (ns)
  uart.onByte = (value) => {
    if (process.env.PICOEMU_DEBUG) process.stderr.write('byte ' + value + ' at ' + from.clock.nanos + '\n');
    const now = from.clock.nanos;
    const at = Math.max(now, free) + Math.round(10e9 / baud);
    free = at;
    const mark = from.markedAt();
    const t = mark === null ? -1 : (at - mark) / 1e6;
    for (const [a, b] of link.pulled || []) if (t >= a && t < b) return; // the cable is out
    to.clock
      .createAlarm(() => {
        if (!held()) rx.feedByte(value);
      })
      .schedule(Math.max(0, at - to.clock.nanos));
  };
}

if (top.devices) {
  const devs = top.devices.map((job, i) => makeDevice(job, i));
  wire(devs[0], devs[1], top.link);
  wire(devs[1], devs[0], top.link);
  for (const dev of devs) dev.mcu.core.PC = FLASH_START;
  const ended = [null, null];
  let t = 0;
  while (ended[0] === null || ended[1] === null) {
    t += SLICE_NS;
    devs.forEach((dev, i) => {
      if (ended[i] !== null) return;
      runUntil(dev, t);
      if (dev.done()) ended[i] = 'done';
      else if (dev.over()) ended[i] = 'timeout';
    });
    // (a device done still answers the other's bytes until both are done)
    devs.forEach((dev, i) => {
      if (ended[i] !== null && (ended[1 - i] === null)) runUntil(dev, t);
    });
  }
  devs.forEach((dev, i) => dev.end(ended[i]));
} else {
  const dev = makeDevice(top, null);
  dev.mcu.core.PC = FLASH_START;
  runAlone(dev);
}
