/**
 * A recorded workbook opened for the refresh tests: the stand-in plays Excel,
 * the Excel adapter reads and writes it, and one CallTracker plays the
 * add-in's runtime — the stand-in starts and settles a call on it for every
 * custom function it runs, as Excel's calls into functions.js would.
 */
import { CallTracker } from "../../src/office/call-tracker";
import { createExcelWorkbook, type ExcelWorkbookGlobals } from "../../src/office/workbook";
import { installWorkbookStandIn, type WorkbookRecording } from "./workbook-stand-in";

export function openRecordedWorkbook(recording: WorkbookRecording) {
  const globals: Record<string, unknown> = {};
  const calls = new CallTracker();
  const standIn = installWorkbookStandIn(globals, recording, { calls });
  const workbook = createExcelWorkbook(globals as unknown as ExcelWorkbookGlobals);
  return { standIn, workbook, calls, globals };
}
