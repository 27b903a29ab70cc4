/** @jest-environment jsdom */
/**
 * The templates gallery as a component, over a catalog handed to it: a card
 * per template, Insert hands the template to the workbook and says what
 * happened, a failure or a pane outside Excel says why, and a template file
 * that could not be read is listed with its problem.
 */
import { fireEvent, screen, within } from "@testing-library/react";
import { readTemplates } from "../../src/taskpane/templates/template";
import { TemplatesView } from "../../src/taskpane/templates/templates-view";
import { makeHarness, renderWith } from "../support/pane-fakes";
import { templatesOnDisk } from "../support/sheet-templates";

const catalog = templatesOnDisk();
const first = catalog.templates[0];

function card(title: string): HTMLElement {
  return screen.getByRole("heading", { level: 2, name: title }).closest('[data-testid="template-card"]') as HTMLElement;
}

describe("the templates gallery", () => {
  it("lists every template; Insert hands the template to the workbook and names the new sheet", async () => {
    const harness = makeHarness();
    renderWith(harness, <TemplatesView catalog={catalog} />);
    expect(screen.getAllByTestId("template-card")).toHaveLength(catalog.templates.length);
    fireEvent.click(
      within(card(first.title)).getByRole("button", { name: `Insert the ${first.title} template as a new sheet` }),
    );
    expect((await within(card(first.title)).findByTestId("template-outcome")).textContent).toBe(
      `Added the sheet "${first.sheetName}".`,
    );
    expect(harness.workbook.sheets).toEqual([first]);
  });

  it("says why when the workbook refuses", async () => {
    const harness = makeHarness();
    harness.workbook.failWith = new Error("The cell or chart you're trying to change is on a protected sheet.");
    renderWith(harness, <TemplatesView catalog={catalog} />);
    fireEvent.click(within(card(first.title)).getByRole("button", { name: /^Insert the / }));
    expect((await within(card(first.title)).findByTestId("template-outcome")).textContent).toBe(
      `Could not add "${first.title}": The cell or chart you're trying to change is on a protected sheet.`,
    );
  });

  it("outside Excel, Insert says a workbook is needed", async () => {
    const harness = makeHarness({ inExcel: false });
    renderWith(harness, <TemplatesView catalog={catalog} />);
    fireEvent.click(within(card(first.title)).getByRole("button", { name: /^Insert the / }));
    expect((await within(card(first.title)).findByTestId("template-outcome")).textContent).toBe(
      `Could not add "${first.title}": There is no workbook: open this pane in Excel to insert a template.`,
    );
    expect(harness.workbook.sheets).toEqual([]);
  });

  it("lists a template file that could not be read, with its problem, beside the good ones", () => {
    const { id: _id, ...file } = first;
    const mixed = readTemplates([
      { file: "good.json", data: file },
      { file: "typo.json", data: { ...file, tittle: "x" } },
    ]);
    renderWith(makeHarness(), <TemplatesView catalog={mixed} />);
    expect(screen.getAllByTestId("template-card")).toHaveLength(1);
    expect(screen.getByTestId("template-problems").textContent).toContain('typo.json: unknown field "tittle"');
  });
});
