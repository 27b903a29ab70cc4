/**
 * `npm test`: the whole check a fresh clone needs, in order —
 * typecheck, lint, formatting (prettier --check), test build (production minification, office.js from the
 * package), manifest validation, the DESIGN budgets (bench/budgets.ts --check),
 * then every jest suite (unit, sandbox HTTP,
 * bundle, browser). Ends with one plain line: `N passed, M failed, K skipped`.
 *
 *   npm test                     everything
 *   npm test -- test/api         only those jest paths (steps still run)
 *   MD_TEST_FAST=1 npm test      skip typecheck, lint and build (use the existing dist/)
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ensureNginx } from "./lib/gateway";

const root = path.resolve(__dirname, "..");
const fast = process.env.MD_TEST_FAST === "1";
const jestArgs = process.argv.slice(2);
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);

interface Step {
  name: string;
  command: string;
  args: string[];
}

const steps: Step[] = fast
  ? []
  : [
      { name: "typecheck", command: bin("tsc"), args: ["--noEmit", "-p", "tsconfig.json"] },
      { name: "lint", command: bin("eslint"), args: ["."] },
      { name: "formatting (prettier --check)", command: bin("prettier"), args: ["--check", "."] },
      { name: "build (test target)", command: bin("webpack"), args: ["--mode", "production", "--env", "target=test"] },
      { name: "validate manifest", command: bin("tsx"), args: ["scripts/validate-manifest.ts"] },
      { name: "budgets (bundle size, batching)", command: bin("tsx"), args: ["bench/budgets.ts", "--check"] },
    ];

/**
 * The browser tests need Chromium. On a fresh Debian machine (root, apt
 * available) install the distribution's package once; elsewhere they report as
 * skipped with the reason. MD_NO_BROWSER_INSTALL=1 turns the install off.
 */
function ensureChromium(): void {
  const has = (cmd: string) => spawnSync("sh", ["-c", `command -v ${cmd}`]).status === 0;
  if (process.env.CHROMIUM_PATH || has("chromium") || has("chromium-browser") || has("google-chrome")) return;
  if (process.env.MD_NO_BROWSER_INSTALL === "1" || !has("apt-get") || process.getuid?.() !== 0) {
    console.log("No Chromium found: the browser tests will be reported as skipped.");
    return;
  }
  console.log("\n▶ installing Debian chromium for the browser tests (once)");
  try {
    execFileSync(
      "sh",
      ["-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null"],
      { stdio: "inherit" },
    );
  } catch {
    console.log("chromium could not be installed: the browser tests will be reported as skipped.");
  }
}

/**
 * The gateway tests need nginx and its JavaScript module (njs, which checks
 * sign-ins and cleans the service's answers): installed the same way, under the same
 * conditions (MD_NO_NGINX_INSTALL=1 turns it off); otherwise they report as
 * skipped with the reason.
 */
function ensureNginxForTests(): void {
  const nginx = ensureNginx({ log: (line) => console.log(`\n${line}`) });
  if ("missing" in nginx) console.log(`${nginx.missing} The gateway tests will be reported as skipped.`);
}

if (!fast) {
  ensureChromium();
  ensureNginxForTests();
}

let stepFailures = 0;
for (const step of steps) {
  const started = Date.now();
  console.log(`\n▶ ${step.name}`);
  const result = spawnSync(step.command, step.args, { cwd: root, stdio: "inherit" });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    stepFailures++;
    console.log(`✖ ${step.name} failed (${seconds} s)`);
  } else {
    console.log(`✔ ${step.name} (${seconds} s)`);
  }
}

if (!existsSync(path.join(root, "dist", "functions.js"))) {
  console.log("dist/functions.js is missing: the bundle and browser tests need a build (run without MD_TEST_FAST).");
}

mkdirSync(path.join(root, "test-results"), { recursive: true });
const report = path.join(root, "test-results", "jest.json");
console.log("\n▶ jest");
const jest = spawnSync(bin("jest"), ["--json", `--outputFile=${report}`, ...jestArgs], { cwd: root, stdio: "inherit" });

let passed = 0;
let failed = 1; // no report means jest did not run
let skipped = 0;
if (existsSync(report)) {
  const results = JSON.parse(readFileSync(report, "utf8")) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
    numRuntimeErrorTestSuites: number;
  };
  passed = results.numPassedTests;
  // A suite that fails to load has no test results of its own: count it as a failure.
  failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
  skipped = results.numPendingTests + results.numTodoTests;
}
if (jest.status !== 0 && failed === 0) failed = 1;
failed += stepFailures;

if (stepFailures) console.log(`${stepFailures} step(s) before jest failed (counted as failures).`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 ? 1 : 0);
