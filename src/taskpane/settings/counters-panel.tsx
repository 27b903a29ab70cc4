/**
 * The shared client's counters, the data stored on this computer (warm
 * workbooks), and notes about recent results (a table sent without its
 * formats). They change with every calculation in the workbook, not only
 * with what the pane does, so they are polled — once a second, and only while
 * the Settings view is showing.
 */
import { Button, Caption1, makeStyles, MessageBarBody, tokens } from "@fluentui/react-components";
import { MessageBar } from "../shared/message-bar";
import { useEffect, useState } from "react";
import type { ClientCounters, StoreStatus } from "../../api";
import { useServices, type ResultNote } from "../shared/pane-services";
import { formatBytes } from "../shared/value-format";
import { ResultNotes } from "./result-notes";

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
  ["dropped", "Points dropped"],
];

/** Where the stored data lives, as one line. */
export function storedDataText(store: StoreStatus): string {
  const held = `${store.series.toLocaleString("en-US")} series, ${formatBytes(store.bytes)}`;
  if (store.backend === "indexeddb") return `${held} of ${formatBytes(store.maxBytes)} on this computer`;
  if (store.backend === "opening") return `${held} (opening the store on this computer)`;
  if (store.backend === "memory") return `${held}, this session only: ${store.reason ?? "no storage on this computer"}`;
  return "Not kept";
}

export function CountersPanel({ active }: { active: boolean }) {
  const styles = useStyles();
  const { client, resultNotes } = useServices();
  const [counters, setCounters] = useState<ClientCounters>(() => client.counters());
  const [store, setStore] = useState<StoreStatus>(() => client.storage());
  const [cleared, setCleared] = useState<string | null>(null);
  const [notes, setNotes] = useState<readonly ResultNote[]>(() => resultNotes?.() ?? []);
  /** Notes up to this time were dismissed; the tracker keeps them, the pane stops showing them. */
  const [dismissedAt, setDismissedAt] = useState(Number.NEGATIVE_INFINITY);

  useEffect(() => {
    if (!active) return;
    const poll = () => {
      setCounters(client.counters());
      setStore(client.storage());
      setNotes(resultNotes?.() ?? []);
    };
    poll();
    const timer = setInterval(poll, COUNTER_POLL_MS);
    return () => clearInterval(timer);
  }, [active, client, resultNotes]);
  const shownNotes = notes.filter((note) => note.at > dismissedAt);

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
        <div className={styles.item} data-testid="counter-storeHits">
          <dt className={styles.term}>Stored data hits</dt>
          <dd className={styles.value}>{store.hits.toLocaleString("en-US")}</dd>
        </div>
        <div className={styles.item} data-testid="counter-bytesSaved">
          <dt className={styles.term}>Saved by stored data</dt>
          <dd className={styles.value}>{formatBytes(store.bytesSaved)}</dd>
        </div>
      </dl>
      <Caption1 as="p" data-testid="stored-data">
        Stored data: {storedDataText(store)}
      </Caption1>
      <div className={styles.row}>
        <Button
          onClick={() => {
            client.clear();
            setCounters(client.counters());
            setCleared("Cache cleared: the next calculation fetches fresh data.");
          }}
        >
          Clear cache
        </Button>
        <Button
          onClick={() => {
            void client.clearStored().then(() => {
              setStore(client.storage());
              setCleared("Stored data cleared: the next calculation fetches everything again.");
            });
          }}
        >
          Clear stored data
        </Button>
      </div>
      <ResultNotes
        notes={shownNotes}
        onDismiss={() => setDismissedAt(Math.max(...shownNotes.map((note) => note.at)))}
      />
      <div role="status" aria-live="polite">
        {cleared && (
          <MessageBar intent="success">
            <MessageBarBody>{cleared}</MessageBarBody>
          </MessageBar>
        )}
      </div>
    </>
  );
}
