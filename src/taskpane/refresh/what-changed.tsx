/**
 * What the last Refresh all changed (the pane's or the ribbon's): the MD
 * cells whose value changed (old → new, by how much), the ones that became
 * errors, and the history values a recheck revised (from the runtime's
 * records: PaneServices.trace). Kept by the refresh actions for the
 * workbook's last refresh while it is open. Each cell has a button that
 * selects it in the workbook (Range.select).
 */
import { Body1Strong, Button, Caption1, makeStyles, tokens } from "@fluentui/react-components";
import { useSyncExternalStore } from "react";
import { qualifiedAddress } from "../../refresh/a1";
import type { CellChange } from "../../refresh/refresh-changes";
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

export function WhatChanged() {
  const styles = useStyles();
  const { refresh, trace } = useServices();
  const changes = useSyncExternalStore(refresh.subscribe, () => refresh.lastChanges());
  if (!changes) return null;
  const revised = trace?.revisedSince(changes.startedAt) ?? [];
  const total = changes.cells.length + (changes.more ?? 0) + revised.length;
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
                {where}: {valueText(change.was)} → {valueText(change.now)} ({howText(change)}){" "}
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
          {revised.map(({ call, revision }) => (
            <li key={`${call} ${revision.date}`} className={styles.item}>
              {call} {revision.date}: {valueText(revision.was)} → {valueText(revision.now)} (revised by a recheck)
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
