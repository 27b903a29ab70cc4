/**
 * One MD call of the selected cell, as the runtime recorded it: the call as
 * the add-in read it, its state, the answers (request address without key or
 * token, when, how long, who answered, the days covered and settled, the
 * points the checks dropped), the corrections the store applied, and the
 * button that copies the same call pinned to its date.
 */
import { Body1Strong, Button, Caption1, makeStyles, tokens } from "@fluentui/react-components";
import { useState } from "react";
import type { PairAnswer, Revision } from "../../api";
import type { TracedCall } from "../../office/cell-trace";
import { useServices } from "../shared/pane-services";
import { daysText, droppedText, localTime, sourceText, valueText } from "../shared/provenance-text";

const useStyles = makeStyles({
  card: {
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalXS,
    padding: tokens.spacingHorizontalS,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  code: { fontFamily: tokens.fontFamilyMonospace, overflowWrap: "anywhere" },
  list: { margin: 0, paddingLeft: tokens.spacingHorizontalL },
  terms: { display: "grid", gridTemplateColumns: "max-content 1fr", columnGap: tokens.spacingHorizontalS, margin: 0 },
  term: { color: tokens.colorNeutralForeground3 },
  detail: { margin: 0, overflowWrap: "anywhere" },
});

function Answer({ answer }: { answer: PairAnswer }) {
  const styles = useStyles();
  const dropped = droppedText(answer.dropped);
  const rows: [string, string][] = [
    ["From", sourceText(answer)],
    ["Pair", `${answer.symbol} ${answer.metric}${answer.granularity ? ` (${answer.granularity})` : ""}`],
  ];
  if (answer.request) {
    rows.push(["Request", answer.request.address]);
    rows.push(["When", `${localTime(answer.request.at)}, ${answer.request.ms} ms`]);
  } else {
    rows.push(["Fetched", localTime(answer.fetchedAt)]);
  }
  rows.push(["Days", daysText(answer)]);
  if (dropped) rows.push(["Dropped", `${dropped} (the answer checks)`]);
  return (
    <li>
      <dl className={styles.terms}>
        {rows.map(([term, detail]) => (
          <div key={term} style={{ display: "contents" }}>
            <dt className={styles.term}>{term}</dt>
            <dd className={term === "Request" ? `${styles.detail} ${styles.code}` : styles.detail}>{detail}</dd>
          </div>
        ))}
      </dl>
    </li>
  );
}

function Corrections({ revisions }: { revisions: readonly Revision[] }) {
  const styles = useStyles();
  if (revisions.length === 0) return null;
  return (
    <>
      <Body1Strong as="h3">Corrections the store applied ({revisions.length})</Body1Strong>
      <ul className={styles.list}>
        {revisions.slice(0, 20).map((r) => (
          <li key={r.date}>
            {r.date}: {valueText(r.was)} → {valueText(r.now)} (corrected {localTime(r.at)})
          </li>
        ))}
      </ul>
    </>
  );
}

export function CallTraceCard({ traced }: { traced: TracedCall }) {
  const styles = useStyles();
  const { copyText } = useServices();
  const [copied, setCopied] = useState<string | null>(null);
  const { trace, pinned, call } = traced;
  const asTyped = `MD.${call.fn}(${call.args.join(",")})`;
  if (!trace) {
    return (
      <section className={styles.card} data-testid="trace-call" aria-label={asTyped}>
        <Body1Strong as="h2" className={styles.code}>
          {asTyped}
        </Body1Strong>
        <Caption1>
          Not computed since the add-in started, so nothing is recorded of it: Refresh all (Settings) computes it again.
        </Caption1>
      </section>
    );
  }
  const state =
    trace.state === "pending"
      ? "Computing…"
      : trace.state === "failed"
        ? `Failed: ${trace.error ?? "no message"}`
        : `Done ${localTime(trace.settledAt ?? trace.startedAt)}, in ${(trace.settledAt ?? trace.startedAt) - trace.startedAt} ms`;
  return (
    <section className={styles.card} data-testid="trace-call" aria-label={trace.key}>
      <Body1Strong as="h2" className={styles.code}>
        {trace.key}
      </Body1Strong>
      <Caption1>The call as the add-in read it. {state}</Caption1>
      <Body1Strong as="h3">What answered it ({trace.answers.length})</Body1Strong>
      {trace.answers.length === 0 ? (
        <Caption1>No data request: the call needs none, or its answer was already in the add-in's memory.</Caption1>
      ) : (
        <ul className={styles.list}>
          {trace.answers.map((answer, i) => (
            <Answer key={i} answer={answer} />
          ))}
        </ul>
      )}
      <Corrections revisions={trace.revisions} />
      {pinned && (
        <div>
          <Button
            size="small"
            onClick={() => void copyText(pinned).then((ok) => setCopied(ok ? pinned : "Copying is blocked here."))}
          >
            Copy a formula that reproduces this value later
          </Button>
          <Caption1 as="p" className={styles.code} role="status" data-testid="trace-pinned">
            {copied ?? pinned}
          </Caption1>
        </div>
      )}
    </section>
  );
}
