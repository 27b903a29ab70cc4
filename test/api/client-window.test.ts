import { BadRequestError } from "../../src/api/errors";
import type { DateWindow } from "../../src/core/domain";
import { isIsoDate } from "../../src/core/calendar";
import { CRYPTO_EARLIEST } from "../../src/api/series/history-walk";
import { harness, seriesCalls } from "../support/client-harness";

/** A window's dates are checked once, where they enter the client; past the door (the builders too) they are trusted. */
describe("a window's dates, checked where they enter the client", () => {
  const asks = {
    series: (h: ReturnType<typeof harness>, window: DateWindow) =>
      h.client.getSeries({ symbol: "eth", metric: "PRICE", ...window }),
    flows: (h: ReturnType<typeof harness>, window: DateWindow) =>
      h.client.getFlows({ sourceChains: ["ethereum"], flowTypes: ["inflow"], ...window }),
  };

  it.each([
    ["series", "an impossible date", { start: "2024-02-30" }],
    ["series", "a date in another format", { end: "01/02/2024" }],
    ["flows", "an impossible date", { start: "2024-02-30" }],
    ["flows", "a date in another format", { end: "01/02/2024" }],
  ] as const)("%s: refuses %s with a BadRequestError, before any request", async (kind, _name, window) => {
    const h = harness();
    await expect(asks[kind](h, window)).rejects.toBeInstanceOf(BadRequestError);
    await h.clock.runAll();
    expect(h.service.calls).toHaveLength(0);
  });

  it.each(["series", "flows"] as const)("%s: names the offending value in the message", async (kind) => {
    await expect(asks[kind](harness(), { start: "2024-13-01" })).rejects.toThrow(
      'The start date "2024-13-01" is not a date in the form YYYY-MM-DD.',
    );
  });

  it.each([
    "2024-02-29",
    "2023-02-29",
    "1900-02-29",
    "2000-02-29",
    "2024-04-31",
    "0050-06-15",
    "2024-5-1",
    " 2024-05-01",
  ])("accepts %j as a date exactly when the calendar (core/calendar.ts) does", async (date) => {
    const h = harness();
    const answer = asks.series(h, { start: date, end: isIsoDate(date) ? date : "2024-05-01" });
    answer.catch(() => undefined);
    await h.clock.runAll();
    if (isIsoDate(date) && date >= CRYPTO_EARLIEST) {
      await expect(answer).resolves.toMatchObject({ kind: "points" });
      expect(seriesCalls(h.service).map((c) => c.params.get("startDate"))).toEqual([date]);
    } else if (isIsoDate(date)) {
      // Accepted, and answered without asking: no crypto asset has data before Bitcoin's first block.
      await expect(answer).resolves.toEqual({
        kind: "message",
        message: `No data before 2009-01-03 for a crypto asset (Bitcoin's first block): the window ends ${date}.`,
      });
      expect(h.service.calls).toHaveLength(0);
    } else {
      await expect(answer).rejects.toBeInstanceOf(BadRequestError);
      expect(h.service.calls).toHaveLength(0);
    }
  });
});
