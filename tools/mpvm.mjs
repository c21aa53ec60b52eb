// Run a Python script on the real MicroPython VM (WebAssembly port) under Node.js.
//
//   node tools/mpvm.mjs [--pkg DIR]... [--drive DIR] [--steps NAME] [--heap BYTES] SCRIPT.py [ARG]...
//
// Each --pkg DIR (a package folder of this repository, such as engine) is copied
// unchanged into the VM's in-memory file system under /proj, which is put first
// on sys.path, and so are the .py files beside SCRIPT.py (its helpers). --drive
// DIR copies a whole folder, every file (a CIRCUITPY drive that tools/flash.py
// wrote), to /drive; the script puts it on sys.path itself. SCRIPT.py runs as
// __main__ with sys.argv = [SCRIPT, ARG...]. --steps NAME then calls the
// script's global function NAME again and again until it returns false: this
// VM's gc.collect() frees only what no call still running from the host can
// reach, so a script that measures the heap in use does it in such steps.
// Exit status: 0 when the script finished, 1 with the traceback on stderr when it
// raised, 2 for a usage error.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";

function usage(msg) {
  process.stderr.write(`mpvm: ${msg}\nusage: node tools/mpvm.mjs [--pkg DIR]... [--drive DIR] [--steps NAME] [--heap BYTES] SCRIPT.py [ARG]...\n`);
  process.exit(2);
}

const args = process.argv.slice(2);
const pkgs = [];
let drive = null;
let steps = null;
let heap = 4 * 1024 * 1024;
while (args.length && args[0].startsWith("--")) {
  const flag = args.shift();
  const value = args.shift();
  if (value === undefined) usage(`${flag} needs a value`);
  if (flag === "--pkg") pkgs.push(value);
  else if (flag === "--drive") drive = value;
  else if (flag === "--steps") steps = value;
  else if (flag === "--heap") heap = Number(value);
  else usage(`unknown option ${flag}`);
}
if (!args.length) usage("no script given");
const script = args.shift();

const mp = await loadMicroPython({
  heapsize: heap,
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});

function copyTree(src, dst, every = false) {
  mp.FS.mkdir(dst);
  for (const name of readdirSync(src)) {
    const from = join(src, name);
    if (statSync(from).isDirectory()) {
      if (name !== "__pycache__") copyTree(from, `${dst}/${name}`, every);
    } else if (every || name.endsWith(".py")) {
      mp.FS.writeFile(`${dst}/${name}`, readFileSync(from));
    }
  }
}

mp.FS.mkdir("/proj");
for (const pkg of pkgs) copyTree(pkg, `/proj/${basename(pkg)}`);
if (drive) copyTree(drive, "/drive", true);
for (const name of readdirSync(dirname(script))) {
  const from = join(dirname(script), name);
  if (name.endsWith(".py") && statSync(from).isFile()) mp.FS.writeFile(`/proj/${name}`, readFileSync(from));
}
const argv = [script, ...args].map((a) => JSON.stringify(a)).join(", ");
const source = readFileSync(script, "utf8");
try {
  mp.runPython(`import sys\nsys.path.insert(0, "/proj")\nsys.argv[:] = [${argv}]\n`);
  mp.runPython(source);
  if (steps) {
    const step = mp.globals.get(steps);
    while (step()) {}
  }
} catch (err) {
  process.stderr.write(String(err.message || err) + "\n");
  process.exit(1);
}
