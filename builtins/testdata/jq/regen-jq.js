// regen-jq.js JQWASM DIR: run the cases of DIR/filters.txt and DIR/cli.json
// through jq 1.7.1 (the jq-wasm package in JQWASM) and print them with
// jq's stdout, stderr and exit status as JSON. See regen-jq.sh.
"use strict";
const fs = require("fs"), path = require("path"), Module = require("module");
const [pkg, dir] = process.argv.slice(2);

// jq-wasm's wrapper trims stdout, drops stderr when there is output, adds
// -M and always names /dev/stdin; patch its entry point to return all.
const file = path.join(pkg, "dist/build/jq.js");
let src = fs.readFileSync(file, "utf8");
function patch(a, b) {
  if (!src.includes(a)) throw new Error("jq-wasm changed, not found: " + a);
  src = src.replace(a, b);
}
patch('Module.callMain([...flags, query, "/dev/stdin"]);',
  'var st = Module.callMain(flags); return {out: fromByteArray(stdoutBuffer), err: fromByteArray(stderrBuffer), status: st};');
patch('if (!flags.includes("-M")) {', 'if (false) {');
patch('Module["callMain"] = callMain', 'Module["callMain"] = callMain; Module["FS"] = FS');
const m = new Module(file);
m.filename = file;
m.paths = Module._nodeModulePaths(path.dirname(file));
m._compile(src, file);

function cases() {
  const out = [];
  for (const line of fs.readFileSync(path.join(dir, "filters.txt"), "utf8").split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const [input, flags, ...rest] = line.split("\t");
    const filter = rest.join("\t");
    let args = flags === "-" ? [] : flags.split(" ");
    if (args.includes("-p")) args = args.filter(a => a !== "-p");
    else args = ["-c", ...args];
    const c = {args: [...args, filter]};
    if (input === "-") c.args.unshift("-n");
    else c.stdin = fs.readFileSync(path.join(dir, "inputs", input), "utf8");
    c.name = input + " " + flags + " " + filter;
    out.push(c);
  }
  for (const c of JSON.parse(fs.readFileSync(path.join(dir, "cli.json"), "utf8"))) {
    c.name = "cli " + JSON.stringify(c.args) + (c.stdin !== undefined ? " <<< " + JSON.stringify(c.stdin) : "");
    out.push(c);
  }
  return out;
}

(async () => {
  const results = [];
  for (const c of cases()) {
    // A fresh instance for each run: jq's exit() can leave one unusable.
    const jq = await m.exports();
    const files = c.files || {};
    for (const [n, body] of Object.entries(files)) jq.FS.writeFile(n, body);
    const args = c.stdin !== undefined ? [...c.args, "/dev/stdin"] : [...c.args];
    process.exitCode = 0;
    const r = await jq.raw(c.stdin || "", "", args);
    let status = r.status === undefined ? process.exitCode : r.status;
    for (const n of Object.keys(files)) jq.FS.unlink(n);
    const err = r.err.split(process.argv[1]).join("jq").split("/dev/stdin").join("<stdin>");
    results.push({name: c.name, args: c.args, stdin: c.stdin, files: c.files, out: r.out, err, status});
  }
  process.exitCode = 0;
  process.stdout.write(JSON.stringify(results, null, 1) + "\n");
})();
