/**
 * The workbook as refresh and freeze see it (src/refresh/workbook-adapter.ts),
 * implemented with `Excel.run`, `Office.context.document.settings` and
 * `Office.addin`. Thin on purpose: it moves data in and out in as few syncs as
 * Excel's limits allow; the one rule it keeps itself is the re-check before a
 * rewrite, because only a read in the same batch as the write is current.
 *
 * APIs used, each feature-detected with Office.context.requirements.isSetSupported:
 * ExcelApi 1.4 (getUsedRangeOrNullObject(valuesOnly)), 1.5 (custom XML
 * parts), 1.9 (getSpecialCellsOrNullObject, getSelectedRanges; without them
 * every used cell is read), 1.12 (getSpillingToRangeOrNullObject,
 * getSpillParentOrNullObject; without them every formula counts as one cell,
 * which is right for an Excel without dynamic arrays), SharedRuntime 1.1
 * (setStartupBehavior).
 *
 * The freeze log is a custom XML part in the workbook, namespace
 * FREEZE_LOG_NAMESPACE: it travels with the file, is invisible in the grid,
 * adds no sheet (so nothing shifts sheet indexes or breaks a protected
 * workbook structure), has no size limit worth the name (document settings
 * do), and any tool that opens the .xlsx package can read it. It holds cell
 * addresses, formula text and times — never a key.
 */
import {
  cellAddress,
  cellCount,
  cellsOf,
  parseRange,
  rectAddress,
  rowBands,
  withoutSheet,
  type Rect,
} from "../refresh/a1";
import { holdsFormula, planBlocks, type FormulaCell } from "../refresh/formula-cells";
import type {
  CellResult,
  FormulaBlock,
  FormulaReading,
  FormulaRestore,
  FreezeRecord,
  RestoreOutcome,
  RangeValues,
  RewriteOutcome,
  SheetScan,
  CalculationMode,
  StartupBehavior,
  ValueBlock,
  ValueType,
  WorkbookAdapter,
} from "../refresh/workbook-adapter";

export const FREEZE_LOG_NAMESPACE = "urn:market-data-for-excel:freeze-log:1";

/**
 * Cells per sync. Excel on the web caps a request or response at 5 MB; 20,000
 * cells of formula text or values stays well below it, and a sheet with a few
 * thousand MD cells still goes in one sync.
 */
export const MAX_CELLS_PER_SYNC = 20_000;

export interface ExcelLike {
  run<T>(batch: (context: Excel.RequestContext) => Promise<T>): Promise<T>;
  run<T>(options: Excel.RunOptions, batch: (context: Excel.RequestContext) => Promise<T>): Promise<T>;
}

export interface OfficeLike {
  context: {
    document: { settings: Pick<Office.Settings, "get" | "set" | "saveAsync"> };
    requirements?: { isSetSupported(name: string, minVersion?: string): boolean };
  };
  addin: Pick<Office.Addin, "setStartupBehavior"> & Partial<Pick<Office.Addin, "getStartupBehavior">>;
  StartupBehavior: { load: Office.StartupBehavior; none: Office.StartupBehavior };
}

export interface ExcelWorkbookGlobals {
  Excel: ExcelLike;
  Office: OfficeLike;
}

/** True when the Excel and document APIs this feature needs are present (inside Excel, after Office.onReady). */
export function excelWorkbookAvailable(
  globals: Partial<ExcelWorkbookGlobals> = globalThis as Partial<ExcelWorkbookGlobals>,
): boolean {
  return (
    typeof globals.Excel?.run === "function" && typeof globals.Office?.context?.document?.settings?.get === "function"
  );
}

export function createExcelWorkbook(
  globals: ExcelWorkbookGlobals = globalThis as unknown as ExcelWorkbookGlobals,
): WorkbookAdapter {
  const { Excel: excel, Office: office } = globals;
  /** Feature detection by requirement set; a host that cannot say is assumed current. */
  const supports = (version: string) => office.context.requirements?.isSetSupported("ExcelApi", version) ?? true;
  const spillsSupported = () => supports("1.12");

  /** Queues per-block work, syncing whenever MAX_CELLS_PER_SYNC cells are pending. */
  async function inChunks<T extends { address: string }>(
    context: Excel.RequestContext,
    items: readonly T[],
    queue: (item: T) => void,
  ): Promise<void> {
    let pending = 0;
    for (const item of items) {
      queue(item);
      pending += cellCount(parseRange(item.address));
      if (pending >= MAX_CELLS_PER_SYNC) {
        await context.sync();
        pending = 0;
      }
    }
    if (pending > 0) await context.sync();
  }

  async function loadValues(
    context: Excel.RequestContext,
    sheet: Excel.Worksheet,
    addresses: readonly string[],
  ): Promise<RangeValues[]> {
    const ranges: Excel.Range[] = [];
    await inChunks(
      context,
      addresses.map((address) => ({ address })),
      ({ address }) => {
        const range = sheet.getRange(address);
        range.load("values,valueTypes");
        ranges.push(range);
      },
    );
    return ranges.map((range, i) => ({
      address: addresses[i],
      values: range.values,
      types: range.valueTypes as ValueType[][],
    }));
  }

  return {
    capabilities: () => ({ calculate: supports("1.6"), mergeUndo: supports("1.20") }),

    calculationMode: () =>
      excel.run(async (context) => {
        context.application.load("calculationMode");
        await context.sync();
        return context.application.calculationMode as CalculationMode;
      }),

    recalculate: (name, addresses) =>
      // Range.calculate (ExcelApi 1.6): "Calculates a range of cells on a worksheet."
      // https://learn.microsoft.com/javascript/api/excel/excel.range#excel-excel-range-calculate-member(1)
      // It re-runs custom functions in the range (office-js #576, where Excel on the web re-ran too many).
      excel.run({ delayForCellEdit: true }, async (context) => {
        const sheet = context.workbook.worksheets.getItem(name);
        await inChunks(
          context,
          addresses.map((address) => ({ address })),
          ({ address }) => sheet.getRange(address).calculate(),
        );
      }),

    listSheets: () =>
      excel.run(async (context) => {
        const sheets = context.workbook.worksheets;
        sheets.load("items/name");
        await context.sync();
        return sheets.items.map((sheet) => sheet.name);
      }),

    readFormulaCells: (name) =>
      excel.run(async (context): Promise<SheetScan> => {
        const sheet = context.workbook.worksheets.getItem(name);
        sheet.protection.load("protected");
        // Values only: a sheet formatted down to row 1,048,576 is not a million used cells.
        const used = sheet.getUsedRangeOrNullObject(true);
        used.load("address");
        await context.sync();
        const isProtected = sheet.protection.protected;
        if (used.isNullObject) return { name, protected: isProtected, cells: [] };

        // Formula cells only (ExcelApi 1.9): the reads cost what the sheet's formulas cost, not its size.
        // https://learn.microsoft.com/office/dev/add-ins/excel/excel-add-ins-ranges-special-cells
        let areas = [withoutSheet(used.address)];
        if (supports("1.9")) {
          const special = used.getSpecialCellsOrNullObject("Formulas");
          special.load("address");
          await context.sync();
          if (special.isNullObject) return { name, protected: isProtected, cells: [] };
          areas = areaAddresses(special.address);
        }

        const bands = areas.flatMap((area) => rowBands(parseRange(area), MAX_CELLS_PER_SYNC).map(rectAddress));
        const ranges: { rect: Rect; range: Excel.Range }[] = [];
        await inChunks(
          context,
          bands.map((address) => ({ address })),
          ({ address }) => {
            const range = sheet.getRange(address);
            range.load("formulas,values");
            ranges.push({ rect: parseRange(address), range });
          },
        );
        const cells: FormulaReading[] = [];
        for (const { rect, range } of ranges) {
          range.formulas.forEach((line, r) =>
            line.forEach((formula, c) => {
              if (typeof formula !== "string" || !formula.startsWith("=")) return;
              cells.push({ address: cellAddress(rect.top + r, rect.left + c), formula, value: range.values[r][c] });
            }),
          );
        }
        return { name, protected: isProtected, cells };
      }),

    rewriteFormulas: (name, blocks: readonly FormulaBlock[]) =>
      // delayForCellEdit: wait while the user is typing in a cell rather than fail the batch.
      // mergeUndoGroup (ExcelApi 1.20): "all context.sync() calls in a single Excel.run are merged into one undo group".
      excel.run(
        { delayForCellEdit: true, ...(supports("1.20") ? { mergeUndoGroup: true } : {}) },
        async (context): Promise<RewriteOutcome> => {
          const sheet = context.workbook.worksheets.getItem(name);
          const expected = new Map<string, string>();
          for (const block of blocks) {
            const rect = parseRange(block.address);
            block.formulas.forEach((line, r) =>
              line.forEach((formula, c) => expected.set(cellAddress(rect.top + r, rect.left + c), formula)),
            );
          }

          // Re-read at the moment of writing: the scan may be seconds old, and the user or a co-author may have typed since.
          const reads: { block: FormulaBlock; range: Excel.Range }[] = [];
          const parents = new Map<string, Excel.Range>();
          await inChunks(context, blocks, (block) => {
            const range = sheet.getRange(block.address);
            range.load("formulas,values");
            reads.push({ block, range });
            if (spillsSupported()) {
              const rect = parseRange(block.address);
              for (let row = rect.top; row <= rect.bottom; row += 1) {
                for (let col = rect.left; col <= rect.right; col += 1) {
                  const parent = range.getCell(row - rect.top, col - rect.left).getSpillParentOrNullObject();
                  parent.load("address");
                  parents.set(cellAddress(row, col), parent);
                }
              }
            }
          });

          const unchanged: FormulaCell[] = [];
          const changed: string[] = [];
          const spilled: string[] = [];
          for (const { block, range } of reads) {
            const rect = parseRange(block.address);
            range.formulas.forEach((line, r) =>
              line.forEach((formula, c) => {
                const address = cellAddress(rect.top + r, rect.left + c);
                const parent = parents.get(address);
                const spilledFromElsewhere = parent && !parent.isNullObject && withoutSheet(parent.address) !== address;
                if (spilledFromElsewhere) spilled.push(address);
                else if (formula === expected.get(address) && holdsFormula({ formula, value: range.values[r][c] }))
                  unchanged.push({ row: rect.top + r, col: rect.left + c, address, formula: formula as string });
                else changed.push(address);
              }),
            );
          }

          const writes = planBlocks(unchanged);
          const refused: RewriteOutcome["refused"] = [];
          try {
            await inChunks(context, writes, (block) => {
              sheet.getRange(block.address).formulas = block.formulas;
            });
          } catch {
            // One refused block (a legacy array formula, a locked cell) fails the batch: try each on its own.
            // Rewriting a block the failed batch had already applied only runs its functions once more.
            for (const block of writes) {
              try {
                sheet.getRange(block.address).formulas = block.formulas;
                await context.sync();
              } catch (error) {
                refused.push({
                  address: block.address,
                  reason: error instanceof Error ? error.message : String(error),
                });
              }
            }
          }
          const refusedCells = new Set(refused.flatMap((r) => cellsOf(r.address)));
          return {
            written: unchanged.map((cell) => cell.address).filter((address) => !refusedCells.has(address)),
            changed,
            spilled,
            refused,
          };
        },
      ),

    readValues: (name, addresses) =>
      excel.run((context) => loadValues(context, context.workbook.worksheets.getItem(name), addresses)),

    readResults: (name, addresses) =>
      excel.run(async (context) => {
        const sheet = context.workbook.worksheets.getItem(name);
        // First where each result is (a spill's size is unknown until loaded), then its values in chunks.
        let ranges = [...addresses];
        if (spillsSupported()) {
          const spills = addresses.map((address) => {
            const spill = sheet.getRange(address).getSpillingToRangeOrNullObject();
            spill.load("address");
            return spill;
          });
          await context.sync();
          ranges = spills.map((spill, i) => (spill.isNullObject ? addresses[i] : withoutSheet(spill.address)));
        }
        const values = await loadValues(context, sheet, ranges);
        return values.map((result, i): CellResult => ({ ...result, address: addresses[i], range: ranges[i] }));
      }),

    writeValues: (name, blocks: readonly ValueBlock[]) =>
      excel.run(async (context) => {
        const sheet = context.workbook.worksheets.getItem(name);
        await inChunks(context, blocks, (block) => {
          sheet.getRange(block.address).values = block.values as Excel.Range["values"];
        });
      }),

    getSelection: () =>
      excel.run(async (context) => {
        const selected = context.workbook.getSelectedRanges();
        selected.areas.load("items/address");
        selected.worksheet.load("name");
        await context.sync();
        return {
          sheet: selected.worksheet.name,
          areas: selected.areas.items.map((area) => withoutSheet(area.address)),
        };
      }),

    getActiveSheet: () =>
      excel.run(async (context) => {
        const sheet = context.workbook.worksheets.getActiveWorksheet();
        sheet.load("name");
        await context.sync();
        return sheet.name;
      }),

    getDocumentSetting: (key) => office.context.document.settings.get(key),

    setDocumentSetting: (key, value) =>
      new Promise<void>((resolve, reject) => {
        const settings = office.context.document.settings;
        settings.set(key, value);
        settings.saveAsync((result) => {
          // office.js reports the status as the string "failed"; the typings declare a numeric enum.
          if (String(result.status) === "failed")
            reject(new Error(`The workbook did not save the setting: ${result.error?.message ?? "unknown error"}`));
          else resolve();
        });
      }),

    setStartupBehavior: (behavior: StartupBehavior) =>
      office.addin.setStartupBehavior(behavior === "load" ? office.StartupBehavior.load : office.StartupBehavior.none),

    getStartupBehavior: async () => {
      if (typeof office.addin.getStartupBehavior !== "function") return null;
      const behavior = String(await office.addin.getStartupBehavior());
      return behavior === String(office.StartupBehavior.load) ? "load" : "none";
    },

    restoreFormulas: (name, restores: readonly FormulaRestore[]) =>
      excel.run(
        { delayForCellEdit: true, ...(supports("1.20") ? { mergeUndoGroup: true } : {}) },
        async (context): Promise<RestoreOutcome> => {
          const sheet = context.workbook.worksheets.getItem(name);
          const reads = restores.map((restore) => {
            const range = sheet.getRange(restore.range);
            range.load("formulas,values");
            return { restore, range };
          });
          await context.sync();
          const outcome: RestoreOutcome = { restored: [], changed: [], refused: [] };
          const chosen = reads.filter(({ restore, range }) => {
            const noFormula = range.formulas.every((line, r) =>
              line.every((formula, c) => !holdsFormula({ formula, value: range.values[r][c] })),
            );
            const same = noFormula && restore.unchanged(range.values as unknown[][]);
            if (!same) outcome.changed.push(restore.address);
            return same;
          });
          // Clear first (a formula cannot spill over the frozen values), then enter the formula in its cell.
          const apply = (restore: FormulaRestore) => {
            sheet.getRange(restore.range).clear("Contents");
            sheet.getRange(restore.address).formulas = [[restore.formula]];
          };
          try {
            chosen.forEach(({ restore }) => apply(restore));
            await context.sync();
            outcome.restored.push(...chosen.map(({ restore }) => restore.address));
          } catch {
            for (const { restore } of chosen) {
              try {
                apply(restore);
                await context.sync();
                outcome.restored.push(restore.address);
              } catch (error) {
                outcome.refused.push({
                  address: restore.address,
                  reason: error instanceof Error ? error.message : String(error),
                });
              }
            }
          }
          return outcome;
        },
      ),

    readFreezeLog: () =>
      excel.run(async (context) => {
        const parts = context.workbook.customXmlParts.getByNamespace(FREEZE_LOG_NAMESPACE);
        parts.load("items/id");
        await context.sync();
        if (parts.items.length === 0) return [];
        const xml = parts.items[0].getXml();
        await context.sync();
        return parseFreezeLog(xml.value);
      }),

    writeFreezeLog: (records) =>
      excel.run(async (context) => {
        const parts = context.workbook.customXmlParts.getByNamespace(FREEZE_LOG_NAMESPACE);
        parts.load("items/id");
        await context.sync();
        const xml = serializeFreezeLog(records);
        if (parts.items.length === 0) context.workbook.customXmlParts.add(xml);
        else parts.items[0].setXml(xml);
        await context.sync();
      }),
  };
}

/**
 * The areas of a RangeAreas address, which names the sheet before each area:
 * "Sheet1!A1:B4, Sheet1!D1:D4" (Excel.RangeAreas.address). A quoted sheet name
 * may itself contain ", " or "!", so each area is taken as the A1 reference
 * that follows a "!" and ends at a comma or the end.
 */
export function areaAddresses(address: string): string[] {
  return Array.from(
    address.matchAll(/!(\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?)(?=\s*,|\s*$)/g),
    (m) => m[1],
  );
}

const RECORD_ATTRIBUTES = ["sheet", "address", "range", "frozenAt"] as const;
/** Written when present; logs written before it have none. */
const OPTIONAL_ATTRIBUTES = ["valuesHash"] as const;

/**
 * Each field escaped to printable ASCII: a backslash is doubled and every
 * character outside printable ASCII becomes `\uXXXX`. XML 1.0 cannot hold most
 * control characters, U+FFFE/U+FFFF or a lone surrogate at all, turns CR LF
 * into LF in text and tabs and line breaks into spaces in attributes; a
 * formula may contain any of them (a pasted string literal). Escaped, every
 * character survives, and ordinary text (`B2`, `=MD.LATEST("eth","PRICE")`)
 * reads as is in the .xlsx package.
 */
function encodeField(value: string): string {
  return value.replace(/\\|[^\x20-\x7e]/g, (ch) =>
    ch === "\\" ? "\\\\" : `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** The inverse of encodeField; null when the text is not something it wrote. */
function decodeField(text: string): string | null {
  let out = "";
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (ch !== "\\") {
      out += ch;
    } else if (text[i + 1] === "\\") {
      out += "\\";
      i += 1;
    } else if (text[i + 1] === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
      out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
      i += 5;
    } else {
      return null;
    }
  }
  return out;
}

/** `<freezeLog xmlns="…"><frozen encoding="escaped" sheet address range frozenAt>formula</frozen>…</freezeLog>`, built with the DOM's XML tools. */
export function serializeFreezeLog(records: readonly FreezeRecord[]): string {
  const doc = document.implementation.createDocument(FREEZE_LOG_NAMESPACE, "freezeLog", null);
  for (const record of records) {
    const element = doc.createElementNS(FREEZE_LOG_NAMESPACE, "frozen");
    element.setAttribute("encoding", "escaped");
    for (const name of RECORD_ATTRIBUTES) element.setAttribute(name, encodeField(record[name]));
    for (const name of OPTIONAL_ATTRIBUTES) {
      const value = record[name];
      if (value !== undefined) element.setAttribute(name, encodeField(value));
    }
    element.textContent = encodeField(record.formula);
    doc.documentElement.appendChild(element);
  }
  return new XMLSerializer().serializeToString(doc);
}

/** Reads the log; throws when it is not valid XML or an entry is damaged, so a freeze never writes over a log it could not read. */
export function parseFreezeLog(xml: string): FreezeRecord[] {
  const doc = new DOMParser().parseFromString(xml, "application/xml");
  if (doc.getElementsByTagName("parsererror").length > 0)
    throw new Error("The workbook's freeze log is not valid XML.");
  return Array.from(doc.getElementsByTagNameNS(FREEZE_LOG_NAMESPACE, "frozen"), (element, i) => {
    // Logs written before the encoding attribute hold the fields as plain text.
    const escaped = element.getAttribute("encoding") === "escaped";
    const field = (raw: string | null): string => {
      if (!escaped) return raw ?? "";
      const value = decodeField(raw ?? "");
      if (value === null) throw new Error(`The workbook's freeze log is damaged (entry ${i + 1}).`);
      return value;
    };
    const record: FreezeRecord = {
      sheet: field(element.getAttribute("sheet")),
      address: field(element.getAttribute("address")),
      range: field(element.getAttribute("range")),
      frozenAt: field(element.getAttribute("frozenAt")),
      formula: field(element.textContent),
    };
    for (const name of OPTIONAL_ATTRIBUTES) {
      const raw = element.getAttribute(name);
      if (raw !== null) record[name] = field(raw);
    }
    return record;
  });
}
