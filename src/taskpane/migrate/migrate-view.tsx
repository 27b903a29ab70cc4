/**
 * Switching from Artemis Sheets: scans every sheet for ART, ARTRANGE and
 * ARTINFO formulas, shows each beside its MD equivalent (symbols resolved
 * against the asset catalog), converts the chosen ones in one batch, and
 * undoes that conversion; formulas it cannot convert are listed with the
 * reason. The conversion itself is src/core/artemis.ts.
 */
import {
  Body1,
  Button,
  Caption1,
  Checkbox,
  makeStyles,
  mergeClasses,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Spinner,
  Subtitle2,
  tokens,
} from "@fluentui/react-components";
import { useCallback, useEffect, useMemo, useState } from "react";
import { catalogResolver, convertArtemisFormula, hasArtemisCall, type SymbolResolver } from "../../core/artemis";
import type { AssetRecord } from "../../core/domain";
import { suggestSymbols } from "../../core/suggest";
import { errorText } from "../shared/error-text";
import { useServices } from "../shared/pane-services";
import { useRequest } from "../shared/use-request";
import {
  migrationWorkbookForHost,
  type FormulaChange,
  type MigrationWorkbook,
  type ReplaceOutcome,
  type WorkbookFormula,
} from "../../office/workbook/formula-migration";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalL },
  section: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  heading: { margin: 0 },
  actions: { display: "flex", flexWrap: "wrap", gap: tokens.spacingHorizontalS },
  list: { listStyleType: "none", margin: 0, padding: 0, display: "flex", flexDirection: "column" },
  item: {
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalXXS,
    padding: `${tokens.spacingVerticalS} 0`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
    minWidth: 0,
  },
  formulas: {
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalXXS,
    paddingLeft: tokens.spacingHorizontalXXL,
    minWidth: 0,
  },
  code: {
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    overflowWrap: "anywhere",
    margin: 0,
  },
  before: { color: tokens.colorNeutralForeground3 },
  note: { color: tokens.colorNeutralForeground3 },
  address: { fontWeight: tokens.fontWeightSemibold },
  reason: { color: tokens.colorPaletteRedForeground1 },
  // Read by screen readers, not shown.
  hidden: {
    position: "absolute",
    width: "1px",
    height: "1px",
    overflow: "hidden",
    clipPath: "inset(50%)",
    whiteSpace: "nowrap",
  },
});

/** A scanned formula with what the converter made of it. */
interface Row extends WorkbookFormula {
  key: string;
  converted: { formula: string; notes: string[] } | null;
  reason: string | null;
}

/** What Undo puts back: each cell converted since the last undo, what Excel stored there, and the original. */
interface Conversion {
  cells: { sheet: string; address: string; stored: string; original: string }[];
}

type Scan =
  { status: "idle" | "loading" } | { status: "ready"; found: WorkbookFormula[] } | { status: "error"; message: string };

interface Result {
  intent: "success" | "warning" | "error";
  text: string;
}

/** What a Convert or an Undo did: `done`, then the cells left alone (edited since) and the ones Excel refused. */
function replaceResult(outcome: ReplaceOutcome, done: string, changedSince: string): Result {
  const left = [
    outcome.changed.length > 0 &&
      `${changedSince} (${outcome.changed.map((c) => cellName(c.sheet, c.address)).join(", ")}).`,
    outcome.refused.length > 0 &&
      `Excel refused ${outcome.refused.map((r) => `${cellName(r.sheet, r.address)} (${r.reason})`).join(", ")}.`,
  ].filter(Boolean);
  return { intent: left.length ? "warning" : "success", text: [done, ...left].join(" ") };
}

/** "Sheet1!B2", or "'My sheet'!B2" when the name needs quotes (as Excel writes it). */
export function cellName(sheet: string, address: string): string {
  const bare = /^[A-Za-z_][A-Za-z0-9_.]*$/.test(sheet);
  return `${bare ? sheet : `'${sheet.replace(/'/g, "''")}'`}!${address}`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function MigrateView({ active, workbook }: { active: boolean; workbook?: MigrationWorkbook }) {
  const styles = useStyles();
  const { client, host } = useServices();
  const book = useMemo(() => workbook ?? migrationWorkbookForHost(host), [workbook, host]);
  // Scans and the catalog wait until the view is first shown.
  const [opened, setOpened] = useState(active);
  useEffect(() => {
    if (active) setOpened(true);
  }, [active]);

  const wanted = opened && book.available;
  const catalog = useRequest(wanted ? (signal) => client.getAssets({ signal }) : null, [wanted, client]);
  const [scan, setScan] = useState<Scan>({ status: "idle" });
  // Every convertible formula is chosen unless unticked; a new scan chooses them all again.
  const [unticked, setUnticked] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState<"convert" | "undo" | null>(null);
  const [undo, setUndo] = useState<Conversion | null>(null);
  const [result, setResult] = useState<Result | null>(null);

  const runScan = useCallback(async () => {
    setScan({ status: "loading" });
    setUnticked(new Set());
    try {
      setScan({ status: "ready", found: await book.findFormulas(hasArtemisCall) });
    } catch (error) {
      setScan({ status: "error", message: errorText(error) });
    }
  }, [book]);

  useEffect(() => {
    if (opened && book.available) void runScan();
  }, [opened, book, runScan]);

  // The request state is a new object on every render: the resolver follows what it holds.
  const assets: AssetRecord[] | null = catalog.status === "ready" ? catalog.data : null;
  const catalogError = catalog.status === "error" ? catalog.message : null;
  const resolver = useMemo<SymbolResolver | null>(() => {
    if (assets) return catalogResolver(assets, (symbol) => suggestSymbols(symbol, assets));
    if (catalogError !== null) return () => ({ known: false, suggestions: [], reason: catalogError });
    return null;
  }, [assets, catalogError]);

  const rows = useMemo<Row[] | null>(() => {
    if (scan.status !== "ready" || !resolver) return null;
    return scan.found.map((found) => {
      const conversion = convertArtemisFormula(found.formula, resolver);
      return {
        ...found,
        key: cellName(found.sheet, found.address),
        converted: conversion.ok ? { formula: conversion.formula, notes: conversion.notes } : null,
        reason: conversion.ok ? null : conversion.reason,
      };
    });
  }, [scan, resolver]);

  const convertible = useMemo(() => rows?.filter((row) => row.converted) ?? [], [rows]);
  const refused = useMemo(() => rows?.filter((row) => !row.converted) ?? [], [rows]);
  const chosen = convertible.filter((row) => !unticked.has(row.key));

  const convert = async () => {
    const changes: FormulaChange[] = chosen.map((row) => ({
      sheet: row.sheet,
      address: row.address,
      from: row.formula,
      to: row.converted!.formula,
    }));
    const originals = new Map(chosen.map((row) => [row.key, row.formula]));
    setBusy("convert");
    setResult(null);
    try {
      const outcome = await book.replaceFormulas(changes);
      const cells = outcome.written.map((cell) => ({
        sheet: cell.sheet,
        address: cell.address,
        stored: cell.formula,
        original: originals.get(cellName(cell.sheet, cell.address))!,
      }));
      // A second conversion before an undo adds to what Undo puts back (its cells held Artemis formulas, so they differ).
      if (cells.length > 0) setUndo((previous) => ({ cells: [...(previous?.cells ?? []), ...cells] }));
      setResult(
        replaceResult(
          outcome,
          `Converted ${plural(outcome.written.length, "formula")}.`,
          `${plural(outcome.changed.length, "formula")} left as they are: changed since the scan`,
        ),
      );
    } catch (error) {
      setResult({ intent: "error", text: `Nothing was converted: ${errorText(error)}` });
    } finally {
      setBusy(null);
    }
    await runScan();
  };

  const undoConversion = async () => {
    if (!undo) return;
    setBusy("undo");
    setResult(null);
    try {
      const outcome = await book.replaceFormulas(
        undo.cells.map((cell) => ({ sheet: cell.sheet, address: cell.address, from: cell.stored, to: cell.original })),
      );
      setUndo(null);
      setResult(
        replaceResult(
          outcome,
          `Restored ${plural(outcome.written.length, "original formula")}.`,
          `${plural(outcome.changed.length, "cell")} edited since the conversion kept as they are`,
        ),
      );
    } catch (error) {
      setResult({ intent: "error", text: `Nothing was restored: ${errorText(error)}` });
    } finally {
      setBusy(null);
    }
    await runScan();
  };

  if (!book.available) {
    return (
      <div className={styles.root}>
        <Intro />
        <MessageBar intent="info">
          <MessageBarBody>Running outside Excel: open this pane in Excel to scan a workbook.</MessageBarBody>
        </MessageBar>
      </div>
    );
  }

  const loading = scan.status === "loading" || scan.status === "idle" || catalog.status === "loading";
  return (
    <div className={styles.root}>
      <Intro />
      <div className={styles.actions}>
        <Button onClick={() => void runScan()} disabled={busy !== null || scan.status === "loading"}>
          Scan again
        </Button>
        {undo && (
          <Button onClick={() => void undoConversion()} disabled={busy !== null}>
            {busy === "undo" ? "Restoring…" : `Undo conversion (${plural(undo.cells.length, "formula")})`}
          </Button>
        )}
      </div>
      <div role="status" aria-live="polite" data-testid="migrate-result">
        {result && (
          <MessageBar intent={result.intent}>
            <MessageBarBody>{result.text}</MessageBarBody>
          </MessageBar>
        )}
      </div>
      {catalog.status === "error" && (
        <MessageBar intent="error">
          <MessageBarBody>
            The asset catalog could not be read, so no symbol can be checked: {catalog.message}
          </MessageBarBody>
          <MessageBarActions>
            <Button onClick={catalog.retry}>Try again</Button>
          </MessageBarActions>
        </MessageBar>
      )}
      {scan.status === "error" && (
        <MessageBar intent="error">
          <MessageBarBody>The workbook could not be scanned: {scan.message}</MessageBarBody>
        </MessageBar>
      )}
      {loading && scan.status !== "error" ? (
        <Spinner size="small" label="Scanning the workbook and reading the asset catalog…" />
      ) : rows ? (
        <>
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
                  <Button
                    appearance="primary"
                    onClick={() => void convert()}
                    disabled={busy !== null || chosen.length === 0}
                  >
                    {busy === "convert" ? "Converting…" : `Convert ${plural(chosen.length, "formula")}`}
                  </Button>
                </div>
              </>
            )}
          </section>
          {refused.length > 0 && (
            <section className={styles.section} aria-labelledby="migrate-refused-heading">
              <Subtitle2 as="h2" id="migrate-refused-heading" className={styles.heading}>
                Cannot convert ({refused.length})
              </Subtitle2>
              <Caption1 as="p" className={styles.heading}>
                These stay as they are.
              </Caption1>
              <ul className={styles.list} aria-label="Formulas that cannot be converted">
                {refused.map((row) => (
                  <li key={row.key} className={styles.item} data-testid="migrate-refused">
                    <span className={styles.address}>{row.key}</span>
                    <div className={styles.formulas}>
                      <p className={mergeClasses(styles.code, styles.before)}>{row.formula}</p>
                      <Body1
                        as="p"
                        className={mergeClasses(styles.reason, styles.heading)}
                        data-testid="migrate-reason"
                      >
                        {row.reason}
                      </Body1>
                    </div>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </>
      ) : null}
    </div>
  );
}

function Intro() {
  const styles = useStyles();
  return (
    <section className={styles.section} aria-labelledby="migrate-heading">
      <Subtitle2 as="h2" id="migrate-heading" className={styles.heading}>
        Switch from Artemis Sheets
      </Subtitle2>
      <Caption1 as="p" className={styles.heading}>
        Every sheet&apos;s ART, ARTRANGE and ARTINFO formulas, each beside its MD formula. Choose the ones to convert;
        Undo conversion puts the originals back, except in cells edited since.
      </Caption1>
    </section>
  );
}
