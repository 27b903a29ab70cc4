/** @jest-environment jsdom */
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { NetworkError, TimeoutError } from "../../../src/api/errors";
import type { InsightCard } from "../../../src/core/domain";
import { PAGE_SIZE } from "../../../src/taskpane/insights/insight-card-list";
import { InsightsView } from "../../../src/taskpane/insights/insights-view";
import { OUTSIDE_EXCEL_COPIED } from "../../../src/taskpane/shared/place-formula";
import { asset, card } from "../../support/fake-client";
import { makeHarness, renderWith, type Harness, type HarnessOptions } from "../../support/pane-fakes";

const FEED: InsightCard[] = [
  card({
    ENTITY_ID: "eth",
    METRIC_NAME: "PRICE",
    FLAG: "streak_weekly",
    DURATION: 6,
    START_VALUE: 100,
    END_VALUE: 150,
  }),
  card({
    ENTITY_ID: "btc",
    METRIC_NAME: "MARKET_CAP",
    FLAG: "streak_monthly",
    DURATION: 1,
    START_VALUE: 2e9,
    END_VALUE: 2.5e9,
  }),
  card({
    ENTITY_ID: "eq-aapl",
    METRIC_NAME: "NET_INCOME",
    FLAG: "streak_quarterly",
    DURATION: 4,
    START_VALUE: 80,
    END_VALUE: 96,
    PERIOD_START_DATE: "2023-03-31",
    PERIOD_END_DATE: "2024-03-31",
  }),
  card({
    ENTITY_ID: "sol",
    METRIC_NAME: "ACTIVE_ADDRESSES",
    FLAG: "streak_weekly",
    UNIT: "NOMINAL",
    DURATION: 3,
    START_VALUE: 1000,
    END_VALUE: 1200,
  }),
];

function renderInsights(options: HarnessOptions = {}): Harness {
  const harness = makeHarness(options);
  renderWith(harness, <InsightsView active />);
  return harness;
}

function shownEntities(): string[] {
  // querySelector, not getByRole: role queries over dozens of Fluent cards take seconds.
  return screen.queryAllByTestId("insight-card").map((c) => c.querySelector("h3")?.textContent ?? "");
}

async function loaded(cards: InsightCard[] = FEED, options: HarnessOptions = {}) {
  const harness = renderInsights(options);
  await waitFor(() => expect(harness.client.insights.calls).toHaveLength(1));
  act(() => harness.client.insights.last.resolve(cards));
  await screen.findByTestId("insight-count");
  return harness;
}

describe("Insights: loading a feed", () => {
  it("shows progress while the feed loads, then the cards", async () => {
    const { client } = renderInsights();
    await waitFor(() => expect(client.insights.calls).toHaveLength(1));
    expect(client.insights.last.args).toBe("streaks");
    expect(screen.getByRole("progressbar", { name: "Loading growth streaks" })).toBeTruthy();
    expect(screen.getByText(/^Loading growth streaks… \d+ s$/)).toBeTruthy();
    act(() => client.insights.last.resolve(FEED));
    await waitFor(() => expect(shownEntities()).toEqual(FEED.map((c) => c.ENTITY_ID)));
    expect(screen.queryByRole("progressbar")).toBeNull();
    expect(screen.getByTestId("insight-count").textContent).toBe(`${FEED.length} cards`);
  });

  it("past 55 s, says the service is still preparing the feed and that the add-in asks again (Excel on Mac's 60 s limit)", async () => {
    jest.useFakeTimers({ now: Date.parse("2025-03-03T09:00:00Z") });
    try {
      const { client } = renderInsights();
      await waitFor(() => expect(client.insights.calls).toHaveLength(1));
      expect(screen.queryByTestId("insights-slow")).toBeNull();
      act(() => jest.advanceTimersByTime(54_000));
      expect(screen.queryByTestId("insights-slow")).toBeNull();
      act(() => jest.advanceTimersByTime(2_000));
      expect(screen.getByTestId("insights-slow").textContent).toMatch(
        /still preparing this feed.*Excel on Mac gives up on a request at 60 s/,
      );
      act(() => client.insights.last.resolve(FEED));
      await waitFor(() => expect(shownEntities()).toHaveLength(FEED.length));
      expect(screen.queryByTestId("insights-slow")).toBeNull();
    } finally {
      jest.useRealTimers();
    }
  });

  it("does not start the minute-long request while the view is hidden", async () => {
    const harness = makeHarness();
    const view = renderWith(harness, <InsightsView active={false} />);
    await act(async () => undefined);
    expect(harness.client.insights.calls).toHaveLength(0);
    view.rerender(<InsightsView active />);
    await waitFor(() => expect(harness.client.insights.calls).toHaveLength(1));
  });

  it("Cancel aborts the request's signal and offers to load again", async () => {
    const { client } = renderInsights();
    await waitFor(() => expect(client.insights.calls).toHaveLength(1));
    const first = client.insights.last;
    expect(first.signal?.aborted).toBe(false);
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(first.signal?.aborted).toBe(true);
    await screen.findByText("Loading was cancelled.");
    expect(screen.queryByRole("progressbar")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Load again" }));
    await waitFor(() => expect(client.insights.calls).toHaveLength(2));
    expect(client.insights.last.signal?.aborted).toBe(false);
    act(() => client.insights.last.resolve(FEED));
    await waitFor(() => expect(shownEntities()).toHaveLength(FEED.length));
  });

  it("unmounting aborts a feed still loading", async () => {
    const harness = makeHarness();
    const view = renderWith(harness, <InsightsView active />);
    await waitFor(() => expect(harness.client.insights.calls).toHaveLength(1));
    view.unmount();
    expect(harness.client.insights.last.signal?.aborted).toBe(true);
  });

  it.each([
    ["timeout", new TimeoutError("The market-data service did not answer within 90 s.")],
    ["network", new NetworkError("Could not reach the market-data service.")],
  ])("a %s error shows the message; “Try again” reloads", async (_kind, error) => {
    const { client } = renderInsights();
    await waitFor(() => expect(client.insights.calls).toHaveLength(1));
    act(() => client.insights.last.reject(error));
    await screen.findByText(`Could not load growth streaks: ${error.message}`);
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(client.insights.calls).toHaveLength(2));
    expect(screen.getByRole("progressbar")).toBeTruthy();
  });

  it("an empty feed says so", async () => {
    await loaded([]);
    expect(screen.getByText("This feed has no cards right now.")).toBeTruthy();
    expect(screen.getByTestId("insight-count").textContent).toBe("0 cards");
    expect(screen.queryAllByTestId("insight-card")).toHaveLength(0);
  });

  it("switching to decline streaks loads that feed on its own and keeps the first", async () => {
    const { client } = await loaded();
    fireEvent.click(screen.getByRole("radio", { name: "Decline streaks" }));
    await waitFor(() => expect(client.insights.calls).toHaveLength(2));
    expect(client.insights.last.args).toBe("decline-streaks");
    expect(screen.getByRole("progressbar", { name: "Loading decline streaks" })).toBeTruthy();
    const declines = [card({ ENTITY_ID: "doge", FLAG: "decline_streak_weekly", START_VALUE: 200, END_VALUE: 150 })];
    act(() => client.insights.last.resolve(declines));
    await waitFor(() => expect(shownEntities()).toEqual(["doge"]));
    fireEvent.click(screen.getByRole("radio", { name: "Growth streaks" }));
    await waitFor(() => expect(shownEntities()).toEqual(FEED.map((c) => c.ENTITY_ID)));
    expect(client.insights.calls).toHaveLength(2);
  });
});

describe("Insights: filters", () => {
  const cadenceOf = (c: InsightCard) => /_(weekly|monthly|quarterly)$/.exec(c.FLAG)?.[1];

  it("labels each cadence with its count", async () => {
    await loaded();
    for (const cadence of ["weekly", "monthly", "quarterly"]) {
      const n = FEED.filter((c) => cadenceOf(c) === cadence).length;
      expect(screen.getByRole("radio", { name: `${cadence[0].toUpperCase()}${cadence.slice(1)} (${n})` })).toBeTruthy();
    }
    expect(screen.getByRole("radio", { name: `All (${FEED.length})` })).toBeTruthy();
  });

  it.each([
    { cadence: "Weekly", search: "" },
    { cadence: "Monthly", search: "" },
    { cadence: "Quarterly", search: "" },
    { cadence: "All", search: "eth" },
    { cadence: "All", search: "net income" },
    { cadence: "All", search: "MARKET" },
    { cadence: "Weekly", search: "sol" },
    { cadence: "Monthly", search: "sol" },
  ])("cadence $cadence with search “$search”", async ({ cadence, search }) => {
    await loaded();
    const words = search.toLowerCase().split(/\s+/).filter(Boolean);
    const expected = FEED.filter((c) => cadence === "All" || cadenceOf(c) === cadence.toLowerCase())
      .filter((c) =>
        words.every((w) =>
          `${c.ENTITY_ID} ${c.METRIC_NAME} ${c.METRIC_NAME.replace(/_/g, " ")}`.toLowerCase().includes(w),
        ),
      )
      .map((c) => c.ENTITY_ID);
    fireEvent.click(screen.getByRole("radio", { name: new RegExp(`^${cadence} \\(`) }));
    fireEvent.change(screen.getByRole("searchbox", { name: "Search insight cards" }), { target: { value: search } });
    await waitFor(() => expect(shownEntities()).toEqual(expected));
    expect(screen.getByTestId("insight-count").textContent).toBe(
      expected.length === FEED.length ? `${FEED.length} cards` : `${expected.length} of ${FEED.length} cards`,
    );
    if (expected.length === 0) expect(screen.getByText("No cards match these filters.")).toBeTruthy();
  });

  it(`pages the cards ${PAGE_SIZE} at a time`, async () => {
    const many = Array.from({ length: PAGE_SIZE * 2 + 5 }, (_, i) => card({ ENTITY_ID: `asset${i}` }));
    await loaded(many);
    expect(shownEntities()).toHaveLength(PAGE_SIZE);
    fireEvent.click(screen.getByText(`Show ${PAGE_SIZE} more of ${many.length - PAGE_SIZE}`, { selector: "button" }));
    expect(shownEntities()).toHaveLength(PAGE_SIZE * 2);
    fireEvent.click(screen.getByText("Show 5 more of 5", { selector: "button" }));
    expect(shownEntities()).toEqual(many.map((c) => c.ENTITY_ID));
    expect(screen.queryByText(/^Show \d+ more/, { selector: "button" })).toBeNull();
  });
});

describe("Insights: cards", () => {
  function cardFor(entity: string): HTMLElement {
    const found = screen
      .getAllByTestId("insight-card")
      .find((c) => within(c).getByRole("heading", { level: 3 }).textContent === entity);
    if (!found) throw new Error(`no card for ${entity}`);
    return found;
  }

  it.each([
    {
      c: card({
        ENTITY_ID: "eth",
        FLAG: "streak_weekly",
        DURATION: 6,
        START_VALUE: 100,
        END_VALUE: 150,
        UNIT: "CURRENCY",
      }),
      verb: "Rose",
      period: "6 weeks",
      values: "$100 → $150",
    },
    {
      c: card({
        ENTITY_ID: "eth",
        FLAG: "streak_monthly",
        DURATION: 1,
        START_VALUE: 80,
        END_VALUE: 81,
        UNIT: "NOMINAL",
      }),
      verb: "Rose",
      period: "1 month",
      values: "80 → 81",
    },
    {
      c: card({
        ENTITY_ID: "eth",
        FLAG: "decline_streak_quarterly",
        DURATION: 2,
        START_VALUE: 200,
        END_VALUE: 150,
        UNIT: "CURRENCY",
      }),
      verb: "Fell",
      period: "2 quarters",
      values: "$200 → $150",
    },
    {
      c: card({
        ENTITY_ID: "eth",
        FLAG: "decline_streak_weekly",
        DURATION: 3,
        START_VALUE: -40,
        END_VALUE: -60,
        UNIT: "NOMINAL",
      }),
      verb: "Fell",
      period: "3 weeks",
      values: "-40 → -60",
    },
    {
      c: card({ ENTITY_ID: "eth", FLAG: "streak_odd", DURATION: 5, START_VALUE: 0, END_VALUE: 7, UNIT: "NOMINAL" }),
      verb: "Rose",
      period: "5 periods",
      values: "0 → 7",
    },
  ])("$verb for $period: $values", async ({ c, verb, period, values }) => {
    await loaded([c]);
    const el = cardFor("eth");
    expect(within(el).getByText(c.METRIC_NAME)).toBeTruthy();
    expect(within(el).getByText(`${verb} for ${period} · ${c.DATE_RANGE}`)).toBeTruthy();
    expect(within(el).getByText(values)).toBeTruthy();
    const change = c.START_VALUE === 0 ? null : ((c.END_VALUE - c.START_VALUE) / Math.abs(c.START_VALUE)) * 100;
    const changeText = change === null ? "–" : `${change > 0 ? "+" : ""}${Number(change.toFixed(1))}%`;
    expect(within(el).getByTestId("insight-change").textContent).toBe(changeText);
  });

  it("draws the sparkline from SPARKLINE and labels it", async () => {
    const c = card({ ENTITY_ID: "eth", UNIT: "NOMINAL" });
    await loaded([c]);
    const chart = within(cardFor("eth")).getByRole("img");
    expect(chart.getAttribute("aria-label")).toBe(
      `Sparkline of PRICE for eth: ${c.SPARKLINE.length} periods, ${c.SPARKLINE[0].value} to ${c.SPARKLINE[c.SPARKLINE.length - 1].value}.`,
    );
    const path = chart.querySelector("path")?.getAttribute("d") ?? "";
    expect(path.split(/[ML]/).filter(Boolean)).toHaveLength(c.SPARKLINE.length);
  });

  it("HTML-looking card text stays text", async () => {
    const hostile = card({
      ENTITY_ID: "<img src=x onerror=alert(1)>",
      METRIC_NAME: "<script>alert(2)</script>",
      DATE_RANGE: "<b>range</b>",
    });
    await loaded([hostile]);
    const el = screen.getByTestId("insight-card");
    for (const tag of ["img", "script", "b"]) expect(el.querySelector(tag)).toBeNull();
    expect(within(el).getByRole("heading", { level: 3 }).textContent).toBe(hostile.ENTITY_ID);
    expect(el.textContent).toContain(hostile.METRIC_NAME);
  });

  it("a card with null and text-typed fields renders instead of blanking the pane", async () => {
    const odd = {
      ...card(),
      ENTITY_ID: null,
      START_VALUE: "100",
      END_VALUE: null,
      SPARKLINE: "none",
    } as unknown as InsightCard;
    await loaded([odd, card({ ENTITY_ID: "btc" })]);
    expect(shownEntities()).toEqual(["", "btc"]);
    expect(within(screen.getAllByTestId("insight-card")[0]).getByTestId("insight-change").textContent).toBe("–");
  });

  it.each([
    { c: FEED[0], formula: '=MD.SERIES("eth","PRICE","2024-04-01","2024-05-13","WEEK")' },
    { c: FEED[2], formula: '=MD.SERIES("eq-aapl","NET_INCOME","2023-03-31","2024-03-31","QUARTER")' },
  ])("Insert on $c.ENTITY_ID writes $formula", async ({ c, formula }) => {
    const { workbook } = await loaded();
    fireEvent.click(
      within(cardFor(c.ENTITY_ID)).getByRole("button", {
        name: `Insert the formula for ${c.ENTITY_ID} ${c.METRIC_NAME} into the selected cell`,
      }),
    );
    await within(cardFor(c.ENTITY_ID)).findByText("Inserted into Sheet1!B2.");
    expect(workbook.written).toEqual([formula]);
  });

  it("outside Excel, Insert copies the card's formula and says so", async () => {
    const { workbook, copied } = await loaded(FEED, { inExcel: false });
    expect(
      screen.getByText("Running outside Excel: Insert copies a card's formula instead of writing it into a cell."),
    ).toBeTruthy();
    fireEvent.click(within(cardFor("eth")).getByRole("button", { name: "Insert the formula for eth PRICE" }));
    await screen.findByText(OUTSIDE_EXCEL_COPIED);
    expect(copied).toEqual(['=MD.SERIES("eth","PRICE","2024-04-01","2024-05-13","WEEK")']);
    expect(workbook.written).toEqual([]);
  });
});

describe("Insights: the catalog's names", () => {
  const CARDS: InsightCard[] = [
    card({ ENTITY_ID: "tether", METRIC_NAME: "FEES", FLAG: "streak_weekly" }),
    card({ ENTITY_ID: "l2", METRIC_NAME: "FEES", FLAG: "streak_weekly" }),
    card({ ENTITY_ID: "ethereum", METRIC_NAME: "FEES", FLAG: "streak_weekly" }),
    card({ ENTITY_ID: "dex", METRIC_NAME: "DEX_VOLUMES", FLAG: "streak_weekly" }),
  ];
  const CATALOG = [
    asset("usdt", "Tether USD", { platform_id: "tether" }),
    asset("l2", "Layer 2"),
    asset("eth", "Ethereum", { platform_id: "ethereum" }),
  ];

  it("a card is headed by its entity's catalog title, its id beside the metric; an entity the catalog lacks keeps its id", async () => {
    const { client } = await loaded(CARDS);
    await waitFor(() => expect(client.assets.calls).toHaveLength(1));
    act(() => client.assets.last.resolve(CATALOG));
    await waitFor(() => expect(shownEntities()).toEqual(["Tether USD", "Layer 2", "Ethereum", "dex"]));
    expect(screen.getAllByTestId("insight-metric").map((e) => e.textContent)).toEqual([
      "tether · FEES",
      "l2 · FEES",
      "ethereum · FEES",
      "DEX_VOLUMES",
    ]);
  });

  it('searching "eth": Ethereum (its symbol, whole) before Tether (eth inside a word); "layer" finds l2 by its title', async () => {
    const { client } = await loaded(CARDS);
    await waitFor(() => expect(client.assets.calls).toHaveLength(1));
    act(() => client.assets.last.resolve(CATALOG));
    await waitFor(() => expect(shownEntities()).toContain("Layer 2"));
    fireEvent.change(screen.getByRole("searchbox", { name: "Search insight cards" }), { target: { value: "eth" } });
    await waitFor(() => expect(shownEntities()).toEqual(["Ethereum", "Tether USD"]));
    fireEvent.change(screen.getByRole("searchbox", { name: "Search insight cards" }), { target: { value: "layer" } });
    await waitFor(() => expect(shownEntities()).toEqual(["Layer 2"]));
  });
});

describe("Insights: a streak's sparkline", () => {
  /** The y of each point of a path "M x,y L x,y …" (SVG: larger is lower). */
  const ys = (d: string | null) => (d ?? "").split(" ").map((part) => Number(part.slice(1).split(",")[1]));

  it("a decline streak after a rising lead-in: the lead-in is drawn apart, the streak marked, and it falls", async () => {
    const decline = card({
      ENTITY_ID: "sol",
      METRIC_NAME: "FEES",
      FLAG: "decline_streak_weekly",
      DURATION: 3,
      START_VALUE: 90,
      END_VALUE: 60,
      PERIOD_START_DATE: "2024-05-20",
      PERIOD_END_DATE: "2024-06-09",
      SPARKLINE: [
        { date: "2024-04-29", value: 50 },
        { date: "2024-05-06", value: 70 },
        { date: "2024-05-13", value: 100 },
        { date: "2024-05-20", value: 90 },
        { date: "2024-05-27", value: 75 },
        { date: "2024-06-03", value: 60 },
      ],
    });
    await loaded([decline]);
    const chart = screen.getByTestId("insight-sparkline");
    const leadIn = chart.querySelector('path[data-part="lead-in"]');
    const streak = chart.querySelector('path[data-part="emphasis"]');
    // The lead-in runs from the first point to the streak's first; the streak is its 3 points, each lower.
    expect(ys(leadIn?.getAttribute("d") ?? null)).toHaveLength(4);
    const streakYs = ys(streak?.getAttribute("d") ?? null);
    expect(streakYs).toHaveLength(3);
    expect(streakYs.every((y, i) => i === 0 || y > streakYs[i - 1])).toBe(true);
    expect(chart.getAttribute("aria-label")).toMatch(/the streak, marked, is the last 3, \$90 to \$60\.$/);
  });

  it("a sparkline with no point before the streak is one line", async () => {
    await loaded([card()]);
    const paths = screen.getByTestId("insight-sparkline").querySelectorAll("path");
    expect(Array.from(paths).map((p) => p.getAttribute("data-part"))).toEqual(["line"]);
  });
});
