/** The formula behind an insight card, as text (quoting and omitted arguments are core/formula's). */
import type { Granularity, InsightCard } from "../../core/domain";
import { buildFormula } from "../../core/formula";
import { insightCadence, type Cadence } from "./insight-filter";

const CADENCE_GRANULARITY: Record<Cadence, Granularity> = {
  weekly: "WEEK",
  monthly: "MONTH",
  quarterly: "QUARTER",
};

/** The series behind an insight card, over the card's own window, at the card's cadence. */
export function insightFormula(
  card: Pick<InsightCard, "ENTITY_ID" | "METRIC_NAME" | "FLAG" | "PERIOD_START_DATE" | "PERIOD_END_DATE">,
): string {
  const cadence = insightCadence(card.FLAG);
  return buildFormula("MD.SERIES", [
    card.ENTITY_ID.trim().toLowerCase(),
    card.METRIC_NAME.trim().toUpperCase(),
    card.PERIOD_START_DATE || undefined,
    card.PERIOD_END_DATE || undefined,
    cadence ? CADENCE_GRANULARITY[cadence] : undefined,
  ]);
}
