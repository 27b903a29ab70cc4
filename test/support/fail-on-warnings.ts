/**
 * Jest set-up (jest.config.js, setupFilesAfterEnv): a test during which React
 * prints an act() warning or Node a warning (MaxListenersExceededWarning or any
 * other) fails, naming the warning (test/support/warning-watch.ts). One seen after the file's last
 * test fails the file.
 */
import { watchWarnings } from "./warning-watch";

/** The set-up's own watch (test/taskpane/clean-output.test.tsx shows it hears what it is for). */
export const testWarnings = watchWarnings();
const watch = testWarnings;

function failOnWarnings(when: string): void {
  const warnings = watch.take();
  if (warnings.length > 0) throw new Error(`Warnings ${when} (fix their cause):\n${warnings.join("\n")}`);
}

afterEach(() => failOnWarnings("during this test"));

afterAll(() => {
  try {
    failOnWarnings("after the last test of this file");
  } finally {
    watch.stop();
  }
});
