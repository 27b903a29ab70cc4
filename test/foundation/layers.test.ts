/**
 * The layer rules of eslint.config.mjs (no-restricted-imports), shown to fail
 * on deliberate violations and to pass on what each layer may import. ESLint's
 * Node API lints each snippet as if it were a file at the given path; it runs
 * in a child Node process because it loads the ESM config with a dynamic
 * import, which jest's module sandbox does not allow.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const root = path.resolve(__dirname, "../..");

interface Snippet {
  file: string;
  code: string;
}

const LINT_SNIPPETS = `
const { ESLint } = require("eslint");
const path = require("node:path");
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", async () => {
  const eslint = new ESLint({ cwd: process.cwd() });
  const out = [];
  for (const { file, code } of JSON.parse(input)) {
    const [result] = await eslint.lintText(code, { filePath: path.join(process.cwd(), file) });
    out.push(result.messages.map((m) => ({ ruleId: m.ruleId, message: m.message })));
  }
  process.stdout.write(JSON.stringify(out));
});
`;

/** For each snippet, the no-restricted-imports messages ESLint reports with the project's config. */
async function layerErrors(snippets: Snippet[]): Promise<string[][]> {
  const child = promisify(execFile)(process.execPath, ["-e", LINT_SNIPPETS], { cwd: root, timeout: 60_000 });
  child.child.stdin!.end(JSON.stringify(snippets));
  const { stdout } = await child;
  const results = JSON.parse(stdout) as { ruleId: string | null; message: string }[][];
  return results.map((messages) => messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message));
}

const VIOLATIONS: [string, Snippet, RegExp][] = [
  [
    "a core module importing from api/",
    {
      file: "src/core/layer-violation.ts",
      code: 'import type { SeriesRequest } from "../api/types";\nexport type R = SeriesRequest;\n',
    },
    /core\/ is the bottom layer: it imports nothing of ours outside core\//,
  ],
  [
    "a core module importing the api door",
    {
      file: "src/core/layer-violation.ts",
      code: 'import { createClient } from "../api";\nexport const c = createClient;\n',
    },
    /core\/ is the bottom layer/,
  ],
  [
    "an api module importing from functions/",
    {
      file: "src/api/layer-violation.ts",
      code: 'import { fetchSeries } from "../functions/fetch-series";\nexport const f = fetchSeries;\n',
    },
    /api\/ imports only core\/ \(and itself\)/,
  ],
  [
    "an api module importing from office/",
    {
      file: "src/api/layer-violation.ts",
      code: 'import { SettingsStore } from "../office/settings";\nexport const s = SettingsStore;\n',
    },
    /api\/ imports only core\//,
  ],
  [
    "a module in an api room importing from functions/",
    {
      file: "src/api/series/layer-violation.ts",
      code: 'import { fetchSeries } from "../../functions/fetch-series";\nexport const f = fetchSeries;\n',
    },
    /api\/ imports only core\/ \(and itself\)/,
  ],
  [
    "a module in an api room importing the pane",
    {
      file: "src/api/store/layer-violation.ts",
      code: 'import { App } from "../../taskpane/app";\nexport const a = App;\n',
    },
    /api\/ imports only core\//,
  ],
  [
    "a function reaching inside an api room",
    {
      file: "src/functions/layer-violation.ts",
      code: 'import { SeriesBatcher } from "../api/series/batcher";\nexport const b = SeriesBatcher;\n',
    },
    /through its one door/,
  ],
  [
    "a function reaching inside api/",
    {
      file: "src/functions/layer-violation.ts",
      code: 'import { NotCachedError } from "../api/errors";\nexport const e = NotCachedError;\n',
    },
    /import the client through its one door, "\.\.\/api"/,
  ],
  [
    "a pane file two folders down reaching inside api/",
    {
      file: "src/taskpane/settings/layer-violation.ts",
      code: 'import { redact } from "../../api/errors";\nexport const r = redact;\n',
    },
    /through its one door/,
  ],
  [
    "the sandbox importing from src/",
    {
      file: "sandbox/layer-violation.ts",
      code: 'import type { InsightCard } from "../src/core/domain";\nexport type C = InsightCard;\n',
    },
    /The sandbox stands in for the service: it imports nothing from src\//,
  ],
  [
    "a benchmark importing the tests' support",
    {
      file: "bench/layer-violation.ts",
      code: 'import { CHROMIUM_PATH } from "../test/support/chromium";\nexport const c = CHROMIUM_PATH;\n',
    },
    /bench\/, scripts\/ and harness\/ import nothing of test\//,
  ],
  [
    "a script importing a test helper",
    {
      file: "scripts/lib/layer-violation.ts",
      code: 'import { TEST_TODAY } from "../../test/support/today";\nexport const t = TEST_TODAY;\n',
    },
    /bench\/, scripts\/ and harness\/ import nothing of test\//,
  ],
  [
    "the harness importing the tests' support",
    {
      file: "harness/layer-violation.ts",
      code: 'import { useSandbox } from "../test/support/sandbox";\nexport const u = useSandbox;\n',
    },
    /bench\/, scripts\/ and harness\/ import nothing of test\//,
  ],
];

const ALLOWED: [string, Snippet][] = [
  [
    "core importing core",
    { file: "src/core/layer-ok.ts", code: 'import { addDays } from "./calendar";\nexport const a = addDays;\n' },
  ],
  [
    "api importing core and itself",
    {
      file: "src/api/layer-ok.ts",
      code: 'import { addDays } from "../core/calendar";\nimport { redact } from "./errors";\nexport const a = [addDays, redact];\n',
    },
  ],
  [
    "an api room importing core, api and another room",
    {
      file: "src/api/store/layer-ok.ts",
      code: 'import { addDays } from "../../core/calendar";\nimport { redact } from "../errors";\nimport { within } from "../http/timers";\nexport const a = [addDays, redact, within];\n',
    },
  ],
  [
    "a function importing the api door and core",
    {
      file: "src/functions/layer-ok.ts",
      code: 'import { isMarketDataError } from "../api";\nimport { addDays } from "../core/calendar";\nexport const a = [isMarketDataError, addDays];\n',
    },
  ],
  [
    "the office layer importing the api door",
    {
      file: "src/office/layer-ok.ts",
      code: 'import { createClient } from "../api";\nexport const c = createClient;\n',
    },
  ],
  [
    "a benchmark importing the harness",
    {
      file: "bench/layer-ok.ts",
      code: 'import { CHROMIUM_PATH } from "../harness/chromium";\nexport const c = CHROMIUM_PATH;\n',
    },
  ],
  [
    "the sandbox importing itself",
    {
      file: "sandbox/layer-ok.ts",
      code: 'import type { InsightCardWire } from "./wire-types";\nexport type C = InsightCardWire;\n',
    },
  ],
];

describe("layer rules (lint)", () => {
  let violations: string[][];
  let allowed: string[][];

  beforeAll(async () => {
    const results = await layerErrors([...VIOLATIONS.map(([, s]) => s), ...ALLOWED.map(([, s]) => s)]);
    violations = results.slice(0, VIOLATIONS.length);
    allowed = results.slice(VIOLATIONS.length);
  }, 60_000);

  it.each(VIOLATIONS.map(([name, , message], i) => [name, message, i] as const))("fails %s", (_name, message, i) => {
    expect(violations[i]).toHaveLength(1);
    expect(violations[i]![0]).toMatch(message);
  });

  it.each(ALLOWED.map(([name], i) => [name, i] as const))("passes %s", (_name, i) => {
    expect(allowed[i]).toEqual([]);
  });
});
