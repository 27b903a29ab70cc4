/**
 * What the last Refresh all changed (the pane's or the ribbon's): the MD
 * cells whose value changed (old → new, by how much), the ones that became
 * errors, the cells of spilled tables that changed (with each table's
 * count, rows in and out), and the history values a recheck revised (from the runtime's
 * records: PaneServices.trace). Kept by the refresh actions for the
 * workbook's last refresh while it is open. Each cell has a button that
 * selects it in the workbook (Range.select).
 */
import { Body1Strong, Button, Caption1, makeStyles, tokens } from "@fluentui/react-components";
import { useSyncExternalStore } from "react";
import { qualifiedAddress } from "../../refresh/a1";
import { MAX_CHANGES_PER_TABLE, type CellChange, type TableChange } from "../../refresh/refresh-changes";
import { changeText, localTime, valueText } from "../shared/provenance-text";
import { useServices } from "../shared/pane-services";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalXS },
  list: { margin: 0, paddingLeft: tokens.spacingHorizontalL },
  item: { overflowWrap: "anywhere" },
});

function howText(change: CellChange): string {
  if (change.error) return "became an error";
  if (change.by !== undefined) return changeText(change.was as number, change.by);
  return "changed";
}

/** A spilled table's line: how many of its cells changed (and how many are not listed), rows in and out. */
function tableText(table: TableChange): string {
  const where = qualifiedAddress(table.sheet, table.anchor);
  const parts: string[] = [];
  if (table.changed > 0) {
    const unlisted = table.changed - Math.min(table.changed, MAX_CHANGES_PER_TABLE);
    parts.push(`${table.changed} value(s) changed${unlisted > 0 ? ` (${unlisted} more than listed)` : ""}`);
  }
  if (table.rowsIn > 0) parts.push(`${table.rowsIn} new row(s)`);
  if (table.rowsOut > 0) parts.push(`${table.rowsOut} row(s) no longer there`);
  return `The table ${where} spills: ${parts.join(", ")}.`;
}

/** History values a recheck revised, listed at most (a methodology change revises every day of every series). */
export const MAX_REVISED_LISTED = 20;

export function WhatChanged() {
  const styles = useStyles();
  const { refresh, trace } = useServices();
  const changes = useSyncExternalStore(refresh.subscribe, () => refresh.lastChanges());
  if (!changes) return null;
  const revised = trace?.revisedSince(changes.startedAt) ?? [];
  const tables = changes.tables ?? [];
  const total = changes.cells.length + (changes.more ?? 0) + revised.length + tables.length;
  return (
    <section className={styles.root} data-testid="what-changed" aria-label="What changed on the last refresh">
      <Body1Strong as="h3">What changed on the last refresh ({localTime(changes.startedAt)})</Body1Strong>
      {total === 0 ? (
        <Caption1>No MD cell changed its value, and no stored history was revised.</Caption1>
      ) : (
        <ul className={styles.list}>
          {changes.cells.map((change) => {
            const where = qualifiedAddress(change.sheet, change.address);
            return (
              <li key={where} className={styles.item}>
                {where}
                {change.table ? ` (in the table ${change.table} spills)` : ""}: {valueText(change.was)} →{" "}
                {valueText(change.now)} ({howText(change)}){" "}
                <Button
                  size="small"
                  appearance="transparent"
                  aria-label={`Select ${where}`}
                  disabled={!trace}
                  onClick={() => void trace?.selection.select(change.sheet, change.address).catch(() => undefined)}
                >
                  Select
                </Button>
              </li>
            );
          })}
          {changes.more ? <li>… and {changes.more} more cell(s).</li> : null}
          {tables.map((table) => (
            <li key={`table ${table.sheet} ${table.anchor}`} className={styles.item} data-testid="what-changed-table">
              {tableText(table)}
            </li>
          ))}
          {revised.slice(0, MAX_REVISED_LISTED).map(({ call, revision }) => (
            <li key={`${call} ${revision.date}`} className={styles.item}>
              {call} {revision.date}: {valueText(revision.was)} → {valueText(revision.now)} (revised by a recheck)
            </li>
          ))}
          {revised.length > MAX_REVISED_LISTED ? (
            <li>
              … and {revised.length - MAX_REVISED_LISTED} more history value(s) revised by the recheck, in{" "}
              {new Set(revised.map(({ call }) => call)).size} call(s) (each call's Trace lists them).
            </li>
          ) : null}
        </ul>
      )}
    </section>
  );
}
