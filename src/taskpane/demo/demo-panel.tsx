/**
 * The demo workbook on screen: a banner that says it is not Excel, the
 * sheets as buttons, and a small grid of the shown sheet's used range —
 * values as the cells hold them (a spill's cells marked), the formula of the
 * cell picked (also on hover). Picking a cell selects it, so the Picker's
 * Insert writes there. Re-rendered whenever the workbook changes (after each
 * sync and each result that lands).
 */
import { Button, Caption1, makeStyles, Switch, Text, tokens } from "@fluentui/react-components";
import { useEffect, useState } from "react";
import type { DemoWorkbook } from "./demo-types";
import { gridOf, shownValue } from "./demo-grid";

const useStyles = makeStyles({
  panel: {
    margin: `0 ${tokens.spacingHorizontalL} ${tokens.spacingVerticalS}`,
    padding: tokens.spacingHorizontalS,
    border: `2px dashed ${tokens.colorPaletteMarigoldBorderActive}`,
    borderRadius: tokens.borderRadiusMedium,
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalXS,
  },
  sheets: { display: "flex", flexWrap: "wrap", gap: tokens.spacingHorizontalXS },
  scroller: { overflow: "auto", maxHeight: "260px" },
  table: { borderCollapse: "collapse", fontSize: tokens.fontSizeBase200 },
  head: {
    backgroundColor: tokens.colorNeutralBackground3,
    color: tokens.colorNeutralForeground2,
    fontWeight: tokens.fontWeightRegular,
    padding: `0 ${tokens.spacingHorizontalXS}`,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  cell: {
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    padding: `0 ${tokens.spacingHorizontalXS}`,
    maxWidth: "120px",
    overflow: "hidden",
    textOverflow: "ellipsis",
    whiteSpace: "nowrap",
    cursor: "cell",
  },
  spilled: { backgroundColor: tokens.colorBrandBackground2 },
  picked: { outline: `2px solid ${tokens.colorBrandStroke1}`, outlineOffset: "-2px" },
  formulaBar: { fontFamily: tokens.fontFamilyMonospace, overflowWrap: "anywhere" },
});

export interface DemoPanelProps {
  demo: DemoWorkbook;
  on: boolean;
  turn(on: boolean): void;
}

/** The switch (off: the pane copies formulas, as outside Office in any build) and, when on, the workbook. */
export function DemoWorkbookPanel({ demo, on, turn }: DemoPanelProps) {
  const styles = useStyles();
  return (
    <section className={styles.panel} aria-label="Demo workbook" data-testid="demo-workbook">
      <Switch
        checked={on}
        onChange={(_, data) => turn(data.checked)}
        label={
          <Text weight="semibold" data-testid="demo-banner">
            Demo workbook — not Excel
          </Text>
        }
      />
      <Caption1>
        {on
          ? "The pane works on this in-page workbook (development builds only); its MD formulas run the add-in's own functions against the configured service. Nothing here is saved."
          : "Outside Office there is no workbook: turn this on to try Insert, Templates, Artemis, Refresh and Freeze on an in-page one."}
      </Caption1>
      {on && <DemoSheet demo={demo} />}
    </section>
  );
}

function DemoSheet({ demo }: { demo: DemoWorkbook }) {
  const styles = useStyles();
  const { standIn } = demo;
  const [, setVersion] = useState(0);
  useEffect(() => demo.subscribe(() => setVersion((v) => v + 1)), [demo]);
  // The sheet Excel would show: the one the user clicked, or the one the pane added (a template) and activated.
  const sheet = standIn.activeSheet();
  const changed = () => setVersion((v) => v + 1);
  const grid = gridOf(standIn, sheet);
  const selection = standIn.selection();
  const picked = selection.sheet === sheet ? selection.areas[0] : null;
  const pickedCell = picked ? standIn.cell(sheet, picked) : null;

  return (
    <>
      <div className={styles.sheets} role="group" aria-label="Sheets">
        {standIn.sheetNames().map((name) => (
          <Button
            key={name}
            size="small"
            appearance={name === sheet ? "primary" : "secondary"}
            aria-pressed={name === sheet}
            onClick={() => {
              standIn.activate(name);
              changed();
            }}
          >
            {name}
          </Button>
        ))}
      </div>
      <div className={styles.scroller} tabIndex={0} role="region" aria-label={`Cells of ${sheet}`}>
        <table className={styles.table} data-testid="demo-grid" data-sheet={sheet}>
          <thead>
            <tr>
              {/* The corner heads nothing (axe empty-table-header): a plain cell, as in Excel. */}
              <td className={styles.head} />
              {grid.columns.map((column) => (
                <th key={column} className={styles.head} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {grid.rows.map((row) => (
              <tr key={row.number}>
                <th className={styles.head} scope="row">
                  {row.number}
                </th>
                {row.cells.map((cell) => (
                  <td
                    key={cell.address}
                    className={[
                      styles.cell,
                      cell.spilled ? styles.spilled : "",
                      cell.address === picked ? styles.picked : "",
                    ].join(" ")}
                    data-address={cell.address}
                    data-testid="demo-cell"
                    title={cell.formula ?? undefined}
                    onClick={() => {
                      standIn.select(sheet, [cell.address]);
                      changed();
                    }}
                  >
                    {cell.shown}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Caption1 className={styles.formulaBar} data-testid="demo-formula-bar">
        {picked && pickedCell
          ? `${sheet}!${picked}: ${pickedCell.formula ?? shownValue(pickedCell.value)}`
          : "Pick a cell to select it."}
        {grid.clipped ? ` (showing ${grid.shown} of ${grid.used})` : ""}
      </Caption1>
    </>
  );
}
