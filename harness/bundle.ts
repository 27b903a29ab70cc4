/**
 * Loads the BUILT dist/functions.js the way Excel's custom-functions runtime
 * does: a fresh JavaScript context with only the Office globals it provides
 * (CustomFunctions, OfficeRuntime, Office) plus the web platform basics (fetch,
 * timers, AbortController). No window, no document: if the bundle needs the DOM
 * or the task-pane code, loading it fails here.
 *
 * Functions are then called by id with the argument conventions Excel uses:
 * omitted optional arguments are null, matrix parameters receive 2-D arrays,
 * and an invocation object is passed last.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { ErrorCode } from "./workbook-stand-in/functions-runtime";

export const DIST = path.resolve(__dirname, "../dist");

export interface FunctionParameter {
  name: string;
  description?: string;
  type?: string;
  dimensionality?: "scalar" | "matrix";
  optional?: boolean;
}

export interface FunctionMetadata {
  id: string;
  name: string;
  description?: string;
  helpUrl?: string;
  parameters: FunctionParameter[];
  result: { type?: string; dimensionality?: "scalar" | "matrix" };
  options?: { cancelable?: boolean; requiresAddress?: boolean; stream?: boolean; volatile?: boolean };
}

/** Excel's error codes, as CustomFunctions.ErrorCode spells them (the stand-in's, which the page needs too). */
export { ErrorCode };

/** Stand-in for CustomFunctions.Error; the bundle constructs these. */
export class CustomFunctionsError extends Error {
  constructor(
    public readonly code: string,
    message?: string,
  ) {
    super(message ?? "");
    this.name = "CustomFunctions.Error";
  }
}

export interface InvocationOptions {
  isInValuePreview?: boolean;
  address?: string;
  /** Aborted → the invocation's onCanceled handler is called, as when Excel cancels. */
  cancel?: AbortSignal;
}

export interface ConsoleLine {
  level: "log" | "info" | "warn" | "error" | "debug";
  text: string;
}

export interface LoadedBundle {
  metadata: FunctionMetadata[];
  /** With `lateOfficeRuntime`: defines OfficeRuntime and resolves Office.onReady, as Excel's host scripts do after office.js loads. */
  officeReady(): void;
  /** The page's localStorage as the bundle sees it (with `localStorage`). */
  localStorage: Map<string, string>;
  /** Functions the bundle registered with CustomFunctions.associate, by upper-case id. */
  registered: Map<string, (...args: unknown[]) => unknown>;
  storage: Map<string, string>;
  console: ConsoleLine[];
  /** Calls a function by id with positional arguments (missing trailing ones become null). */
  call(id: string, args?: unknown[], invocation?: InvocationOptions): Promise<unknown>;
  /** The bundle's context, for globals the test wants to look at. */
  context: vm.Context;
}

export interface LoadOptions {
  /** Initial OfficeRuntime.storage content, e.g. { "md.baseUrl": sandbox.url }. */
  storage?: Record<string, string>;
  fetch?: typeof fetch;
  distDir?: string;
  /**
   * Where the bundle's clock starts, ms since the epoch: `new Date()` and
   * `Date.now()` inside the bundle read this plus the real time elapsed since
   * loading (so TODAY, relative dates and default as_of are that day, and time
   * still passes for timeouts and batching). Default: the real clock.
   */
  now?: number;
  /**
   * The origin the page was served from (Excel's shared runtime is a webview
   * with a location): relative base addresses such as the gateway's /api resolve against it.
   */
  origin?: string;
  /**
   * Requirement sets the host declares (Office.context.requirements.isSetSupported),
   * e.g. { CustomFunctionsRuntime: "1.4", ExcelApi: "1.19" }. Omitted: Office has
   * no context, as before Office is ready: the bundle sees no data-type support.
   */
  requirements?: Record<string, string>;
  /**
   * OfficeRuntime is not defined while functions.js loads and Office.onReady
   * is pending, until the test calls `officeReady()`: the load order Excel's
   * host scripts can produce (office.js loads them asynchronously).
   */
  lateOfficeRuntime?: boolean;
  /** Gives the bundle a localStorage with this content (a page has one; the custom-functions-only runtime does not). */
  localStorage?: Record<string, string>;
  /** Extra globals, e.g. an `Excel` stand-in. */
  globals?: Record<string, unknown>;
}

/** "1.19" ≥ "1.4": requirement set versions compare part by part as numbers. */
function versionAtLeast(have: string, want: string): boolean {
  const a = have.split(".").map(Number);
  const b = want.split(".").map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  }
  return true;
}

interface FunctionsJson {
  allowErrorForDataTypeAny?: boolean;
  functions: FunctionMetadata[];
}

function readFunctionsJson(distDir: string): FunctionsJson {
  return JSON.parse(readFileSync(path.join(distDir, "functions.json"), "utf8")) as FunctionsJson;
}

export function readMetadata(distDir = DIST): FunctionMetadata[] {
  return readFunctionsJson(distDir).functions;
}

/**
 * The error Excel answers for a call it does not make: Microsoft Learn, "Handle
 * and return errors from your custom function", Errors as custom function
 * inputs: "To process inputs that contain errors, a custom function must have
 * the JSON metadata property allowErrorForDataTypeAny set to true"; the
 * property applies to parameters typed `any` (custom-functions-json,
 * allowErrorForDataTypeAny). Without it an error value in an argument (alone
 * or in a range) never reaches the function, so no message of the add-in's
 * can reach the cell: modelled as the error passed in, without a message.
 */
function errorExcelAnswersFor(args: unknown[]): CustomFunctionsError | undefined {
  for (const value of args.flat(2)) {
    if (value instanceof CustomFunctionsError) return new CustomFunctionsError(value.code);
    const shape = value as { type?: unknown; basicValue?: unknown } | null;
    if (typeof shape === "object" && shape !== null && shape.type === "Error") {
      const basic = typeof shape.basicValue === "string" && shape.basicValue.startsWith("#") ? shape.basicValue : null;
      return new CustomFunctionsError(basic ?? ErrorCode.invalidValue);
    }
  }
  return undefined;
}

export function loadFunctionsBundle(options: LoadOptions = {}): LoadedBundle {
  const distDir = options.distDir ?? DIST;
  const functionsJson = readFunctionsJson(distDir);
  const metadata = functionsJson.functions;
  const registered = new Map<string, (...args: unknown[]) => unknown>();
  const storage = new Map<string, string>(Object.entries(options.storage ?? {}));
  const lines: ConsoleLine[] = [];
  const capture =
    (level: ConsoleLine["level"]) =>
    (...parts: unknown[]) =>
      lines.push({ level, text: parts.map((p) => (typeof p === "string" ? p : safeStringify(p))).join(" ") });

  const officeRuntime = {
    storage: {
      getItem: async (key: string) => storage.get(key) ?? null,
      setItem: async (key: string, value: string) => void storage.set(key, value),
      removeItem: async (key: string) => void storage.delete(key),
      getItems: async (keys: string[]) => Object.fromEntries(keys.map((k) => [k, storage.get(k) ?? null])),
    },
  };
  const info = { host: "Excel", platform: "PC" };
  let markReady: (value: typeof info) => void = () => undefined;
  const ready = options.lateOfficeRuntime
    ? new Promise<typeof info>((resolve) => (markReady = resolve))
    : Promise.resolve(info);
  const local = new Map<string, string>(Object.entries(options.localStorage ?? {}));
  const webStorage = {
    getItem: (key: string) => local.get(key) ?? null,
    setItem: (key: string, value: string) => void local.set(key, String(value)),
    removeItem: (key: string) => void local.delete(key),
    clear: () => local.clear(),
    key: (index: number) => [...local.keys()][index] ?? null,
    get length() {
      return local.size;
    },
  };
  const sandboxGlobals = {
    CustomFunctions: {
      associate(id: string | Record<string, (...args: unknown[]) => unknown>, fn?: (...args: unknown[]) => unknown) {
        if (typeof id === "object") for (const [k, f] of Object.entries(id)) registered.set(k.toUpperCase(), f);
        else if (fn) registered.set(id.toUpperCase(), fn);
      },
      Error: CustomFunctionsError,
      ErrorCode,
    },
    ...(options.lateOfficeRuntime ? {} : { OfficeRuntime: officeRuntime }),
    ...(options.localStorage ? { localStorage: webStorage } : {}),
    Office: {
      onReady: (callback?: (info: unknown) => void) =>
        ready.then((info) => {
          callback?.(info);
          return info;
        }),
      HostType: { Excel: "Excel" },
      ...(options.requirements
        ? {
            context: {
              requirements: {
                isSetSupported: (name: string, minVersion = "1.1") => {
                  const have = options.requirements?.[name];
                  return have !== undefined && versionAtLeast(have, minVersion);
                },
              },
            },
          }
        : {}),
    },
    console: {
      log: capture("log"),
      info: capture("info"),
      warn: capture("warn"),
      error: capture("error"),
      debug: capture("debug"),
    },
    ...(options.now === undefined ? {} : { Date: shiftedClockDate(options.now) }),
    ...(options.globals ?? {}),
    fetch: options.fetch ?? fetch,
    ...(options.origin ? { location: new URL(`${options.origin}/taskpane.html`) } : {}),
    Headers,
    Request,
    Response,
    AbortController,
    AbortSignal,
    URL,
    URLSearchParams,
    TextEncoder,
    TextDecoder,
    DOMException,
    performance,
    queueMicrotask,
    structuredClone,
    setTimeout,
    clearTimeout,
    setInterval,
    clearInterval,
  };
  const context = vm.createContext(sandboxGlobals);
  const code = readFileSync(path.join(distDir, "functions.js"), "utf8");
  vm.runInContext(code, context, { filename: "functions.js" });

  async function call(id: string, args: unknown[] = [], invocation: InvocationOptions = {}): Promise<unknown> {
    const meta = metadata.find((m) => m.id === id.toUpperCase());
    if (!meta) throw new Error(`functions.json has no function ${id}`);
    const fn = registered.get(meta.id);
    if (!fn) throw new Error(`the bundle did not associate ${meta.id}`);
    if (args.length > meta.parameters.length) throw new Error(`${meta.id} takes ${meta.parameters.length} arguments`);
    const excelArgs = meta.parameters.map((param, i) => {
      const value = i < args.length ? args[i] : null;
      if (value === null || value === undefined) return null;
      if (param.dimensionality === "matrix")
        return Array.isArray(value) ? value.map((row) => (Array.isArray(row) ? row : [row])) : [[value]];
      return value;
    });
    const refused =
      functionsJson.allowErrorForDataTypeAny === true
        ? undefined
        : errorExcelAnswersFor(excelArgs.filter((_, i) => (meta.parameters[i].type ?? "any") === "any"));
    if (refused) throw refused;
    const handlers: (() => void)[] = [];
    const inv = {
      functionName: meta.id,
      address: invocation.address ?? "Sheet1!A1",
      isInValuePreview: invocation.isInValuePreview ?? false,
      set onCanceled(handler: () => void) {
        handlers.push(handler);
      },
    };
    invocation.cancel?.addEventListener("abort", () => handlers.forEach((h) => h()), { once: true });
    // A raw synchronous throw is a bug Excel would show as #VALUE! with no message; let the test see it.
    const result = fn(...excelArgs, inv);
    return await result;
  }

  function officeReady(): void {
    (context as unknown as { OfficeRuntime?: unknown }).OfficeRuntime = officeRuntime;
    markReady(info);
  }

  return { metadata, registered, storage, localStorage: local, officeReady, console: lines, call, context };
}

/** A Date whose clock reads `start` at the moment it is made, then runs on; everything else is the real Date's. */
function shiftedClockDate(start: number): DateConstructor {
  const Real = Date;
  const offset = start - Real.now();
  class ShiftedClockDate extends Real {
    constructor(...args: ConstructorParameters<DateConstructor> | []) {
      if (args.length === 0) super(Real.now() + offset);
      else super(...(args as ConstructorParameters<DateConstructor>));
    }
    static override now(): number {
      return Real.now() + offset;
    }
  }
  return ShiftedClockDate as unknown as DateConstructor;
}

function safeStringify(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/** True for a value the bundle produced with CustomFunctions.Error. */
export function isExcelError(value: unknown): value is CustomFunctionsError {
  return value instanceof CustomFunctionsError;
}

/** Calls and also captures a rejection/throw as a value, the way Excel shows it in the cell. */
export async function cellValue(
  bundle: LoadedBundle,
  id: string,
  args?: unknown[],
  invocation?: InvocationOptions,
): Promise<unknown> {
  try {
    return await bundle.call(id, args, invocation);
  } catch (error) {
    return error;
  }
}
