/**
 * What the task pane asks of Office itself: which host it runs in (once
 * Office is ready) and the theme the user chose in Office. Outside Office
 * (a plain browser) the host is null and there is no Office theme.
 */

/** The colours Office gives an add-in (`Office.context.officeTheme`), in the part the pane reads. */
export interface OfficeTheme {
  isDarkTheme?: boolean;
  bodyBackgroundColor?: string;
}

/** Waits for office.js, then names the host ("Excel"), or null in a plain browser. */
export async function officeReady(): Promise<{ host: string | null }> {
  const info = await Office.onReady();
  return { host: info.host ? String(info.host) : null };
}

/** Office.context.officeTheme, guarded: outside Office `Office.context` may be missing or throw. */
export function readOfficeTheme(): OfficeTheme | null {
  try {
    const office = (globalThis as { Office?: { context?: { officeTheme?: OfficeTheme } } }).Office;
    return office?.context?.officeTheme ?? null;
  } catch {
    return null;
  }
}
