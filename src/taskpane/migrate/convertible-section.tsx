/** "To convert": each convertible formula beside its MD formula, with a box to choose it, and the Convert button. */
import { Body1, Button, Caption1, Checkbox, mergeClasses, Subtitle2 } from "@fluentui/react-components";
import { plural } from "./cell-name";
import { useMigrateStyles } from "./migrate-styles";
import type { Row } from "./use-artemis-scan";

export interface ConvertibleSectionProps {
  /** Every Artemis formula found (none: the workbook has none). */
  rows: readonly Row[];
  convertible: readonly Row[];
  unticked: ReadonlySet<string>;
  setUnticked(update: ReadonlySet<string> | ((previous: ReadonlySet<string>) => ReadonlySet<string>)): void;
  chosen: number;
  busy: "convert" | "undo" | null;
  onConvert(): void;
}

export function ConvertibleSection({
  rows,
  convertible,
  unticked,
  setUnticked,
  chosen,
  busy,
  onConvert,
}: ConvertibleSectionProps) {
  const styles = useMigrateStyles();
  return (
    <section className={styles.section} aria-labelledby="migrate-convertible-heading">
      <Subtitle2 as="h2" id="migrate-convertible-heading" className={styles.heading}>
        To convert ({convertible.length})
      </Subtitle2>
      {convertible.length === 0 ? (
        <Body1>
          {rows.length === 0
            ? "No ART, ARTRANGE or ARTINFO formulas in this workbook."
            : "None of the Artemis formulas found can be converted."}
        </Body1>
      ) : (
        <>
          <div className={styles.actions}>
            <Button size="small" onClick={() => setUnticked(new Set())} disabled={busy !== null}>
              Select all
            </Button>
            <Button
              size="small"
              onClick={() => setUnticked(new Set(convertible.map((r) => r.key)))}
              disabled={busy !== null}
            >
              Select none
            </Button>
          </div>
          <ul className={styles.list} aria-label="Formulas to convert">
            {convertible.map((row, i) => (
              <li key={row.key} className={styles.item} data-testid="migrate-convertible">
                <Checkbox
                  id={`migrate-choice-${i}`}
                  checked={!unticked.has(row.key)}
                  disabled={busy !== null}
                  onChange={(_, data) =>
                    setUnticked((previous) => {
                      const next = new Set(previous);
                      if (data.checked) next.delete(row.key);
                      else next.add(row.key);
                      return next;
                    })
                  }
                  label={<span className={styles.address}>{row.key}</span>}
                  aria-describedby={`migrate-choice-${i}-formulas`}
                />
                <div className={styles.formulas} id={`migrate-choice-${i}-formulas`}>
                  <p className={mergeClasses(styles.code, styles.before)}>
                    <span className={styles.hidden}>Now: </span>
                    <span data-testid="migrate-original">{row.formula}</span>
                  </p>
                  <p className={styles.code}>
                    <span aria-hidden="true">→ </span>
                    <span className={styles.hidden}>Becomes: </span>
                    <span data-testid="migrate-converted">{row.converted!.formula}</span>
                  </p>
                  {row.converted!.notes.map((note) => (
                    <Caption1 as="p" key={note} className={mergeClasses(styles.note, styles.heading)}>
                      {note}
                    </Caption1>
                  ))}
                </div>
              </li>
            ))}
          </ul>
          <div className={styles.actions}>
            <Button appearance="primary" onClick={onConvert} disabled={busy !== null || chosen === 0}>
              {busy === "convert" ? "Converting…" : `Convert ${plural(chosen, "formula")}`}
            </Button>
          </div>
        </>
      )}
    </section>
  );
}
