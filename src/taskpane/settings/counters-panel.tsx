/**
 * The shared client's counters. They change with every calculation in the
 * workbook, not only with what the pane does, so they are polled — once a
 * second, and only while the Settings view is showing.
 */
import { Button, makeStyles, MessageBar, MessageBarBody, tokens } from "@fluentui/react-components";
import { useEffect, useState } from "react";
import type { ClientCounters } from "../../api";
import { useServices } from "../shared/pane-services";
import { formatBytes } from "../shared/value-format";

export const COUNTER_POLL_MS = 1000;

const useStyles = makeStyles({
  grid: {
    display: "grid",
    gridTemplateColumns: "repeat(auto-fill, minmax(120px, 1fr))",
    gap: tokens.spacingVerticalS,
    margin: 0,
  },
  item: {
    display: "flex",
    flexDirection: "column-reverse",
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  term: { fontSize: tokens.fontSizeBase200, color: tokens.colorNeutralForeground3 },
  value: {
    margin: 0,
    fontSize: tokens.fontSizeBase500,
    fontWeight: tokens.fontWeightSemibold,
    fontVariantNumeric: "tabular-nums",
  },
  row: { display: "flex", gap: tokens.spacingHorizontalS, alignItems: "center", marginTop: tokens.spacingVerticalS },
});

const LABELS: [keyof ClientCounters, string][] = [
  ["requests", "Requests"],
  ["cacheHits", "Cache hits"],
  ["retries", "Retries"],
  ["failures", "Failures"],
  ["bytes", "Received"],
];

export function CountersPanel({ active }: { active: boolean }) {
  const styles = useStyles();
  const { client } = useServices();
  const [counters, setCounters] = useState<ClientCounters>(() => client.counters());
  const [cleared, setCleared] = useState(false);

  useEffect(() => {
    if (!active) return;
    setCounters(client.counters());
    const timer = setInterval(() => setCounters(client.counters()), COUNTER_POLL_MS);
    return () => clearInterval(timer);
  }, [active, client]);

  return (
    <>
      <dl className={styles.grid} aria-label="Client counters" data-testid="counters">
        {LABELS.map(([key, label]) => (
          <div key={key} className={styles.item} data-testid={`counter-${key}`}>
            <dt className={styles.term}>{label}</dt>
            <dd className={styles.value}>
              {key === "bytes" ? formatBytes(counters[key]) : counters[key].toLocaleString("en-US")}
            </dd>
          </div>
        ))}
      </dl>
      <div className={styles.row}>
        <Button
          onClick={() => {
            client.clear();
            setCounters(client.counters());
            setCleared(true);
          }}
        >
          Clear cache
        </Button>
      </div>
      <div role="status" aria-live="polite">
        {cleared && (
          <MessageBar intent="success">
            <MessageBarBody>Cache cleared: the next calculation fetches fresh data.</MessageBarBody>
          </MessageBar>
        )}
      </div>
    </>
  );
}
