/**
 * The lint rule that keeps Office's globals in src/office/ (eslint.config.mjs):
 * the project's own ESLint configuration, applied to small sources placed at
 * paths in each folder, refuses a deliberate violation and lets the declared
 * exceptions through (src/office/ itself; type references).
 */
import { spawnSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(__dirname, "../..");

interface Probe {
  filePath: string;
  code: string;
}

/** Lints the probes with the repository's config in a child process (ESLint loads its config as ESM). */
function lint(probes: Probe[]): { ruleId: string | null; message: string }[][] {
  const script = `
    const { ESLint } = require("eslint");
    (async () => {
      const eslint = new ESLint({ cwd: process.cwd() });
      const probes = JSON.parse(process.argv[1]);
      const out = [];
      for (const p of probes) {
        const [result] = await eslint.lintText(p.code, { filePath: p.filePath });
        out.push(result.messages.map((m) => ({ ruleId: m.ruleId, message: m.message })));
      }
      process.stdout.write(JSON.stringify(out));
    })().catch((e) => { console.error(e); process.exit(1); });
  `;
  const run = spawnSync(process.execPath, ["-e", script, JSON.stringify(probes)], { cwd: root, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`eslint failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as { ruleId: string | null; message: string }[][];
}

const OFFICE_ONLY = /Office globals are used only in src\/office\//;

describe("lint: Office globals only in src/office/", () => {
  const refused: [string, Probe][] = [
    [
      "Office.onReady in the pane",
      { filePath: "src/taskpane/probe.ts", code: "export const ready = () => Office.onReady();\n" },
    ],
    [
      "Office read off globalThis in the pane",
      {
        filePath: "src/taskpane/shared/probe.ts",
        code: "export const theme = (globalThis as { Office?: unknown }).Office;\n",
      },
    ],
    [
      "Excel.run in the refresh logic",
      { filePath: "src/refresh/probe.ts", code: "export const run = () => Excel.run(async () => undefined);\n" },
    ],
    [
      "CustomFunctions.Error as a value in the functions",
      {
        filePath: "src/functions/probe.ts",
        code: "export const isError = (x: unknown) => x instanceof CustomFunctions.Error;\n",
      },
    ],
    [
      "OfficeRuntime in the client",
      { filePath: "src/api/probe.ts", code: "export const storage = OfficeRuntime.storage;\n" },
    ],
  ];
  const allowed: [string, Probe][] = [
    [
      "Office.onReady in src/office/",
      { filePath: "src/office/probe.ts", code: "export const ready = () => Office.onReady();\n" },
    ],
    [
      "a type reference (functions.ts's invocation parameters)",
      {
        filePath: "src/functions/probe.ts",
        code: "export function f(invocation: CustomFunctions.CancelableInvocation): boolean {\n  return invocation !== undefined;\n}\n",
      },
    ],
  ];

  const results = lint([...refused, ...allowed].map(([, probe]) => probe));

  it.each(refused.map(([name], i) => [name, i] as const))("refuses %s", (_name, i) => {
    expect(results[i].map((m) => m.ruleId)).toHaveLength(1);
    expect(results[i][0].ruleId).toMatch(/^no-restricted-(globals|syntax)$/);
    expect(results[i][0].message).toMatch(OFFICE_ONLY);
  });

  it.each(allowed.map(([name], i) => [name, refused.length + i] as const))("allows %s", (_name, i) => {
    expect(results[i]).toEqual([]);
  });
});
