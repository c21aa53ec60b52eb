// Run a Python script on the real MicroPython VM (WebAssembly port) under Node.js.
//
//   node tools/mpvm.mjs [--pkg DIR]... [--heap BYTES] SCRIPT.py [ARG]...
//
// Each --pkg DIR (a package folder of this repository, such as engine) is copied
// unchanged into the VM's in-memory file system under /proj, which is put first
// on sys.path, and so are the .py files beside SCRIPT.py (its helpers). SCRIPT.py
// runs as __main__ with sys.argv = [SCRIPT, ARG...].
// Exit status: 0 when the script finished, 1 with the traceback on stderr when it
// raised, 2 for a usage error.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";

function usage(msg) {
  process.stderr.write(`mpvm: ${msg}\nusage: node tools/mpvm.mjs [--pkg DIR]... [--heap BYTES] SCRIPT.py [ARG]...\n`);
  process.exit(2);
}

const args = process.argv.slice(2);
const pkgs = [];
let heap = 4 * 1024 * 1024;
while (args.length && args[0].startsWith("--")) {
  const flag = args.shift();
  const value = args.shift();
  if (value === undefined) usage(`${flag} needs a value`);
  if (flag === "--pkg") pkgs.push(value);
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

function copyTree(src, dst) {
  mp.FS.mkdir(dst);
  for (const name of readdirSync(src)) {
    const from = join(src, name);
    if (statSync(from).isDirectory()) {
      if (name !== "__pycache__") copyTree(from, `${dst}/${name}`);
    } else if (name.endsWith(".py")) {
      mp.FS.writeFile(`${dst}/${name}`, readFileSync(from));
    }
  }
}

mp.FS.mkdir("/proj");
for (const pkg of pkgs) copyTree(pkg, `/proj/${basename(pkg)}`);
for (const name of readdirSync(dirname(script))) {
  const from = join(dirname(script), name);
  if (name.endsWith(".py") && statSync(from).isFile()) mp.FS.writeFile(`/proj/${name}`, readFileSync(from));
}
const argv = [script, ...args].map((a) => JSON.stringify(a)).join(", ");
const source = readFileSync(script, "utf8");
try {
  mp.runPython(`import sys\nsys.path.insert(0, "/proj")\nsys.argv[:] = [${argv}]\n`);
  mp.runPython(source);
} catch (err) {
  process.stderr.write(String(err.message || err) + "\n");
  process.exit(1);
}
