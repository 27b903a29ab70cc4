/** @jest-environment jsdom */
/**
 * The guard every test file runs under (test/support/fail-on-warnings.ts,
 * over test/support/warning-watch.ts): a test that makes React print an act()
 * warning, leaks a listener past Node's MaxListeners, or makes Node print any
 * other warning fails, naming the warning, and a clean test passes. Shown
 * twice: the watch itself, in this file, on an act() warning (its message kept
 * from the output); and the whole set-up, on a fixture file run by a jest of
 * its own whose output is read here, not printed (Node writes its warnings to
 * the stderr of the process that had them: that jest's, read here).
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { render, screen } from "@testing-library/react";
import { LateText, updateOutsideAct } from "../support/late-text";
import { watchWarnings, type WarningWatch } from "../support/warning-watch";

const ROOT = join(__dirname, "..", "..");
const FIXTURE = "test/support/warnings-fixture/provokes-warnings.spec.tsx";

describe("the warning watch", () => {
  let watch: WarningWatch;
  let quietConsole: jest.SpyInstance;
  beforeEach(() => {
    // Below the watch: React's message reaches the watch, and stops there instead of filling the output.
    quietConsole = jest.spyOn(console, "error").mockImplementation(() => undefined);
    watch = watchWarnings();
  });
  afterEach(() => {
    watch.stop();
    quietConsole.mockRestore();
  });

  it("hears React's act() warning from an update after a promise the test did not await", async () => {
    await updateOutsideAct();
    expect(watch.take()).toEqual([
      expect.stringMatching(/^React act\(\) warning: An update to LateText inside a test was not wrapped in act/),
    ]);
  });

  it("hears nothing from a test that awaits what it triggered", async () => {
    render(<LateText text={Promise.resolve("here")} />);
    expect((await screen.findByText("here")).textContent).toBe("here");
    expect(watch.take()).toEqual([]);
  });
});

/** Runs jest (in band, one process) on the fixture file alone; its exit code and what it printed. */
function jestOnFixture(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [require.resolve("jest/bin/jest"), "--runInBand", "--ci", "--testMatch", `<rootDir>/${FIXTURE}`, FIXTURE],
      { cwd: ROOT, timeout: 120_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, FORCE_COLOR: "0" } },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== "number") reject(error);
        else resolve({ code: error ? (error.code as number) : 0, output: `${stdout}\n${stderr}` });
      },
    );
  });
}

describe("the set-up every test file runs under", () => {
  it("fails each test that provokes a warning, naming it, and passes the clean one", async () => {
    const { code, output } = await jestOnFixture();
    expect(code).toBe(1);
    const failed = (name: string, warning: RegExp) =>
      expect(output).toMatch(
        new RegExp(`● ${name}\\s+Warnings during this test \\(fix their cause\\):\\s+${warning.source}`),
      );
    failed(
      "updates a component after a promise it does not await",
      /React act\(\) warning: An update to LateText inside a test was not wrapped in act/,
    );
    failed(
      "gives an emitter one listener too many",
      /MaxListenersExceededWarning: Possible EventEmitter memory leak detected\. 11 close listeners/,
    );
    failed("emits a deprecation warning", /DeprecationWarning: this API goes away/);
    expect(output).toMatch(/✓ awaits what it triggered/);
    expect(output).toMatch(/Tests:\s+3 failed, 1 passed, 4 total/);
  }, 150_000);
});
