/**
 * The workbook's date system is kept only once Excel has answered: a timeout
 * or a failed batch (Excel busy, the user typing) gives the calls of that
 * moment the 1900 system and the next call asks again, so a 1904 workbook
 * opened while Excel is busy is not four years and a day off for the session.
 */
import { dateSystemOfWorkbook, type DateSystemGlobals } from "../../../src/office/cells/date-system";

type Answer = number | "throw" | "hang";

/** An Excel whose `functions.date(1904,1,1)` answers, in turn, each of `answers`; the last repeats. */
function excelAnswering(answers: Answer[]): { globals: DateSystemGlobals; runs: unknown[] } {
  const runs: unknown[] = [];
  const run = async (options: unknown, batch: (context: Excel.RequestContext) => Promise<unknown>) => {
    runs.push(options);
    const answer = answers[Math.min(runs.length - 1, answers.length - 1)]!;
    if (answer === "throw") throw new Error("GeneralException: Excel is busy");
    if (answer === "hang") return new Promise(() => undefined);
    const date = { value: answer, load: () => undefined };
    const context = { workbook: { functions: { date: () => date } }, sync: async () => undefined };
    return batch(context as unknown as Excel.RequestContext);
  };
  return { globals: { Excel: { run } as unknown as DateSystemGlobals["Excel"] }, runs };
}

describe("the workbook's date system", () => {
  it.each([
    [0, 1904],
    [1462, 1900],
  ] as const)("DATE(1904,1,1) = %d → the %d system, asked once for every later call", async (serial, system) => {
    const { globals, runs } = excelAnswering([serial]);
    const dateSystem = dateSystemOfWorkbook(globals, 1000);
    expect(await Promise.all([dateSystem(), dateSystem(), dateSystem()])).toEqual([system, system, system]);
    expect(await dateSystem()).toBe(system);
    expect(runs).toEqual([{ delayForCellEdit: true }]);
  });

  it("a failed batch gives 1900 for now and is asked again: a 1904 workbook is then read as 1904", async () => {
    const { globals, runs } = excelAnswering(["throw", 0]);
    const dateSystem = dateSystemOfWorkbook(globals, 1000);
    expect(await dateSystem()).toBe(1900);
    expect(await dateSystem()).toBe(1904);
    expect(await dateSystem()).toBe(1904);
    expect(runs).toHaveLength(2);
  });

  it("no answer in time gives 1900 for now and is asked again", async () => {
    const { globals, runs } = excelAnswering(["hang", 0]);
    const dateSystem = dateSystemOfWorkbook(globals, 20);
    expect(await dateSystem()).toBe(1900);
    expect(await dateSystem()).toBe(1904);
    expect(runs).toHaveLength(2);
  });

  it("an answer Excel cannot mean (neither 0 nor 1462) is not kept", async () => {
    const { globals, runs } = excelAnswering([37, 0]);
    const dateSystem = dateSystemOfWorkbook(globals, 1000);
    expect(await dateSystem()).toBe(1900);
    expect(await dateSystem()).toBe(1904);
    expect(runs).toHaveLength(2);
  });

  it("Office not ready in time: not asked, 1900 for now, asked once Office is ready", async () => {
    let ready!: () => void;
    const onReady = new Promise<void>((resolve) => (ready = resolve));
    const { globals, runs } = excelAnswering([0]);
    const dateSystem = dateSystemOfWorkbook({ ...globals, Office: { onReady: () => onReady } }, 20);
    expect(await dateSystem()).toBe(1900);
    expect(runs).toHaveLength(0);
    ready();
    expect(await dateSystem()).toBe(1904);
    expect(runs).toHaveLength(1);
  });

  it("outside Excel (Office ready, no Excel API) the answer is 1900, kept", async () => {
    const dateSystem = dateSystemOfWorkbook({ Office: { onReady: async () => ({ host: null }) } }, 1000);
    expect(await dateSystem()).toBe(1900);
    expect(await dateSystem()).toBe(1900);
  });
});
