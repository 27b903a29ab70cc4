/**
 * The workbook stand-in world: a recorded workbook opened as the add-in sees
 * it — the stand-in (workbook-stand-in/) plays Excel on globals of its own,
 * the Excel adapter (createExcelWorkbook) reads and writes it, and one
 * CallTracker plays the add-in's runtime: the stand-in starts and settles a
 * call on it for every custom function it runs, as Excel's calls into
 * functions.js would. `openRecordedWorkbook(recording)` is the one set-up
 * tests call for it. It lives in memory and is dropped with the test, so it
 * needs no teardown.
 *
 * Installing the stand-in directly is left to what this cannot be: the stand-in
 * on globalThis for the add-in's own runtime to find (the ribbon command and
 * settings-change suites), under another Office (refresh-on-open's Office
 * mock), for the bundle alone (the 1904 workbook), or in a browser page
 * (pane-page.ts's installWorkbookInPage).
 */
import { CallTracker } from "../../src/office/call-tracker";
import { createExcelWorkbook, type ExcelWorkbookGlobals } from "../../src/office/workbook/workbook";
import { installWorkbookStandIn, type WorkbookRecording } from "./workbook-stand-in";

export function openRecordedWorkbook(recording: WorkbookRecording) {
  const globals: Record<string, unknown> = {};
  const calls = new CallTracker();
  const standIn = installWorkbookStandIn(globals, recording, { calls });
  const workbook = createExcelWorkbook(globals as unknown as ExcelWorkbookGlobals);
  return { standIn, workbook, calls, globals };
}
