/**
 * The request context and proxy objects: Excel.RequestContext
 * (https://learn.microsoft.com/en-us/javascript/api/excel/excel.requestcontext)
 * and the load/sync model of Microsoft Learn's "Application-specific API
 * model" (https://learn.microsoft.com/en-us/office/dev/add-ins/develop/application-specific-api-model).
 *
 * What this keeps from Office.js: reading a property that was not loaded and
 * synced throws (PropertyNotLoaded); writes and loads queue and run in order
 * at `sync()`; a sync that fails applies the operations before the failing
 * one; each `sync()` is counted, so tests can hold the feature to its
 * batching. A collection's `load("items/name")` loads each item's properties
 * in the same sync. An API call that needs a newer ExcelApi than the host has
 * fails at sync (ApiNotFound) and is logged. A sync whose request or
 * response is over Excel on the web's 5 MB fails whole, as payload.ts models
 * it: the objects made, the calls queued and the values written or read are
 * counted per sync.
 */
import { officeError } from "./addresses";
import { type Model, type Sheet, supports, type UndoEntry } from "./model";
import {
  emptyPayload,
  jsonBytes,
  type Payload,
  refuseOversizedRequest,
  refuseOversizedResponse,
  requestBytes,
} from "./payload";

export type Op = () => void;

/** The objects a context hands out, made once it exists (workbook.ts; worksheet.ts for a range's `worksheet`). */
export interface ContextObjects {
  workbook: unknown;
  application: unknown;
  worksheetOf: (sheet: Sheet) => Record<string, unknown>;
}

export class Context {
  queue: Op[] = [];
  workbook: unknown;
  application: unknown;
  /** Range.worksheet: the sheet's proxy (made by worksheet.ts, which itself makes ranges). */
  worksheetOf: (sheet: Sheet) => Record<string, unknown>;
  /** With mergeUndoGroup on a host that has it: the one undo step of the whole Excel.run. */
  mergedUndo: UndoEntry[] | null = null;
  /** What the next sync carries (payload.ts). */
  payload: Payload = emptyPayload();
  /** What the running sync's loads return (payload.ts). */
  responseBytes = 0;
  constructor(
    readonly model: Model,
    objects: (context: Context) => ContextObjects,
  ) {
    const made = objects(this);
    this.workbook = made.workbook;
    this.application = made.application;
    this.worksheetOf = made.worksheetOf;
  }
  async sync(): Promise<void> {
    const m = this.model;
    m.log.syncs += 1;
    const ops = this.queue;
    this.queue = [];
    const payload = this.payload;
    this.payload = emptyPayload();
    await Promise.resolve();
    m.log.largestRequestBytes = Math.max(m.log.largestRequestBytes, requestBytes(payload, ops.length));
    try {
      refuseOversizedRequest(payload, ops.length);
    } catch (error) {
      m.log.payloadRefusals += 1;
      throw error;
    }
    this.run(ops);
  }
  /** Makes one object in the next sync's request (a range, a worksheet by name). */
  countObject(): void {
    this.payload.objects += 1;
  }
  private run(ops: Op[]): void {
    const m = this.model;
    this.responseBytes = 0;
    const step = this.mergedUndo ?? [];
    m.undoStep = step;
    try {
      for (const op of ops) op();
    } finally {
      m.undoStep = null;
      if (step.length > 0 && !m.undoStack.includes(step)) m.undoStack.push(step);
      m.hooks.changed?.();
    }
    m.log.largestResponseBytes = Math.max(m.log.largestResponseBytes, this.responseBytes);
    try {
      refuseOversizedResponse(this.responseBytes);
    } catch (error) {
      m.log.payloadRefusals += 1;
      throw error;
    }
  }
}

/** An API call that needs `minVersion`: on a host without it the batch fails at sync, as Office.js does. */
export function needs(context: Context, name: string, minVersion: string, op: Op): void {
  const m = context.model;
  context.queue.push(() => {
    if (!supports(m, "ExcelApi", minVersion)) {
      m.log.unsupportedCalls.push(name);
      throw officeError("ApiNotFound", `${name} needs ExcelApi ${minVersion}; this host has ${m.excelApi}.`);
    }
    op();
  });
}

/** A proxy whose listed properties throw until loaded and synced, as Office.js does. */
export function proxy(
  context: Context,
  props: Record<string, () => unknown>,
  extra: Record<string, unknown> = {},
  writable: Record<string, (v: unknown) => void> = {},
  cellCount: () => number = () => 0,
): Record<string, unknown> {
  const loaded: Record<string, unknown> = {};
  const object: Record<string, unknown> = {
    ...extra,
    load(names?: string | string[]) {
      const list = (Array.isArray(names) ? names : String(names ?? "").split(",")).map((p) => p.trim()).filter(Boolean);
      context.queue.push(() => {
        for (const name of list.length ? list : Object.keys(props)) {
          if (!props[name]) throw officeError("PropertyNotLoaded", `Unknown property ${name}`);
          if (name === "formulas" || name === "values" || name === "valueTypes")
            context.model.log.cellsLoaded += cellCount();
          loaded[name] = props[name]();
          context.responseBytes += jsonBytes(loaded[name]);
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
        context.payload.valueBytes += jsonBytes(value);
        context.queue.push(() => write(value));
      },
    });
  }
  return object;
}

/** A collection whose `load("items/…")` loads those properties of each item in the same sync. */
export function collection(context: Context, list: () => Record<string, unknown>[]): Record<string, unknown> {
  const result: Record<string, unknown> = { items: [] as unknown[] };
  result.load = (names?: string) => {
    const inner = String(names ?? "")
      .split(",")
      .map((n) => n.trim().replace(/^items\//, ""))
      .filter(Boolean)
      .join(",");
    context.queue.push(() => {
      const items = list();
      items.forEach((item) => (item.load as (p: string) => void)(inner));
      result.items = items;
    });
    // The item loads queued above run in the same sync, right after.
    context.queue.push(() => context.queue.splice(0).forEach((op) => op()));
    return result;
  };
  return result;
}
