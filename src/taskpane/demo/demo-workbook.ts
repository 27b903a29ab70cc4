/**
 * The demo workbook: outside Office, in development and test builds only,
 * the pane works on an in-page workbook instead of saying there is none, so
 * Templates, the Artemis conversion and its Undo, Refresh all, Freeze and
 * Undo freeze, and the Picker's Insert can be tried and seen. The workbook is
 * the one the tests play Excel with (harness/workbook-stand-in/), its cells
 * computed by the add-in's own functions, which functions.js associated in
 * this same page (the shared runtime): harness/workbook-stand-in/functions-runtime.ts.
 *
 * This module is its own chunk, loaded only by index.tsx when Office.onReady
 * reports no host and the build is not the production one (webpack drops the
 * import there: test/foundation/production-build.test.ts). The pane reaches
 * it through the same seams as Excel: PaneServices' workbook, migration and
 * refresh, over the stand-in's `Excel` and `Office`, which stay on an object
 * of their own (office.js keeps the page's globals).
 */
import { installWorkbookStandIn, type WorkbookRecording } from "../../../harness/workbook-stand-in";
import { pageFunctions, runAssociatedFunctions } from "../../../harness/workbook-stand-in/functions-runtime";
import { paneTraceForHost } from "../../office/cell-trace";
import { refreshActionsFor } from "../../office/commands";
import { findRuntime } from "../../office/runtime-registry";
import { excelMigrationWorkbook } from "../../office/workbook/formula-migration";
import { excelWorkbook } from "../../office/workbook/pane-workbook";
import { createExcelWorkbook, type ExcelWorkbookGlobals } from "../../office/workbook/workbook";
import { DemoWorkbookPanel } from "./demo-panel";
import type { DemoWorkbook } from "./demo-types";

export const DEMO_SHEET = "Demo";
export const ARTEMIS_SHEET = "Artemis";

/** A sheet to insert into, and a sheet of Artemis formulas to convert (Artemis for Excel not loaded, as after uninstalling it). */
export function demoRecording(): WorkbookRecording {
  return {
    sheets: [
      {
        name: DEMO_SHEET,
        cells: { A1: { value: "Pick a cell, then insert a formula from the Picker, or add a template." } },
      },
      {
        name: ARTEMIS_SHEET,
        cells: {
          A1: { value: "Artemis formulas: convert them in the Artemis tab" },
          A2: { value: "BTC price" },
          B2: { formula: '=ART("BTC","PRICE")', value: "#NAME?" },
          A3: { value: "ETH price" },
          B3: { formula: '=ART("ETH","PRICE")', value: "#NAME?" },
          A4: { value: "SOL fees" },
          B4: { formula: '=ART("SOL","FEES")', value: "#NAME?" },
        },
      },
    ],
    activeSheet: DEMO_SHEET,
    selection: { sheet: DEMO_SHEET, areas: ["A3"] },
    results: {},
    runtimeStartedBy: "user",
    otherAddIns: [{ namespace: "ARTEMIS", functions: ["ART", "ARTRANGE", "ARTINFO"], loaded: false }],
  };
}

/** What the pane shows and uses of the demo workbook. */
export type { DemoWorkbook };

type FunctionsMetadata = { id: string; parameters: { dimensionality?: "scalar" | "matrix" }[] }[];

/** functions.json, as Excel reads it: which parameters take a range (a single value arrives as [[value]]). */
async function functionsMetadata(): Promise<FunctionsMetadata> {
  try {
    const response = await fetch(new URL("functions.json", document.baseURI));
    return ((await response.json()) as { functions: FunctionsMetadata }).functions;
  } catch {
    return []; // no functions.json: MD formulas keep their value, as in an Excel without the add-in
  }
}

export async function startDemoWorkbook(): Promise<DemoWorkbook> {
  const listeners = new Set<() => void>();
  const globals: Record<string, unknown> = {};
  const associated = pageFunctions(globalThis as unknown as Record<string, unknown>);
  const standIn = installWorkbookStandIn(globals, demoRecording(), {
    evaluate: runAssociatedFunctions(associated, await functionsMetadata()),
    changed: () => listeners.forEach((listener) => listener()),
  });
  const { Excel: excel, Office: office } = globals as unknown as ExcelWorkbookGlobals;
  return {
    standIn,
    services: {
      workbook: excelWorkbook(excel),
      migration: excelMigrationWorkbook(excel, office.context?.requirements),
      refresh: refreshActionsFor(createExcelWorkbook(globals as unknown as ExcelWorkbookGlobals)),
      // The stand-in raises Office's DocumentSelectionChanged when a grid cell is picked.
      trace: paneTraceForHost("Excel", () => findRuntime()?.records, globals),
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    Panel: DemoWorkbookPanel,
  };
}
