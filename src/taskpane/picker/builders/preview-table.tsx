/**
 * The preview's table: the rows the cell will spill, the first few shown, in a
 * box that scrolls sideways when the table is wider than the pane.
 */
import { Button, Caption1, mergeClasses } from "@fluentui/react-components";
import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from "react";
import { redact } from "../../../api";
import { type CellValue, isErrorCell } from "../../../core/cell";
import type { DateSystem } from "../../../core/excel-date";
import type { FormatAt } from "../../../core/number-format";
import { cellData, cellText } from "./preview-outcome";
import { usePreviewStyles } from "./preview-styles";

/** A header row: text in every cell, above at least one row of data (the functions' header rows, never a value). */
export function hasHeaderRow(rows: readonly CellValue[][]): boolean {
  return rows.length > 1 && rows[0].length > 0 && rows[0].every((value) => typeof value === "string");
}

/** "8 rows (and a header row) × 7 columns; the first 6 shown": the rows of data, the header counted apart. */
export function tableSizeText(
  rows: readonly CellValue[][],
  columns: number,
  shown: number,
  header = hasHeaderRow(rows),
): string {
  const data = rows.length - (header ? 1 : 0);
  const dataShown = Math.max(0, shown - (header ? 1 : 0));
  const rowWord = `${data.toLocaleString("en-US")} ${data === 1 ? "row" : "rows"}`;
  return (
    `${rowWord}${header ? " (and a header row)" : ""} × ${columns} ${columns === 1 ? "column" : "columns"}` +
    (data > dataShown ? `; the first ${dataShown} shown` : "")
  );
}

/**
 * The table, in a box that scrolls sideways when it is wider than the pane:
 * then the box is a named region in the Tab order (the arrow keys scroll it),
 * with a note above it and a shadow on the side that has more columns.
 */
export function PreviewTable({
  rows,
  shown,
  columns,
  header,
  formatAt,
  dateSystem,
}: {
  rows: CellValue[][];
  shown: CellValue[][];
  columns: number;
  /** Whether the first row is a header row, counted apart from the rows of data. */
  header: boolean;
  formatAt: FormatAt;
  dateSystem: DateSystem;
}) {
  const styles = usePreviewStyles();
  const box = useRef<HTMLDivElement>(null);
  const [scroll, setScroll] = useState({ wide: false, left: false, right: false });
  const noteId = useId();
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => {
      const wide = element.scrollWidth > element.clientWidth + 1;
      const left = wide && element.scrollLeft > 0;
      const right = wide && element.scrollLeft + element.clientWidth < element.scrollWidth - 1;
      setScroll((was) => (was.wide === wide && was.left === left && was.right === right ? was : { wide, left, right }));
    };
    measure();
    element.addEventListener("scroll", measure, { passive: true });
    const observer = typeof ResizeObserver === "function" ? new ResizeObserver(measure) : null;
    observer?.observe(element);
    if (element.firstElementChild) observer?.observe(element.firstElementChild);
    return () => {
      element.removeEventListener("scroll", measure);
      observer?.disconnect();
    };
  }, []);
  const size = tableSizeText(rows, columns, shown.length, header);
  // The arrow keys scroll a focused box by themselves; Home and End would scroll it up and down: here, to its ends.
  const scrollEnds = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== "Home" && event.key !== "End") return;
    event.preventDefault();
    const element = event.currentTarget;
    element.scrollTo({ left: event.key === "Home" ? 0 : element.scrollWidth - element.clientWidth });
  };
  const scrollBy = (direction: 1 | -1) => {
    const element = box.current;
    element?.scrollBy({ left: direction * Math.max(40, element.clientWidth * 0.8) });
  };
  return (
    <>
      {scroll.wide && (
        <div className={styles.scrollBar}>
          <Caption1 id={noteId} className={styles.scrollNote} data-testid="function-preview-scroll-note">
            Wider than the pane: scroll sideways, or select the table and use the arrow keys (Home, End), to see all{" "}
            {columns} columns.
          </Caption1>
          <Button size="small" disabled={!scroll.left} onClick={() => scrollBy(-1)}>
            Scroll left
          </Button>
          <Button size="small" disabled={!scroll.right} onClick={() => scrollBy(1)}>
            Scroll right
          </Button>
        </div>
      )}
      <div
        ref={box}
        className={mergeClasses(
          styles.scroll,
          scroll.wide && styles.scrollable,
          scroll.left && styles.moreLeft,
          scroll.right && styles.moreRight,
          scroll.left && scroll.right && styles.moreBoth,
        )}
        data-testid="function-preview-scroll"
        data-scrollable={scroll.wide}
        data-more-columns={
          scroll.left && scroll.right ? "both sides" : scroll.left ? "left" : scroll.right ? "right" : undefined
        }
        {...(scroll.wide
          ? {
              tabIndex: 0,
              role: "region",
              "aria-label": `Preview table, ${size}`,
              "aria-describedby": noteId,
              onKeyDown: scrollEnds,
            }
          : {})}
      >
        <table
          className={styles.table}
          data-testid="function-preview-table"
          data-rows={rows.length}
          data-columns={columns}
        >
          <caption className={styles.caption}>
            <Caption1>{size}</Caption1>
          </caption>
          <tbody>
            {shown.map((row, r) => (
              <tr key={r}>
                {row.map((value, c) => {
                  const format = typeof value === "number" ? formatAt(r, c, value) : null;
                  return (
                    <td
                      key={c}
                      className={`${styles.cell} ${typeof value === "number" ? styles.number : ""} ${isErrorCell(value) ? styles.error : ""}`}
                      title={isErrorCell(value) ? redact(value.message) : undefined}
                      data-value={cellData(value)}
                    >
                      {cellText(value, format, dateSystem)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
