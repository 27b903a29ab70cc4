/**
 * A recorded workbook behind the subset of Office.js the refresh feature uses:
 * `Excel.run` with proxy objects, `load`, and `context.sync()`;
 * `Office.context.document.settings`; `Office.addin`; `Office.actions`.
 *
 * Why not office-addin-mock for this part: its mocks are property bags. A
 * write to `range.formulas` is stored and nothing else happens, so it cannot
 * show a formula recalculating (#BUSY! then a value), a spill growing into its
 * neighbours, a write into a spill breaking it (#SPILL!), or a sync failing on
 * a protected sheet — the behaviours refresh and freeze exist to handle. Its
 * `load("items/name")` also cannot navigate into a collection's items. The
 * Office.* parts are covered with office-addin-mock in refresh-on-open.test.ts.
 *
 * What this keeps from Office.js: reading a property that was not loaded and
 * synced throws; writes and loads queue and run in order at `sync()`; a sync
 * that fails applies the operations before the failing one; each `sync()` is
 * counted, so tests can hold the feature to its batching.
 *
 * `installWorkbookStandIn` is self-contained (no imports, no outer helpers) so
 * the browser test can hand it to `page.addInitScript` as is.
 */

export interface RecordedCell {
  /** "=..." for a formula cell. */
  formula?: string;
  /** The saved value (the formula's last result, or a constant). */
  value?: unknown;
  /** A saved dynamic-array result, anchor included; the cells it covers hold these values. */
  spill?: unknown[][];
}

export interface RecordedSheet {
  name: string;
  protected?: boolean;
  cells: Record<string, RecordedCell>;
}

/** What a formula evaluates to when (re)entered. */
export interface RecordedResult {
  value?: unknown;
  spill?: unknown[][];
  /** Milliseconds of #BUSY! before the result lands, like an async custom function. */
  afterMs?: number;
}

export interface WorkbookRecording {
  sheets: RecordedSheet[];
  activeSheet: string;
  selection: { sheet: string; areas: string[] };
  documentSettings?: Record<string, unknown>;
  customXmlParts?: { namespace: string; xml: string }[];
  /** By formula text. Formulas not listed are ordinary Excel formulas: re-entering them keeps their value at once. */
  results: Record<string, RecordedResult>;
  /** Cells whose writes Excel refuses (e.g. part of a legacy array formula). */
  refuseWrites?: { sheet: string; address: string }[];
  /** Set to make `setStartupBehavior` reject, as on a host without SharedRuntime 1.1. */
  startupBehaviorFails?: string;
}

export interface StandInLog {
  runs: number;
  syncs: number;
  formulaWrites: { sheet: string; address: string; formula: string }[];
  valueWrites: { sheet: string; address: string; value: unknown }[];
  settingsSaves: number;
  startupBehavior: string[];
  associated: string[];
}

export interface CellView {
  formula: string | null;
  value: unknown;
  type: string;
}

export interface WorkbookStandIn {
  log: StandInLog;
  cell(sheet: string, address: string): CellView;
  settings: Record<string, unknown>;
  customXmlParts(): { namespace: string; xml: string }[];
  /** Calls a ribbon command the add-in associated, with an event whose completion is observed. */
  runCommand(id: string): Promise<{ completed: boolean }>;
  /** Resolves once no cell is #BUSY!. */
  idle(): Promise<void>;
  select(sheet: string, areas: string[]): void;
}

/** Installs `Excel` and `Office` on `target` (globalThis in the page) and returns the handle tests inspect. */
export function installWorkbookStandIn(target: Record<string, unknown>, recording: WorkbookRecording): WorkbookStandIn {
  type Cell = {
    formula: string | null;
    value: unknown;
    spillOf: string | null;
    spill: { rows: number; cols: number } | null;
  };
  type Sheet = { name: string; protected: boolean; cells: Map<string, Cell> };
  type Rect = { top: number; left: number; bottom: number; right: number };

  const ERRORS = [
    "#N/A",
    "#VALUE!",
    "#REF!",
    "#DIV/0!",
    "#NUM!",
    "#NAME?",
    "#NULL!",
    "#SPILL!",
    "#CALC!",
    "#BUSY!",
    "#GETTING_DATA",
    "#CONNECT!",
    "#BLOCKED!",
  ];
  const log: StandInLog = {
    runs: 0,
    syncs: 0,
    formulaWrites: [],
    valueWrites: [],
    settingsSaves: 0,
    startupBehavior: [],
    associated: [],
  };
  const settings: Record<string, unknown> = { ...(recording.documentSettings ?? {}) };
  const savedSettings: Record<string, unknown> = { ...settings };
  const parts: { id: string; namespace: string; xml: string }[] = (recording.customXmlParts ?? []).map((p, i) => ({
    id: `part-${i}`,
    ...p,
  }));
  const actions = new Map<string, (event: { completed(): void }) => unknown>();
  const timers = new Set<unknown>();
  let idleWaiters: (() => void)[] = [];
  let selection = { sheet: recording.selection.sheet, areas: [...recording.selection.areas] };

  // ---- addresses ----
  const colIndex = (letters: string) =>
    [...letters.toUpperCase()].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
  const colLetters = (index: number) => {
    let s = "";
    for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
    return s;
  };
  const key = (row: number, col: number) => `${colLetters(col)}${row + 1}`;
  const parseCell = (a: string) => {
    const m = /^\$?([A-Z]+)\$?(\d+)$/i.exec(a);
    if (!m) throw officeError("InvalidArgument", `The argument is invalid or missing or has an incorrect format: ${a}`);
    return { row: Number(m[2]) - 1, col: colIndex(m[1]) };
  };
  const parseRect = (address: string): Rect => {
    const local = address.slice(address.lastIndexOf("!") + 1);
    const [a, b = a] = local.split(":");
    const p = parseCell(a);
    const q = parseCell(b);
    return {
      top: Math.min(p.row, q.row),
      left: Math.min(p.col, q.col),
      bottom: Math.max(p.row, q.row),
      right: Math.max(p.col, q.col),
    };
  };
  const rectText = (r: Rect) =>
    r.top === r.bottom && r.left === r.right ? key(r.top, r.left) : `${key(r.top, r.left)}:${key(r.bottom, r.right)}`;
  const sheetPrefix = (name: string) =>
    /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`;
  const grid = <T>(r: Rect, f: (row: number, col: number) => T): T[][] => {
    const out: T[][] = [];
    for (let row = r.top; row <= r.bottom; row += 1) {
      const line: T[] = [];
      for (let col = r.left; col <= r.right; col += 1) line.push(f(row, col));
      out.push(line);
    }
    return out;
  };

  function officeError(code: string, message: string): Error {
    const error = new Error(message) as Error & { code: string };
    error.name = "RichApi.Error";
    error.code = code;
    return error;
  }

  // ---- the workbook ----
  const sheets: Sheet[] = recording.sheets.map((s) => {
    const cells = new Map<string, Cell>();
    const sheet: Sheet = { name: s.name, protected: !!s.protected, cells };
    for (const [address, rec] of Object.entries(s.cells)) {
      const { row, col } = parseCell(address);
      const anchor = key(row, col);
      if (rec.spill) {
        rec.spill.forEach((line, r) =>
          line.forEach((value, c) => {
            if (r === 0 && c === 0) return;
            cells.set(key(row + r, col + c), { formula: null, value, spillOf: anchor, spill: null });
          }),
        );
      }
      cells.set(anchor, {
        formula: rec.formula ?? null,
        value: rec.spill ? rec.spill[0][0] : (rec.value ?? ""),
        spillOf: null,
        spill: rec.spill ? { rows: rec.spill.length, cols: rec.spill[0].length } : null,
      });
    }
    return sheet;
  });
  const sheetNamed = (name: string) => {
    const sheet = sheets.find((s) => s.name === name);
    if (!sheet) throw officeError("ItemNotFound", `The requested resource doesn't exist: worksheet "${name}".`);
    return sheet;
  };
  const read = (sheet: Sheet, row: number, col: number): Cell =>
    sheet.cells.get(key(row, col)) ?? { formula: null, value: "", spillOf: null, spill: null };
  const typeOf = (value: unknown) => {
    if (value === "" || value === null || value === undefined) return "Empty";
    if (typeof value === "number") return "Double";
    if (typeof value === "boolean") return "Boolean";
    if (typeof value === "string" && ERRORS.includes(value.toUpperCase())) return "Error";
    return "String";
  };
  const usedRect = (sheet: Sheet): Rect | null => {
    let r: Rect | null = null;
    for (const [address, cell] of sheet.cells) {
      if (cell.formula === null && (cell.value === "" || cell.value === null)) continue;
      const { row, col } = parseCell(address);
      r = r
        ? {
            top: Math.min(r.top, row),
            left: Math.min(r.left, col),
            bottom: Math.max(r.bottom, row),
            right: Math.max(r.right, col),
          }
        : { top: row, left: col, bottom: row, right: col };
    }
    return r;
  };

  function clearSpill(sheet: Sheet, anchor: string): void {
    const cell = sheet.cells.get(anchor);
    if (!cell?.spill) return;
    for (const [address, other] of [...sheet.cells]) if (other.spillOf === anchor) sheet.cells.delete(address);
    cell.spill = null;
  }

  /** A write into a cell a spill covers breaks that spill, as in Excel. */
  function breakSpillAt(sheet: Sheet, address: string): void {
    const cell = sheet.cells.get(address);
    if (!cell?.spillOf) return;
    const anchor = sheet.cells.get(cell.spillOf);
    const anchorAddress = cell.spillOf;
    clearSpill(sheet, anchorAddress);
    if (anchor) anchor.value = "#SPILL!";
  }

  function landResult(sheet: Sheet, address: string, formula: string, result: RecordedResult): void {
    const cell = sheet.cells.get(address);
    if (!cell || cell.formula !== formula) return; // rewritten or frozen meanwhile
    if (!result.spill) {
      cell.value = result.value ?? "";
      return;
    }
    const { row, col } = parseCell(address);
    const rows = result.spill.length;
    const cols = result.spill[0].length;
    for (let r = 0; r < rows; r += 1) {
      for (let c = 0; c < cols; c += 1) {
        if (r === 0 && c === 0) continue;
        const other = read(sheet, row + r, col + c);
        if (other.formula !== null || (other.value !== "" && other.spillOf !== address)) {
          cell.value = "#SPILL!";
          return;
        }
      }
    }
    result.spill.forEach((line, r) =>
      line.forEach((value, c) => {
        if (r === 0 && c === 0) return;
        sheet.cells.set(key(row + r, col + c), { formula: null, value, spillOf: address, spill: null });
      }),
    );
    cell.value = result.spill[0][0];
    cell.spill = { rows, cols };
  }

  function enterFormula(sheet: Sheet, address: string, formula: string): void {
    breakSpillAt(sheet, address);
    clearSpill(sheet, address);
    const previous = sheet.cells.get(address);
    const cell: Cell = {
      formula,
      value: previous?.formula === formula ? previous.value : "",
      spillOf: null,
      spill: null,
    };
    sheet.cells.set(address, cell);
    log.formulaWrites.push({ sheet: sheet.name, address, formula });
    const result = recording.results[formula];
    if (!result) return; // an ordinary formula: same inputs, same value, at once
    cell.value = "#BUSY!";
    const timer = setTimeout(() => {
      timers.delete(timer);
      landResult(sheet, address, formula, result);
      if (![...timers].length) {
        const waiters = idleWaiters;
        idleWaiters = [];
        waiters.forEach((w) => w());
      }
    }, result.afterMs ?? 20);
    timers.add(timer);
  }

  function enterValue(sheet: Sheet, address: string, value: unknown): void {
    if (typeof value === "string" && value.startsWith("=")) return enterFormula(sheet, address, value);
    breakSpillAt(sheet, address);
    clearSpill(sheet, address);
    log.valueWrites.push({ sheet: sheet.name, address, value });
    let stored = value;
    if (typeof value === "string" && value.startsWith("'")) stored = value.slice(1);
    else if (typeof value === "string" && value.trim() !== "" && !Number.isNaN(Number(value))) stored = Number(value);
    if (stored === "" || stored === null) sheet.cells.delete(address);
    else sheet.cells.set(address, { formula: null, value: stored, spillOf: null, spill: null });
  }

  function guardWrite(sheet: Sheet, rect: Rect): void {
    if (sheet.protected)
      throw officeError("AccessDenied", "The cell or chart you're trying to change is on a protected sheet.");
    for (const refused of recording.refuseWrites ?? []) {
      if (refused.sheet !== sheet.name) continue;
      const { row, col } = parseCell(refused.address);
      if (row >= rect.top && row <= rect.bottom && col >= rect.left && col <= rect.right) {
        throw officeError("InvalidOperation", `You can't change part of an array (${refused.address}).`);
      }
    }
  }

  // ---- request context: queued operations, loads, sync ----
  type Op = () => void;
  class Context {
    queue: Op[] = [];
    workbook: unknown;
    constructor() {
      this.workbook = makeWorkbook(this);
    }
    async sync(): Promise<void> {
      log.syncs += 1;
      const ops = this.queue;
      this.queue = [];
      await Promise.resolve();
      for (const op of ops) op();
    }
  }

  /** A proxy whose listed properties throw until loaded and synced, as Office.js does. */
  function proxy(
    context: Context,
    props: Record<string, () => unknown>,
    extra: Record<string, unknown> = {},
    writable: Record<string, (v: unknown) => void> = {},
  ): Record<string, unknown> {
    const loaded: Record<string, unknown> = {};
    const object: Record<string, unknown> = {
      ...extra,
      load(names?: string | string[]) {
        const list = (Array.isArray(names) ? names : String(names ?? "").split(","))
          .map((p) => p.trim())
          .filter(Boolean);
        context.queue.push(() => {
          for (const name of list.length ? list : Object.keys(props)) {
            if (!props[name]) throw officeError("PropertyNotLoaded", `Unknown property ${name}`);
            loaded[name] = props[name]();
          }
          // Office.js fills isNullObject with whatever else is loaded.
          if (props.isNullObject) loaded.isNullObject = props.isNullObject();
        });
        return object;
      },
    };
    for (const name of Object.keys(props)) {
      Object.defineProperty(object, name, {
        enumerable: true,
        get() {
          if (!(name in loaded)) {
            throw officeError(
              "PropertyNotLoaded",
              `The property '${name}' is not available. Before reading the property's value, call the load method on the containing object and call "context.sync()" on the associated request context.`,
            );
          }
          return loaded[name];
        },
        set(value: unknown) {
          const write = writable[name];
          if (!write) throw new TypeError(`${name} is read-only`);
          context.queue.push(() => write(value));
        },
      });
    }
    return object;
  }

  function makeRange(context: Context, sheet: Sheet, locate: () => Rect | null): Record<string, unknown> {
    const rect = () => {
      const r = locate();
      if (!r) throw officeError("ItemNotFound", "The range does not exist.");
      return r;
    };
    const cells = <T>(f: (cell: Cell) => T) => {
      const r = locate();
      return r ? grid(r, (row, col) => f(read(sheet, row, col))) : null;
    };
    return proxy(
      context,
      {
        isNullObject: () => locate() === null,
        address: () => {
          const r = locate();
          return r ? `${sheetPrefix(sheet.name)}!${rectText(r)}` : null;
        },
        formulas: () => cells((cell) => cell.formula ?? cell.value),
        values: () => cells((cell) => cell.value),
        valueTypes: () => cells((cell) => typeOf(cell.value)),
      },
      {
        getSpillingToRangeOrNullObject: () =>
          makeRange(context, sheet, () => {
            const r = rect();
            const cell = read(sheet, r.top, r.left);
            return cell.spill
              ? { top: r.top, left: r.left, bottom: r.top + cell.spill.rows - 1, right: r.left + cell.spill.cols - 1 }
              : null;
          }),
        getCell: (row: number, col: number) =>
          makeRange(context, sheet, () => {
            const r = rect();
            return { top: r.top + row, left: r.left + col, bottom: r.top + row, right: r.left + col };
          }),
      },
      {
        formulas: (value) => {
          const r = rect();
          guardWrite(sheet, r);
          const rows = value as unknown[][];
          rows.forEach((line, i) => line.forEach((f, j) => enterValue(sheet, key(r.top + i, r.left + j), f)));
        },
        values: (value) => {
          const r = rect();
          guardWrite(sheet, r);
          const rows = value as unknown[][];
          rows.forEach((line, i) => line.forEach((v, j) => enterValue(sheet, key(r.top + i, r.left + j), v)));
        },
      },
    );
  }

  function makeWorksheet(context: Context, name: () => string): Record<string, unknown> {
    const sheet = () => sheetNamed(name());
    return proxy(
      context,
      { name: () => sheet().name },
      {
        protection: proxy(context, { protected: () => sheet().protected }),
        getRange: (address: string) => makeRange(context, sheet(), () => parseRect(address)),
        getUsedRangeOrNullObject: () => makeRange(context, sheet(), () => usedRect(sheet())),
      },
    );
  }

  function makeWorkbook(context: Context): Record<string, unknown> {
    const items: Record<string, unknown>[] = [];
    const worksheets = proxy(
      context,
      { items: () => items },
      {
        getItem: (name: string) => makeWorksheet(context, () => name),
        getActiveWorksheet: () => makeWorksheet(context, () => recording.activeSheet),
      },
    );
    const originalLoad = worksheets.load as (p?: string) => unknown;
    worksheets.load = (props?: string) => {
      context.queue.push(() => {
        items.length = 0;
        for (const s of sheets) {
          const ws = makeWorksheet(context, () => s.name);
          (ws.load as (p: string) => void)("name");
          items.push(ws);
        }
      });
      // The nested loads queued above run in the same sync, right after.
      context.queue.push(() => {
        const ops = context.queue.splice(0);
        ops.forEach((op) => op());
      });
      originalLoad(String(props ?? "").startsWith("items") ? "items" : props);
      return worksheets;
    };

    const scoped = (namespace: string) => {
      const found: Record<string, unknown>[] = [];
      const collection = proxy(context, { items: () => found });
      const load = collection.load as (p?: string) => unknown;
      collection.load = () => {
        context.queue.push(() => {
          found.length = 0;
          for (const part of parts.filter((p) => p.namespace === namespace)) {
            let xml: { value: unknown } = { value: undefined };
            found.push({
              id: part.id,
              getXml: () => {
                const result = {
                  get value() {
                    if (xml.value === undefined)
                      throw officeError("PropertyNotLoaded", "ClientResult value read before sync");
                    return xml.value;
                  },
                };
                context.queue.push(() => {
                  xml = { value: part.xml };
                });
                return result;
              },
              setXml: (text: string) => context.queue.push(() => void (part.xml = text)),
            });
          }
        });
        load("items");
        return collection;
      };
      return collection;
    };

    return {
      worksheets,
      // The active cell's range: the task pane's Insert writes into its first cell.
      getSelectedRange: () =>
        makeRange(context, sheetNamed(selection.sheet), () => parseRect(selection.areas[0])),
      getSelectedRanges: () => {
        const sheet = () => sheetNamed(selection.sheet);
        const areaItems = () => selection.areas.map((area) => makeRange(context, sheet(), () => parseRect(area)));
        const areas: Record<string, unknown> = {
          items: [] as unknown[],
          load: () => {
            context.queue.push(() => {
              const list = areaItems();
              list.forEach((a) => (a.load as (p: string) => void)("address"));
              areas.items = list;
            });
            context.queue.push(() => context.queue.splice(0).forEach((op) => op()));
            return areas;
          },
        };
        return { areas, worksheet: makeWorksheet(context, () => selection.sheet) };
      },
      customXmlParts: {
        getByNamespace: scoped,
        add: (xml: string) => {
          const namespace = /xmlns="([^"]+)"/.exec(xml)?.[1] ?? "";
          context.queue.push(() => void parts.push({ id: `part-${parts.length}`, namespace, xml }));
        },
      },
    };
  }

  // ---- globals ----
  const excel = {
    run: async <T>(batch: (context: Context) => Promise<T>): Promise<T> => {
      log.runs += 1;
      const context = new Context();
      const result = await batch(context);
      if (context.queue.length) await context.sync();
      return result;
    },
  };

  const office = {
    HostType: { Excel: "Excel" },
    StartupBehavior: { load: "Load", none: "None" },
    AsyncResultStatus: { Succeeded: "succeeded", Failed: "failed" },
    onReady: (callback?: (info: unknown) => void) => {
      const info = { host: "Excel", platform: "OfficeOnline" };
      callback?.(info);
      return Promise.resolve(info);
    },
    context: {
      host: "Excel",
      requirements: { isSetSupported: () => true },
      document: {
        settings: {
          get: (name: string) => (name in settings ? settings[name] : null),
          set: (name: string, value: unknown) => void (settings[name] = value),
          remove: (name: string) => void delete settings[name],
          saveAsync: (callback?: (result: { status: string }) => void) => {
            setTimeout(() => {
              Object.assign(savedSettings, settings);
              log.settingsSaves += 1;
              callback?.({ status: "succeeded" });
            }, 0);
          },
        },
      },
    },
    addin: {
      setStartupBehavior: async (behavior: string) => {
        if (recording.startupBehaviorFails) throw new Error(recording.startupBehaviorFails);
        log.startupBehavior.push(behavior);
      },
      getStartupBehavior: async () => log.startupBehavior[log.startupBehavior.length - 1] ?? "None",
    },
    actions: {
      associate: (id: string, action: (event: { completed(): void }) => unknown) => {
        log.associated.push(id);
        actions.set(id, action);
      },
    },
  };

  target.Excel = excel;
  target.Office = office;

  return {
    log,
    settings: savedSettings,
    cell(sheetName, address) {
      const sheet = sheetNamed(sheetName);
      const { row, col } = parseCell(address);
      const cell = read(sheet, row, col);
      return { formula: cell.formula, value: cell.value, type: typeOf(cell.value) };
    },
    customXmlParts: () => parts.map(({ namespace, xml }) => ({ namespace, xml })),
    async runCommand(id) {
      const action = actions.get(id);
      if (!action)
        throw new Error(`No command "${id}" was associated (have: ${[...actions.keys()].join(", ") || "none"}).`);
      let completed = false;
      await action({ completed: () => void (completed = true) });
      return { completed };
    },
    idle: () => (timers.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve))),
    select(sheet, areas) {
      selection = { sheet, areas };
    },
  };
}
