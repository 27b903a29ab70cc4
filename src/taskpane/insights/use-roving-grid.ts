/**
 * A roving tabindex over a layout grid: the whole grid is one Tab stop, the
 * arrow keys move within it. WAI-ARIA Authoring Practices, Grid pattern,
 * "Layout Grids for Grouping Widgets" (https://www.w3.org/WAI/ARIA/apg/patterns/grid/)
 * and "Managing Focus Within Components Using a Roving tabindex"
 * (https://www.w3.org/WAI/ARIA/apg/practices/keyboard-interface/#kbd_roving_tabindex):
 * exactly one element in the grid has tabindex="0" (the one focused last),
 * every other focusable element in it tabindex="-1"; ↓/↑ move to the row
 * below/above (the same column, or the row's last), →/← along the row,
 * Home/End to the row's ends, Ctrl+Home/Ctrl+End to the first/last row's,
 * PageDown/PageUp five rows on.
 *
 * Rows are the grid's `role="row"` children; a row's stops are its cells that
 * carry `data-grid-focus` (a cell focused itself: the card's text) and the
 * enabled buttons directly in its cells, in document order. The tabindex
 * attributes are set here, not by React, so a row re-rendering keeps them;
 * `sync` runs after the rows change.
 */
import { useCallback, useRef, type FocusEvent, type KeyboardEvent, type RefObject } from "react";

const STOPS = '[data-grid-focus], [role="gridcell"] > button:not(:disabled)';
const PAGE_ROWS = 5;

interface At {
  row: number;
  column: number;
}

function gridRows(grid: HTMLElement): HTMLElement[][] {
  return [...grid.querySelectorAll<HTMLElement>(':scope > [role="row"]')].map((row) => [
    ...row.querySelectorAll<HTMLElement>(STOPS),
  ]);
}

function find(rows: HTMLElement[][], element: Element): At | null {
  for (let row = 0; row < rows.length; row++) {
    const column = rows[row].indexOf(element as HTMLElement);
    if (column >= 0) return { row, column };
  }
  return null;
}

/** Where a key moves from `at` (null: the key is not the grid's). */
export function moveInGrid(key: string, ctrl: boolean, at: At, lengths: readonly number[]): At | null {
  const last = lengths.length - 1;
  const inRow = (row: number, column: number) => ({ row, column: Math.max(0, Math.min(column, lengths[row] - 1)) });
  switch (key) {
    case "ArrowDown":
      return inRow(Math.min(last, at.row + 1), at.column);
    case "ArrowUp":
      return inRow(Math.max(0, at.row - 1), at.column);
    case "PageDown":
      return inRow(Math.min(last, at.row + PAGE_ROWS), at.column);
    case "PageUp":
      return inRow(Math.max(0, at.row - PAGE_ROWS), at.column);
    case "ArrowRight":
      return inRow(at.row, at.column + 1);
    case "ArrowLeft":
      return inRow(at.row, at.column - 1);
    case "Home":
      return ctrl ? inRow(0, 0) : inRow(at.row, 0);
    case "End":
      return ctrl ? inRow(last, lengths[last] - 1) : inRow(at.row, lengths[at.row] - 1);
    default:
      return null;
  }
}

export function useRovingGrid(grid: RefObject<HTMLElement | null>) {
  const active = useRef<At>({ row: 0, column: 0 });

  /** One stop tabbable: the active one, or the first when it is gone (fewer rows, a button disabled). */
  const sync = useCallback(() => {
    if (!grid.current) return;
    const rows = gridRows(grid.current);
    const at = active.current;
    const target = rows[at.row]?.[at.column] ?? rows[0]?.[0];
    for (const stop of rows.flat()) stop.tabIndex = stop === target ? 0 : -1;
    if (target && target !== rows[at.row]?.[at.column]) active.current = { row: 0, column: 0 };
  }, [grid]);

  const onFocus = useCallback(
    (event: FocusEvent<HTMLElement>) => {
      if (!grid.current) return;
      const at = find(gridRows(grid.current), event.target);
      if (!at) return;
      active.current = at;
      sync();
    },
    [grid, sync],
  );

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLElement>) => {
      if (!grid.current || event.altKey || event.shiftKey || event.metaKey) return;
      const rows = gridRows(grid.current);
      const at = find(rows, event.target as Element);
      if (!at) return;
      const next = moveInGrid(
        event.key,
        event.ctrlKey,
        at,
        rows.map((row) => row.length),
      );
      if (!next) return;
      event.preventDefault();
      active.current = next;
      sync();
      rows[next.row][next.column]?.focus();
    },
    [grid, sync],
  );

  return { sync, onFocus, onKeyDown };
}
