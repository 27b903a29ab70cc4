/**
 * A value's provenance (core/provenance.ts), worked out from what the client
 * recorded as it answered (its answer log, src/api/answer-log.ts) and the
 * metric's catalog entry the cell's format already read: no request of its
 * own. Only where the host shows properties on values (ctx.cellProperties);
 * elsewhere nothing is worked out.
 */
import { fetchOf, type AnswerLogView, type PairAnswer, type Revision } from "../api";
import { addDays } from "../core/calendar";
import type { MetricDescriptor } from "../core/domain";
import { parsePrefixedMetric } from "../core/agg-window";
import type { Provenance } from "../core/provenance";
import type { ValueKind } from "../core/number-format";
import { UNSETTLED_DAYS } from "../core/readings";
import type { WindowCoverage, WindowSpan } from "../core/window-span";
import type { CallContext } from "./call-context";
import { describedMetric, kindOfDescriptor } from "./metric-units";

/** What the catalog says of a metric, for its property: its description (from the symbol's own catalog) and unit. */
export type MetricWords = Partial<Pick<MetricDescriptor, "unit" | "description">>;

/** What a value was computed from: its date, and for a windowed value its window and coverage. */
export interface ProvenanceInput {
  date: string;
  span?: WindowSpan;
  coverage?: WindowCoverage | null;
}

function covers(answer: PairAnswer, date: string): boolean {
  return (answer.from === undefined || answer.from <= date) && (answer.to === undefined || date <= answer.to);
}

/** The pair's latest answer whose days hold `date` (the last one recorded when none does). */
function answerFor(answers: readonly PairAnswer[], date: string): PairAnswer | undefined {
  for (let i = answers.length - 1; i >= 0; i--) if (covers(answers[i]!, date)) return answers[i];
  return answers.at(-1);
}

/**
 * Who answered the day: for the store, the range that holds it (fetched at its own time), and where this session's
 * own request fetched that range, that request's source (the store only handed out what it had just been given).
 */
function sourceOfDay(
  answers: readonly PairAnswer[],
  answer: PairAnswer | undefined,
  date: string,
): { source: Provenance["source"]; fetchedAt: number; settledThrough?: string } {
  if (!answer) return { source: "service", fetchedAt: Date.now() };
  const range = answer.source === "store" ? answer.ranges?.find((r) => r.start <= date && date <= r.end) : undefined;
  if (!range) return { source: answer.source, fetchedAt: answer.fetchedAt, settledThrough: answer.settledThrough };
  const fetch = fetchOf(answers, range, date);
  const settledThrough = range.settled ? range.end : undefined;
  return {
    source: fetch?.source ?? "store",
    fetchedAt: range.fetchedAt,
    settledThrough: settledThrough ?? fetch?.settledThrough,
  };
}

/** The last correction that arrived for a day of `from`…`to` (a window's value). */
function latestRevisionIn(
  log: AnswerLogView | undefined,
  symbol: string,
  metric: string,
  from: string,
  to: string,
): Revision | undefined {
  const revisions = log?.revisions(symbol, metric) ?? [];
  for (let i = revisions.length - 1; i >= 0; i--) {
    const revision = revisions[i]!;
    if (revision.date >= from && revision.date <= to) return revision;
  }
  return undefined;
}

/** The first day not yet settled by age, for `today` (every cell of a recalculation asks for the same day). */
let unsettledFrom = { today: "", from: "" };

function firstUnsettledDay(today: string): string {
  if (unsettledFrom.today !== today) unsettledFrom = { today, from: addDays(today, -(UNSETTLED_DAYS - 1)) };
  return unsettledFrom.from;
}

/**
 * The provenance of a value of `symbol metric` (`metric` as the formula named it; a summed metric's days are its
 * base's). `descriptor`: the catalog's entry, when the caller has it.
 */
export function provenanceOf(
  ctx: CallContext,
  symbol: string,
  metric: string,
  input: ProvenanceInput,
  descriptor?: MetricWords,
): Provenance | undefined {
  if (!ctx.cellProperties) return undefined;
  const pairMetric = parsePrefixedMetric(metric)?.base ?? metric;
  const log = ctx.client.answers;
  const date = input.span?.end ?? input.date;
  const answers = log?.answers(symbol, pairMetric) ?? [];
  const answer = answerFor(answers, date);
  const { source, fetchedAt, settledThrough } = sourceOfDay(answers, answer, date);
  const settled = settledThrough !== undefined ? date <= settledThrough : date < firstUnsettledDay(ctx.today);
  const provenance: Provenance = { symbol, metric, date, settled, source, fetchedAt };
  if (ctx.dateSystem !== undefined) provenance.dateSystem = ctx.dateSystem;
  if (descriptor?.description) provenance.description = descriptor.description;
  if (descriptor?.unit) provenance.unit = descriptor.unit;
  if (input.span) provenance.start = input.span.start;
  if (input.coverage) provenance.daysWithData = input.coverage.daysWithData;
  const revision = input.span
    ? latestRevisionIn(log, symbol, pairMetric, input.span.start, date)
    : log?.revision(symbol, pairMetric, date);
  if (revision) provenance.revised = { was: revision.was, wasFetchedAt: revision.wasFetchedAt, at: revision.at };
  ctx.record?.facts(provenance);
  return provenance;
}

/** What the catalog says of a metric for its property: the whole entry from the symbol's own catalog, the unit alone from a stand-in's. */
function wordsOf(descriptor: MetricDescriptor | undefined, own: boolean): MetricWords | undefined {
  if (!descriptor) return undefined;
  return own ? descriptor : { unit: descriptor.unit };
}

/**
 * The metric's catalog entry where properties are shown: the shared catalog the format reads (no request of its
 * own). A catalog that stands in for the symbol's (metric-units.ts: one per kind) gives the unit alone: its
 * description is another asset's.
 */
export function descriptorForProperties(
  ctx: CallContext,
  symbol: string,
  metric: string,
): Promise<MetricWords | undefined> {
  if (!ctx.cellProperties) return Promise.resolve(undefined);
  return describedMetric(ctx, symbol, parsePrefixedMetric(metric)?.base ?? metric).then(
    ({ descriptor, own }) => wordsOf(descriptor, own),
    () => undefined,
  );
}

/** The value kind (its format) and the catalog's words, from one look at the catalog: for cells with properties. */
export function kindAndWords(
  ctx: CallContext,
  symbol: string,
  metric: string,
): Promise<{ kind: ValueKind; words: MetricWords | undefined }> {
  return describedMetric(ctx, symbol, parsePrefixedMetric(metric)?.base ?? metric).then(({ descriptor, own }) => ({
    kind: kindOfDescriptor(descriptor),
    words: wordsOf(descriptor, own),
  }));
}
