/**
 * Provenance on the value (issue 38): the built bundle, loaded as in an Excel
 * with ExcelApi 1.19 (properties on basic values: src/office/cells/value-properties.ts),
 * returns each MD.LATEST, MD.AGG, MD.SNAPSHOT value and each MD.ASSET
 * property with Date, Symbol, Metric, Settled, Source, Fetched (and Revised
 * after a correction), each equal to what the add-in recorded for the call
 * (the runtime's call records) and to what the sandbox serves; the workbook
 * stand-in resolves `=B2.Date` and shows the card; a value with properties
 * chains into MD arguments; hosts without ExcelApi 1.19 get the numbers as
 * before (formatted at 1.16, plain without data types), and the stand-in
 * refuses properties there.
 */
import vm from "node:vm";
import { IDBFactory } from "fake-indexeddb";
import type { LoadedBundle } from "../../harness/bundle";
import { runAssociatedFunctions } from "../../harness/workbook-stand-in/functions-runtime";
import { installWorkbookStandIn, type WorkbookRecording } from "../support/workbook-stand-in";
import { addDays } from "../../src/core/calendar";
import { SOURCE_NAMES } from "../../src/core/provenance";
import type { CallTrace } from "../../src/office/call-records";
import { dumpStore } from "../support/failing-idb";
import { rawGet, rawPoints, requestsTo, serial } from "../support/raw-sandbox";
import { useBundle } from "../support/bundle";
import { TEST_TODAY } from "../support/today";

const EXCEL_1_19 = { CustomFunctionsRuntime: "1.4", ExcelApi: "1.19" };
const EXCEL_1_16 = { CustomFunctionsRuntime: "1.4", ExcelApi: "1.16" };
const NOON = Date.parse(`${TEST_TODAY}T12:00:00Z`);
const AS_OF = "2024-02-29";
/** The fields the card of an MD.LATEST value lists, in order (no correction, no window). */
const CARD_FIELDS = ["Date", "Symbol", "Metric", "Settled", "Source", "Fetched"];

const world = useBundle({ quiet: true, today: TEST_TODAY, insightFirstCallDelayMs: 0 });
const { sandbox } = world;
beforeEach(() => sandbox.reset());

interface Property {
  type: string;
  basicValue: unknown;
  numberFormat?: string;
  propertyMetadata?: { sublabel?: string };
}
interface Valued {
  type: string;
  basicValue: number;
  numberFormat?: string;
  properties?: Record<string, Property>;
}

/** `now`: where the bundle's clock starts (a reopened workbook's starts later than the first session's). */
function load(factory?: IDBFactory, now = NOON): LoadedBundle {
  return world.load({ requirements: EXCEL_1_19, now, ...(factory ? { globals: { indexedDB: factory } } : {}) });
}

/** The call's record as the add-in keeps it (src/office/call-records.ts), from the bundle's runtime. */
function traceOf(bundle: LoadedBundle, key: string): CallTrace {
  const trace = vm.runInContext(
    `globalThis[Symbol.for("market-data.runtime")].records.forCall(${JSON.stringify(key)})`,
    bundle.context,
  ) as CallTrace | undefined;
  if (!trace) throw new Error(`no record of ${key}`);
  return trace;
}

function runtimeClient(bundle: LoadedBundle): { clear(options?: { recheckHistory?: boolean }): void } {
  return vm.runInContext('globalThis[Symbol.for("market-data.runtime")].client', bundle.context) as {
    clear(options?: { recheckHistory?: boolean }): void;
  };
}

/** A moment as the properties hold it: the local day's serial and the time as a fraction. */
function momentSerial(ms: number): number {
  const at = new Date(ms);
  const iso = `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, "0")}-${String(at.getDate()).padStart(2, "0")}`;
  const fraction = (at.getHours() * 3600 + at.getMinutes() * 60 + at.getSeconds()) / 86_400;
  return Math.round((serial(iso) + fraction) * 1e6) / 1e6;
}

/** Every property equals what the add-in recorded for the call (its facts) and what the sandbox served. */
function expectProvenance(value: Valued, trace: CallTrace, expected: { date: string; value: number }): void {
  const facts = trace.facts?.[0];
  if (!facts) throw new Error("no facts recorded");
  expect(value.basicValue).toBe(expected.value);
  expect(facts.date).toBe(expected.date);
  const p = value.properties!;
  expect(p.Date).toEqual({ type: "Double", basicValue: serial(facts.date), numberFormat: "yyyy-mm-dd" });
  expect(p.Symbol).toEqual({ type: "String", basicValue: facts.symbol });
  expect(p.Metric.basicValue).toBe(facts.metric);
  expect(p.Settled).toEqual({ type: "Boolean", basicValue: facts.settled });
  expect(p.Source).toEqual({ type: "String", basicValue: SOURCE_NAMES[facts.source] });
  expect(p.Fetched).toEqual({
    type: "Double",
    basicValue: momentSerial(facts.fetchedAt),
    numberFormat: "yyyy-mm-dd hh:mm",
  });
}

async function lastOnOrBefore(symbol: string, metric: string, date: string): Promise<{ date: string; value: number }> {
  const points = await rawPoints(sandbox, symbol, metric, { startDate: addDays(date, -30), endDate: date });
  const last = points.at(-1)!;
  return { date: last.date, value: last.val };
}

/** Waits until the bundle's store has written the day to IndexedDB (the event a reopen needs), bounded. */
async function storedInIndexedDb(factory: IDBFactory, day: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if ((await dumpStore(factory)).includes(`"${day}"`)) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${day} was never written to IndexedDB`);
}

describe("provenance on MD values where Excel has properties on basic values (ExcelApi 1.19)", () => {
  const KEY = `MD.LATEST("eth","PRICE","${AS_OF}",)`;

  it("a value the service answered: Date, Symbol, Metric with the catalog's words, Settled, Source, Fetched", async () => {
    const bundle = load();
    const value = (await bundle.call("LATEST", ["eth", "PRICE", AS_OF])) as Valued;
    const trace = traceOf(bundle, KEY);
    expectProvenance(value, trace, await lastOnOrBefore("eth", "PRICE", AS_OF));
    expect(trace.facts![0]!).toMatchObject({ settled: true, source: "service" });
    const catalog = await rawGet<{ metrics: Record<string, { description: string; unit: string }>[] }>(
      sandbox,
      "/supported-metrics/",
      { symbol: "eth" },
    );
    const price = catalog.metrics.find((entry) => "PRICE" in entry)!.PRICE!;
    expect(value.properties!.Metric.propertyMetadata?.sublabel).toBe(`${price.description} · unit: ${price.unit}`);
    // The record says which request answered: its address without the key.
    expect(trace.answers.at(-1)?.request?.address).toContain("/data/api/");
    expect(JSON.stringify(trace)).not.toContain("APIKey");
  });

  it("a value read in its settling days says Settled no", async () => {
    const bundle = load();
    const value = (await bundle.call("LATEST", ["eth", "PRICE"])) as Valued;
    const trace = traceOf(bundle, 'MD.LATEST("eth","PRICE",,)');
    expect(value.properties!.Settled.basicValue).toBe(false);
    expect(trace.facts![0]!.settled).toBe(false);
    expect(trace.facts![0]!.date >= addDays(TEST_TODAY, -2)).toBe(true);
  });

  it("after a reopen the store answers: Source says so, Fetched is the first fetch, nothing is asked", async () => {
    const factory = new IDBFactory();
    const first = load(factory);
    const live = (await first.call("LATEST", ["eth", "PRICE", AS_OF])) as Valued;
    await storedInIndexedDb(factory, AS_OF);
    const expected = await lastOnOrBefore("eth", "PRICE", AS_OF);
    const asked = requestsTo(sandbox, "/data/api/");
    const reopened = load(factory, NOON + 60_000);
    const value = (await reopened.call("LATEST", ["eth", "PRICE", AS_OF])) as Valued;
    expect(requestsTo(sandbox, "/data/api/")).toBe(asked);
    const trace = traceOf(reopened, KEY);
    expectProvenance(value, trace, expected);
    expect(trace.facts![0]!.source).toBe("store");
    expect(value.properties!.Source.basicValue).toBe("This computer's store");
    expect(value.properties!.Fetched).toEqual(live.properties!.Fetched);
  });

  it("after a correction: Revised says when and from what, Earlier value holds it", async () => {
    const bundle = load(new IDBFactory());
    const before = (await bundle.call("LATEST", ["eth", "PRICE", AS_OF])) as Valued;
    sandbox.setRevision(1);
    runtimeClient(bundle).clear({ recheckHistory: true });
    const after = (await bundle.call("LATEST", ["eth", "PRICE", AS_OF])) as Valued;
    const trace = traceOf(bundle, KEY);
    expect(after.basicValue).toBeCloseTo(before.basicValue * 2, 6);
    const revised = trace.facts![0]!.revised!;
    expect(revised.was).toBe(before.basicValue);
    expect(after.properties!["Earlier value"]).toEqual({ type: "Double", basicValue: before.basicValue });
    expect(String(after.properties!.Revised.basicValue)).toContain(`was ${before.basicValue}`);
    expect(trace.revisions.some((r) => r.was === before.basicValue)).toBe(true);
  });

  it("MD.AGG carries its window's first and last day and the days with data", async () => {
    const bundle = load();
    const value = (await bundle.call("AGG", ["eth", "FEES", "30D", "SUM", AS_OF])) as Valued;
    const facts = traceOf(bundle, `MD.AGG("eth","FEES","30D","SUM","${AS_OF}",)`).facts![0]!;
    const points = await rawPoints(sandbox, "eth", "FEES", { startDate: addDays(AS_OF, -29), endDate: AS_OF });
    expect(facts).toMatchObject({ date: AS_OF, start: addDays(AS_OF, -29), daysWithData: points.length });
    expect(value.properties!.Date.basicValue).toBe(serial(AS_OF));
    expect(value.properties!["First day"].basicValue).toBe(serial(addDays(AS_OF, -29)));
    expect(value.properties!["Days with data"].basicValue).toBe(points.length);
  });

  it("each MD.SNAPSHOT value and each MD.ASSET property carries its own", async () => {
    const bundle = load();
    const table = (await bundle.call("SNAPSHOT", ["eth,btc", "PRICE", AS_OF])) as (Valued | string)[][];
    for (const [row, symbol] of [[1, "eth"] as const, [2, "btc"] as const]) {
      const cell = table[row]![1] as Valued;
      const expected = await lastOnOrBefore(symbol, "PRICE", AS_OF);
      expect(cell.basicValue).toBe(expected.value);
      expect(cell.properties!.Symbol.basicValue).toBe(symbol);
      expect(cell.properties!.Date.basicValue).toBe(serial(expected.date));
    }
    const card = (await bundle.call("ASSET", ["eth", AS_OF])) as { properties: Record<string, Valued> }[][];
    const price = card[0]![0]!.properties.Price!;
    const expected = await lastOnOrBefore("eth", "PRICE", AS_OF);
    expect(price.basicValue).toBe(expected.value);
    expect(price.properties!.Date.basicValue).toBe(serial(expected.date));
    expect(price.properties!.Source.basicValue).toBe(SOURCE_NAMES.service);
  });

  it("a value with properties chains into MD arguments as its number", async () => {
    const bundle = load();
    const date = (await bundle.call("LATEST", ["eth", "PRICE", AS_OF, "show=date"])) as Valued;
    expect(date.properties).toBeDefined();
    const chained = (await bundle.call("LATEST", ["eth", "PRICE", date])) as Valued;
    const direct = (await bundle.call("LATEST", ["eth", "PRICE", AS_OF])) as Valued;
    expect(chained.basicValue).toBe(direct.basicValue);
    const agg = (await bundle.call("AGG", ["eth", "FEES", "30D", "SUM", date])) as Valued;
    expect(agg.properties!.Date.basicValue).toBe(date.basicValue);
    const series = (await bundle.call("SERIES", ["eth", "PRICE", date, date])) as Valued[][];
    expect(series[1]![1]!.basicValue).toBe(direct.basicValue);
  });
});

/** An empty one-sheet workbook on a host with this ExcelApi. */
function recording(excelApi: string): WorkbookRecording {
  return {
    excelApi,
    sheets: [{ name: "Sheet1", cells: {} }],
    activeSheet: "Sheet1",
    selection: { sheet: "Sheet1", areas: ["A1"] },
    results: {},
  };
}

describe("the workbook stand-in: =B2.Date and the card", () => {
  function workbook(bundle: LoadedBundle, excelApi: string) {
    return installWorkbookStandIn({}, recording(excelApi), {
      evaluate: runAssociatedFunctions(() => Object.fromEntries(bundle.registered), bundle.metadata),
    });
  }

  it("=B2.Date resolves to the reading's date, formatted; the card lists the fields", async () => {
    const bundle = load();
    const book = workbook(bundle, "1.19");
    book.edit("Sheet1", "B2", `=MD.LATEST("eth","PRICE","${AS_OF}")`);
    book.edit("Sheet1", "C2", "=B2.Date");
    book.edit("Sheet1", "D2", "=B2.[Source]");
    book.edit("Sheet1", "E2", "=B2.Nothing");
    await book.idle();
    const expected = await lastOnOrBefore("eth", "PRICE", AS_OF);
    expect(book.cell("Sheet1", "B2").value).toBe(expected.value);
    expect(book.cell("Sheet1", "C2").value).toBe(serial(expected.date));
    expect(book.display("Sheet1", "C2").format).toBe("yyyy-mm-dd");
    expect(book.cell("Sheet1", "D2").value).toBe(SOURCE_NAMES.service);
    expect(book.cell("Sheet1", "E2").value).toBe("#FIELD!");
    const card = book.card("Sheet1", "B2")!;
    expect(card.title).toBe(expected.value);
    expect(card.fields.map((field) => field.name)).toEqual(CARD_FIELDS);
  });

  it("a host without ExcelApi 1.19 refuses a value with properties (#VALUE!) and keeps plain ones", async () => {
    const book = installWorkbookStandIn({}, recording("1.16"), {
      evaluate: (formula) => ({
        result: Promise.resolve(
          formula.includes("WITH")
            ? { value: { type: "Double", basicValue: 1, properties: { Date: { type: "Double", basicValue: 2 } } } }
            : { value: 3 },
        ),
        cancel: () => undefined,
      }),
    });
    book.edit("Sheet1", "A1", '=MD.LATEST("WITH")');
    book.edit("Sheet1", "A2", '=MD.LATEST("PLAIN")');
    await book.idle();
    expect(book.cell("Sheet1", "A1").value).toBe("#VALUE!");
    expect(book.cell("Sheet1", "A2").value).toBe(3);
  });
});

describe("hosts without properties on basic values get their numbers as before", () => {
  it("ExcelApi 1.16: a formatted number without properties; no data types: a plain number", async () => {
    const formatted = (await world
      .load({ requirements: EXCEL_1_16, now: NOON })
      .call("LATEST", ["eth", "PRICE", AS_OF])) as Valued;
    expect(formatted.type).toBe("FormattedNumber");
    expect(formatted.properties).toBeUndefined();
    const plain = await world.load({ now: NOON }).call("LATEST", ["eth", "PRICE", AS_OF]);
    expect(plain).toBe((await lastOnOrBefore("eth", "PRICE", AS_OF)).value);
  });
});
