/** @jest-environment jsdom */
/**
 * Notes about results in the pane: a table the payload guard sent as plain
 * numbers (its formats dropped to stay within Excel's limit) leaves a note in
 * the runtime's call tracker; the counters panel in Settings shows the newest,
 * polled like the counters, until the user dismisses them.
 */
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { CallTracker } from "../../../src/office/call-tracker";
import { CountersPanel } from "../../../src/taskpane/settings/counters-panel";
import { NOTES_SHOWN } from "../../../src/taskpane/settings/result-notes";
import { makeHarness, renderWith } from "../../support/pane-fakes";

const NOTE = (n: number) =>
  `MD.SERIES: table ${n}: the formatted result (4,000 rows × 60 columns) would reach Excel as about 15.6 MB, over its 5 MB limit for one formula, so it was sent as plain numbers`;

function renderPanel() {
  const calls = new CallTracker();
  const harness = makeHarness();
  harness.services.resultNotes = () => calls.notes();
  renderWith(harness, <CountersPanel active />);
  return calls;
}

const shownNotes = () =>
  within(screen.getByTestId("result-notes"))
    .getAllByRole("listitem")
    .map((item) => item.textContent ?? "");

describe("Settings: notes about recent results", () => {
  it("shows nothing while there is no note", async () => {
    renderPanel();
    await screen.findByTestId("counters");
    expect(screen.queryByTestId("result-notes")).toBeNull();
  });

  it("shows a note recorded after a recalculation, on the next poll", async () => {
    const calls = renderPanel();
    await screen.findByTestId("counters");
    calls.note(NOTE(1), Date.UTC(2025, 2, 3, 9, 30));
    await waitFor(() => expect(screen.getByTestId("result-notes")).toBeTruthy());
    const [line] = shownNotes();
    expect(line).toContain(NOTE(1));
    expect(line).toContain("sent as plain numbers");
  });

  it(`shows the newest ${NOTES_SHOWN} first and counts the earlier ones`, async () => {
    const calls = renderPanel();
    for (let n = 1; n <= 5; n += 1) calls.note(NOTE(n), 1_000 * n);
    await waitFor(() => expect(screen.getByTestId("result-notes")).toBeTruthy());
    const lines = shownNotes();
    expect(lines).toHaveLength(NOTES_SHOWN);
    expect(lines.map((line) => /table (\d)/.exec(line)?.[1])).toEqual(["5", "4", "3"]);
    expect(screen.getByTestId("result-notes").textContent).toContain("and 2 earlier");
  });

  it("Dismiss hides the notes shown; a later note appears again", async () => {
    const calls = renderPanel();
    calls.note(NOTE(1), 1_000);
    await waitFor(() => expect(screen.getByTestId("result-notes")).toBeTruthy());
    fireEvent.click(within(screen.getByTestId("result-notes")).getByRole("button", { name: "Dismiss" }));
    expect(screen.queryByTestId("result-notes")).toBeNull();

    calls.note(NOTE(2), 2_000);
    await waitFor(() => expect(screen.getByTestId("result-notes")).toBeTruthy());
    expect(shownNotes()).toHaveLength(1);
    expect(shownNotes()[0]).toContain(NOTE(2));
  });
});
