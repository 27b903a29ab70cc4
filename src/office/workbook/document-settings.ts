/** The workbook's own settings (`Office.context.document.settings`): stored in the file, saved on every change. */

interface OfficeDocument {
  context: { document: { settings: Pick<Office.Settings, "set" | "saveAsync"> } };
}

/** Sets the value and saves the settings; rejects when the workbook did not save them (or has no settings). */
export function saveDocumentSetting(office: OfficeDocument, key: string, value: unknown): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const settings = office.context.document.settings;
    settings.set(key, value);
    settings.saveAsync((result) => {
      // office.js reports the status as the string "failed"; the typings declare a numeric enum.
      if (String(result.status) === "failed")
        reject(new Error(`The workbook did not save the setting: ${result.error?.message ?? "unknown error"}`));
      else resolve();
    });
  });
}
