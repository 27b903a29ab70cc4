/**
 * The templates gallery: one card per template file (./data), each saying
 * what the sheet holds and what it uses, with "Insert" adding it to the
 * workbook as a new worksheet (src/office/workbook/sheet-insert.ts). A template file
 * that cannot be read is listed with the reason instead of disappearing.
 */
import {
  Badge,
  Button,
  Caption1,
  Card,
  makeStyles,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Text,
  tokens,
} from "@fluentui/react-components";
import { useId, useMemo, useState } from "react";
import { errorText } from "../shared/error-text";
import { useServices } from "../shared/pane-services";
import { bundledTemplates } from "./catalog";
import { functionsUsed, type SheetTemplate, type TemplateCatalog } from "./template";

const CHART_NAMES: Record<string, string> = {
  ColumnClustered: "column chart",
  BarClustered: "bar chart",
  Line: "line chart",
  Pie: "pie chart",
};

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalM },
  intro: { margin: 0, color: tokens.colorNeutralForeground2 },
  list: {
    listStyle: "none",
    margin: 0,
    padding: 0,
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalM,
  },
  card: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  title: { margin: 0, fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold },
  uses: { display: "flex", flexWrap: "wrap", gap: tokens.spacingHorizontalXS, alignItems: "center" },
  sheet: { color: tokens.colorNeutralForeground3 },
  actions: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS, alignItems: "flex-start" },
});

/** `attempt` counts the inserts from this card, so a repeated outcome with the same words still reads as new. */
type Outcome = { kind: "inserted" | "failed"; message: string; attempt: number };

export function TemplatesView({ catalog }: { catalog?: TemplateCatalog }) {
  const styles = useStyles();
  const { templates, problems } = useMemo(() => catalog ?? bundledTemplates(), [catalog]);
  return (
    <div className={styles.root} data-testid="templates-view">
      <Text as="p" className={styles.intro}>
        Ready-made sheets: each one is added as a new worksheet with its formulas, formats and a chart.
      </Text>
      {problems.length > 0 && (
        <MessageBar intent="warning" data-testid="template-problems">
          <MessageBarBody>
            <MessageBarTitle>
              {problems.length === 1 ? "A template file could not be read" : "Some template files could not be read"}
            </MessageBarTitle>
            <ul>
              {problems.map((problem) => (
                <li key={problem.file}>{problem.message}</li>
              ))}
            </ul>
          </MessageBarBody>
        </MessageBar>
      )}
      <ul className={styles.list} aria-label="Templates">
        {templates.map((template) => (
          <li key={template.id}>
            <TemplateCard template={template} />
          </li>
        ))}
      </ul>
    </div>
  );
}

function TemplateCard({ template }: { template: SheetTemplate }) {
  const styles = useStyles();
  const { workbook } = useServices();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [attempts, setAttempts] = useState(0);
  const headingId = useId();
  const descriptionId = useId();
  const functions = functionsUsed(template);
  const canInsert = workbook.canInsert && typeof workbook.insertSheet === "function";

  async function insert() {
    const attempt = attempts + 1;
    setAttempts(attempt);
    setBusy(true);
    setOutcome(null);
    try {
      if (!canInsert || !workbook.insertSheet)
        throw new Error("There is no workbook: open this pane in Excel to insert a template.");
      const { sheet } = await workbook.insertSheet(template);
      setOutcome({ kind: "inserted", message: `Added the sheet "${sheet}".`, attempt });
    } catch (error) {
      setOutcome({ kind: "failed", message: `Could not add "${template.title}": ${errorText(error)}`, attempt });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card
      className={styles.card}
      size="small"
      aria-labelledby={headingId}
      aria-describedby={descriptionId}
      data-testid="template-card"
      data-template={template.id}
    >
      <h2 className={styles.title} id={headingId}>
        {template.title}
      </h2>
      <Text id={descriptionId}>{template.description}</Text>
      <div className={styles.uses}>
        <Caption1>Uses</Caption1>
        {functions.map((name) => (
          <Badge key={name} appearance="tint" color="brand" size="small">
            {name}
          </Badge>
        ))}
        {template.chart && (
          <Badge appearance="tint" color="informative" size="small">
            {CHART_NAMES[template.chart.type] ?? "chart"}
          </Badge>
        )}
      </div>
      <Caption1 className={styles.sheet}>New sheet: {template.sheetName}</Caption1>
      <div className={styles.actions}>
        <Button
          appearance="primary"
          disabled={busy}
          aria-label={`Insert the ${template.title} template as a new sheet`}
          onClick={() => void insert()}
          data-testid="insert-template"
        >
          {busy ? "Inserting…" : "Insert"}
        </Button>
        <div role="status" aria-live="polite">
          {outcome && (
            <MessageBar
              key={outcome.attempt}
              intent={outcome.kind === "inserted" ? "success" : "error"}
              data-testid="template-outcome"
              data-attempt={outcome.attempt}
            >
              <MessageBarBody>{outcome.message}</MessageBarBody>
            </MessageBar>
          )}
        </div>
      </div>
    </Card>
  );
}
