/**
 * One insight card (2.7): what rose or fell, for how long, by how much, and its sparkline. It is a row of the
 * cards' layout grid (insight-card-list.tsx): its text one cell, Insert and Copy each another.
 */
import { Badge, Caption1, Card, makeStyles, Text, tokens } from "@fluentui/react-components";
import { useId } from "react";
import type { InsightCard } from "../../core/domain";
import { FormulaActions } from "../shared/formula-actions";
import { changePercent, durationText, insightCadence } from "./insight-filter";
import { insightFormula } from "./insight-formula";
import { LineChart } from "../shared/line-chart";
import { formatPercent, formatValue } from "../shared/value-format";

const useStyles = makeStyles({
  card: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalXS },
  // The card's text is a cell of the cards' grid, focused by the arrow keys: a ring shows where focus is.
  content: {
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalXS,
    borderRadius: tokens.borderRadiusMedium,
    outlineOffset: "2px",
    ":focus-visible": { outline: `${tokens.strokeWidthThick} solid ${tokens.colorStrokeFocus2}` },
  },
  header: {
    display: "flex",
    justifyContent: "space-between",
    gap: tokens.spacingHorizontalS,
    alignItems: "flex-start",
  },
  titles: { display: "flex", flexDirection: "column", minWidth: 0 },
  entity: {
    margin: 0,
    fontSize: tokens.fontSizeBase400,
    fontWeight: tokens.fontWeightSemibold,
    overflowWrap: "anywhere",
  },
  metric: { fontFamily: tokens.fontFamilyMonospace, color: tokens.colorNeutralForeground3, overflowWrap: "anywhere" },
  badges: { display: "flex", gap: tokens.spacingHorizontalXS, flexShrink: 0 },
  values: {
    display: "flex",
    alignItems: "baseline",
    gap: tokens.spacingHorizontalS,
    flexWrap: "wrap",
    fontVariantNumeric: "tabular-nums",
  },
  up: { color: tokens.colorPaletteGreenForeground1, fontWeight: tokens.fontWeightSemibold },
  down: { color: tokens.colorPaletteRedForeground1, fontWeight: tokens.fontWeightSemibold },
});

/** `title`: the catalog's name for the card's entity; the id shows beside the metric. */
/** The index of the first sparkline point of the streak (dated on or after its start); 0 when none is before it. */
export function streakStart(sparkline: readonly { date: string }[], periodStart: string): number {
  if (!/^\d{4}-\d{2}-\d{2}/.test(periodStart)) return 0;
  const at = sparkline.findIndex((p) => p.date >= periodStart);
  return at < 0 ? 0 : at;
}

/** `rowIndex`: the card's place among all the cards that match (aria-rowindex; a page of them is shown at a time). */
export function InsightCardView({ card, title, rowIndex }: { card: InsightCard; title?: string; rowIndex?: number }) {
  const styles = useStyles();
  const cadence = insightCadence(card.FLAG);
  const change = changePercent(card.START_VALUE, card.END_VALUE);
  const decline = card.END_VALUE < card.START_VALUE;
  const sparkline = Array.isArray(card.SPARKLINE) ? card.SPARKLINE : [];
  const values = sparkline.map((p) => p.value);
  // The streak's own periods (from its first, dated on or after the streak's start); those before are its lead-in.
  const streakFrom = streakStart(sparkline, card.PERIOD_START_DATE);
  const start = formatValue(card.START_VALUE, card.UNIT);
  const end = formatValue(card.END_VALUE, card.UNIT);
  const duration = durationText(card.DURATION, cadence);
  const headingId = useId();

  return (
    <Card
      className={styles.card}
      size="small"
      role="row"
      aria-rowindex={rowIndex}
      aria-labelledby={headingId}
      data-testid="insight-card"
    >
      <div role="gridcell" className={styles.content} data-grid-focus>
        <div className={styles.header}>
          <div className={styles.titles}>
            <h3 className={styles.entity} id={headingId} data-entity={card.ENTITY_ID}>
              {title ?? card.ENTITY_ID}
            </h3>
            <Caption1 className={styles.metric} data-testid="insight-metric">
              {title ? `${card.ENTITY_ID} · ${card.METRIC_NAME}` : card.METRIC_NAME}
            </Caption1>
          </div>
          <div className={styles.badges}>
            {cadence && (
              <Badge appearance="tint" color="brand" size="small">
                {cadence}
              </Badge>
            )}
          </div>
        </div>
        <Text size={200}>
          {decline ? "Fell" : "Rose"} for {duration} · {card.DATE_RANGE}
        </Text>
        <div className={styles.values}>
          <Text>
            {start} → {end}
          </Text>
          <Text className={decline ? styles.down : styles.up} data-testid="insight-change">
            {formatPercent(change)}
          </Text>
        </div>
        {values.length > 1 && (
          <LineChart
            values={values}
            width={280}
            height={36}
            label={`Sparkline of ${card.METRIC_NAME} for ${title ?? card.ENTITY_ID}: ${values.length} periods, ${formatValue(values[0], card.UNIT)} to ${formatValue(values[values.length - 1], card.UNIT)}${streakFrom > 0 ? `; the streak, marked, is the last ${values.length - streakFrom}, ${formatValue(values[streakFrom], card.UNIT)} to ${formatValue(values[values.length - 1], card.UNIT)}` : ""}.`}
            emphasisFrom={streakFrom}
            color={decline ? tokens.colorPaletteRedForeground1 : tokens.colorPaletteGreenForeground1}
            testId="insight-sparkline"
          />
        )}
      </div>
      <FormulaActions formula={insightFormula(card)} subject={`${card.ENTITY_ID} ${card.METRIC_NAME}`} compact grid />
    </Card>
  );
}
